// The occupancy calculator against figures that are facts: the guide's register cliff, the
// register ceilings ptxas applies for launch bounds, the per-CC caps of the table, and the
// shared-memory allocation rules (docs: cuda-facts §4.1–§4.3). Where a figure is derived, the
// comment works it out from the documented formula:
//   perWarp = roundup(regs × 32, 256); warpsPerSubPartition = floor(16384 / perWarp);
//   register limit = floor(4 × warpsPerSubPartition / warpsPerBlock);
//   shared limit = floor(carveout / roundup(bytes + reserved, granularity)).
// The sm_90 figures (cliffs, launch bounds, shared memory, barriers, failures) also agree with
// the driver's cuOccupancyMaxActiveBlocksPerMultiprocessor on an H100 (CUDA 13.0), asked about
// kernels JIT-compiled with `.maxnreg N` to use exactly N registers.
#include <catch2/catch.hpp>

#include <string>

#include "registers/Occupancy.h"

using namespace ptx::registers;
using Catch::Matchers::StartsWith;

namespace {

SmLimits target(std::string_view name) {
  std::optional<SmLimits> limits = limitsForTarget(name);
  REQUIRE(limits.has_value());
  return *limits;
}

Occupancy occupancy(std::string_view name, std::uint32_t registers, std::uint32_t threads,
                    std::uint32_t sharedBytes = 0, std::uint32_t namedBarriers = 0) {
  OccupancyInput input;
  input.registersPerThread = registers;
  input.threadsPerBlock = threads;
  input.sharedBytesPerBlock = sharedBytes;
  input.namedBarriers = namedBarriers;
  return computeOccupancy(target(name), input);
}

}  // namespace

TEST_CASE("Targets map to the row of their compute capability", "[occupancy]") {
  SmLimits hopper = target("sm_90a");
  CHECK(hopper.major == 9);
  CHECK(hopper.minor == 0);
  CHECK(hopper.maxWarpsPerSm == 64);
  CHECK(hopper.maxBlocksPerSm == 32);
  CHECK(hopper.sharedMemoryPerSm == 228 * 1024);
  CHECK(hopper.maxSharedMemoryPerBlock == 227 * 1024);
  CHECK(hopper.sharedAllocationUnit == 128);
  CHECK(hopper.reservedSharedPerBlock == 1024);
  CHECK(hopper.namedBarrierBlocksFactor == 2);
  CHECK(hopper.carveoutsKiB.back() == 228);

  SmLimits blackwell = target("sm_100f");
  CHECK(blackwell.major == 10);
  CHECK(blackwell.minor == 0);
  CHECK(blackwell.maxBlocksPerSm == 32);
  CHECK(blackwell.sharedMemoryPerSm == 228 * 1024);
  CHECK(target("sm_103a").maxBlocksPerSm == 32);
  CHECK(target("sm_101").maxBlocksPerSm == 24);  // §4.1: "10.1: 24".

  // 12.0: 48 warps, 100 KB / 99 KB, and 24 blocks (the table's cell says 32; CUDA 13.0's
  // cuda_occupancy.h says 24, and §4.1 says to treat it as 24).
  SmLimits consumer = target("sm_120a");
  CHECK(consumer.major == 12);
  CHECK(consumer.minor == 0);
  CHECK(consumer.maxWarpsPerSm == 48);
  CHECK(consumer.maxBlocksPerSm == 24);
  CHECK(consumer.sharedMemoryPerSm == 100 * 1024);
  CHECK(consumer.maxSharedMemoryPerBlock == 99 * 1024);
  CHECK(consumer.namedBarrierBlocksFactor == 1);

  SmLimits ada = target("compute_89");
  CHECK(ada.major == 8);
  CHECK(ada.minor == 9);
  CHECK(ada.maxWarpsPerSm == 48);
  CHECK(ada.maxBlocksPerSm == 24);
  CHECK(ada.sharedMemoryPerSm == 100 * 1024);

  SmLimits ampere = target("sm_80");
  CHECK(ampere.maxWarpsPerSm == 64);
  CHECK(ampere.sharedMemoryPerSm == 164 * 1024);
  CHECK(ampere.maxSharedMemoryPerBlock == 163 * 1024);
  CHECK(target("sm_86").maxBlocksPerSm == 16);
  CHECK(target("sm_87").sharedMemoryPerSm == 164 * 1024);

  SmLimits turing = target("sm_75");
  CHECK(turing.maxWarpsPerSm == 32);
  CHECK(turing.maxBlocksPerSm == 16);
  CHECK(turing.sharedMemoryPerSm == 64 * 1024);
  CHECK(turing.maxSharedMemoryPerBlock == 64 * 1024);
  CHECK(turing.sharedAllocationUnit == 256);

  // Too old for ptxas 13, unknown, or not a target at all.
  CHECK_FALSE(limitsForTarget("sm_52"));
  CHECK_FALSE(limitsForTarget("sm_70"));
  CHECK_FALSE(limitsForTarget("sm_91"));
  CHECK_FALSE(limitsForTarget("sm_80a"));   // `a` targets start at 9.0.
  CHECK_FALSE(limitsForTarget("sm_90f"));   // `f` targets start at 10.0.
  CHECK_FALSE(limitsForTarget("sm_"));
  CHECK_FALSE(limitsForTarget("sm_9"));
  CHECK_FALSE(limitsForTarget("sm_090"));
  CHECK_FALSE(limitsForTarget("sm_90 "));
  CHECK_FALSE(limitsForTarget("debug"));
  CHECK_FALSE(limitsForTarget("texmode_unified"));
  CHECK_FALSE(limitsForTarget(""));
}

TEST_CASE("The guide's register cliff: 64 registers x 512 threads", "[occupancy]") {
  // §4.2: on a 64K-register SM, 64 registers × 512 threads × 2 blocks = 65536 fits exactly, and
  // at 65 registers only one block fits.
  //   64: perWarp = 2048, 16384 / 2048 = 8 warps per sub-partition, 32 per SM, 32 / 16 = 2.
  //   65: perWarp = roundup(2080, 256) = 2304, 16384 / 2304 = 7, 28 per SM, 28 / 16 = 1.
  for (const char* name : {"sm_80", "sm_90", "sm_100"}) {
    INFO(name);
    Occupancy at64 = occupancy(name, 64, 512);
    CHECK(at64.blocksPerSm == 2);
    CHECK(at64.warpsPerBlock == 16);
    CHECK(at64.activeWarpsPerSm == 32);
    CHECK(at64.maxWarpsPerSm == 64);
    CHECK(at64.fraction == Approx(0.5));
    CHECK(at64.limitedBy == "registers");
    CHECK(at64.registerHeadroomUntil == 64);

    Occupancy at65 = occupancy(name, 65, 512);
    CHECK(at65.blocksPerSm == 1);
    CHECK(at65.activeWarpsPerSm == 16);
    CHECK(at65.fraction == Approx(0.25));
    CHECK(at65.limitedBy == "registers");
    CHECK(at65.fewerRegistersForMoreBlocks == 64);
    CHECK(at65.blocksWithFewerRegisters == 2);
    // One block of 16 warps needs 4 per sub-partition: perWarp ≤ 16384 / 4 = 4096, i.e. up to
    // 128 registers (129 → 4352 per warp, 3 per sub-partition, 12 warps: the block no longer fits).
    CHECK(at65.registerHeadroomUntil == 128);
    CHECK(occupancy(name, 129, 512).blocksPerSm == 0);
  }
  // sm_75 has 32 warps per SM: the two blocks of 64 registers are full residency, as in the
  // guide's example, and the warp cap ties with registers (fewer registers would not help).
  Occupancy turing64 = occupancy("sm_75", 64, 512);
  CHECK(turing64.blocksPerSm == 2);
  CHECK(turing64.activeWarpsPerSm == 32);
  CHECK(turing64.fraction == Approx(1.0));
  CHECK(turing64.limitedBy == "warps");
  CHECK(turing64.fewerRegistersForMoreBlocks == 0);
  CHECK(turing64.blocksWithFewerRegisters == 0);
  Occupancy turing65 = occupancy("sm_75", 65, 512);
  CHECK(turing65.blocksPerSm == 1);
  CHECK(turing65.activeWarpsPerSm == 16);
  CHECK(turing65.fraction == Approx(0.5));
  CHECK(turing65.limitedBy == "registers");
  CHECK(turing65.fewerRegistersForMoreBlocks == 64);
  CHECK(turing65.blocksWithFewerRegisters == 2);
}

TEST_CASE("The register ceilings ptxas applies for launch bounds", "[occupancy]") {
  // §4.3, verified with ptxas on sm_80, sm_90 and sm_120: the register count ptxas caps a kernel
  // to is the most that still fits minBlocks blocks of maxThreads threads.
  for (const char* name : {"sm_80", "sm_90", "sm_120"}) {
    INFO(name);
    // (1024, 1) → 64: 32 warps, 2048 per warp × 32 = 65536. At 65 the block does not fit at all.
    CHECK(occupancy(name, 64, 1024).blocksPerSm == 1);
    CHECK(occupancy(name, 65, 1024).blocksPerSm == 0);
    // (384, 2) → 80: 12 warps; 80 → 2560 per warp, 6 per sub-partition, 24 / 12 = 2.
    // 81 and 88 → 2816 per warp, 5 per sub-partition, 20 / 12 = 1.
    CHECK(occupancy(name, 80, 384).blocksPerSm == 2);
    CHECK(occupancy(name, 81, 384).blocksPerSm == 1);
    CHECK(occupancy(name, 88, 384).blocksPerSm == 1);
    // (160, 3) → 128: 5 warps; 128 → 4096 per warp, 4 per sub-partition, 16 / 5 = 3. The naive
    // 65536 / 480 = 136 is wrong: 136 → 4352 per warp, 3 per sub-partition, 12 / 5 = 2.
    CHECK(occupancy(name, 128, 160).blocksPerSm == 3);
    CHECK(occupancy(name, 129, 160).blocksPerSm == 2);
    CHECK(occupancy(name, 136, 160).blocksPerSm == 2);
    // (64, 8) → 128: 2 warps; 128 → 16 warps per SM, 16 / 2 = 8; 129 → 12 / 2 = 6.
    CHECK(occupancy(name, 128, 64).blocksPerSm == 8);
    CHECK(occupancy(name, 129, 64).blocksPerSm == 6);
  }
}

TEST_CASE("The warp cap of each compute capability", "[occupancy]") {
  // sm_86: 48 warps = 1536 threads per SM. 256-thread blocks of 32 registers: registers allow
  // 16384 / 1024 = 16 per sub-partition, 64 warps, 8 blocks; warps allow 48 / 8 = 6.
  Occupancy ampere = occupancy("sm_86", 32, 256);
  CHECK(ampere.maxWarpsPerSm * 32 == 1536);
  CHECK(ampere.blocksPerSm == 6);
  CHECK(ampere.activeWarpsPerSm == 48);
  CHECK(ampere.fraction == Approx(1.0));
  CHECK(ampere.limitedBy == "warps");
  CHECK(ampere.fewerRegistersForMoreBlocks == 0);
  // A 1024-thread block on a 1536-thread SM: one block, two thirds of the warps.
  Occupancy big = occupancy("sm_86", 32, 1024);
  CHECK(big.blocksPerSm == 1);
  CHECK(big.fraction == Approx(32.0 / 48.0));
  CHECK(big.limitedBy == "warps");
  // Warps are counted whole: 33 threads take 2 warp slots, so 32 blocks on sm_90 → 64 warps.
  Occupancy ragged = occupancy("sm_90", 32, 33);
  CHECK(ragged.warpsPerBlock == 2);
  CHECK(ragged.blocksPerSm == 32);
  CHECK(ragged.activeWarpsPerSm == 64);
  CHECK(occupancy("sm_120", 32, 512).blocksPerSm == 3);  // 48 / 16.
  CHECK(occupancy("sm_75", 32, 512).blocksPerSm == 2);   // 32 / 16.
}

TEST_CASE("The block cap of each compute capability", "[occupancy]") {
  // 32-thread blocks (one warp) of few registers: the block cap decides.
  Occupancy ada = occupancy("sm_89", 32, 32);
  CHECK(ada.blocksPerSm == 24);
  CHECK(ada.activeWarpsPerSm == 24);
  CHECK(ada.fraction == Approx(0.5));
  CHECK(ada.limitedBy == "blocks");
  CHECK(occupancy("sm_86", 32, 32).blocksPerSm == 16);
  CHECK(occupancy("sm_75", 32, 32).blocksPerSm == 16);
  CHECK(occupancy("sm_80", 32, 32).blocksPerSm == 32);
  CHECK(occupancy("sm_90", 32, 32).blocksPerSm == 32);
  CHECK(occupancy("sm_120", 32, 32).blocksPerSm == 24);
  CHECK(occupancy("sm_101", 32, 32).blocksPerSm == 24);
}

TEST_CASE("Shared memory: the per-block reservation and the granularity", "[occupancy]") {
  // 48 KB static per block on sm_90: roundup(49152 + 1024, 128) = 50176 bytes per block, and
  // floor(233472 / 50176) = 4 (4 × 50176 = 200704 ≤ 233472 < 5 × 50176 = 250880).
  Occupancy hopper48 = occupancy("sm_90", 32, 128, 48 * 1024);
  CHECK(hopper48.blocksPerSm == 4);
  CHECK(hopper48.activeWarpsPerSm == 16);
  CHECK(hopper48.limitedBy == "shared memory");
  // The 1 KB reservation decides at 57 KB: 233472 / 58368 would be 4 exactly, but each block
  // takes 57 + 1 = 58 KB = 59392 bytes, and floor(233472 / 59392) = 3.
  CHECK(occupancy("sm_90", 32, 128, 57 * 1024).blocksPerSm == 3);
  CHECK(occupancy("sm_90", 32, 128, 56 * 1024).blocksPerSm == 4);  // 57 KB per block: 4 × 58368 = 233472.
  // sm_80, 164 KB per SM: 40960 bytes → 41984 per block → 4; one byte more rounds to
  // roundup(41985, 128) = 42112 → floor(167936 / 42112) = 3.
  CHECK(occupancy("sm_80", 32, 128, 40960).blocksPerSm == 4);
  CHECK(occupancy("sm_80", 32, 128, 40961).blocksPerSm == 3);
  // 7.x allocates in 256-byte units with no reservation: 10880 bytes round to 11008, and
  // floor(65536 / 11008) = 5; in 128-byte units 6 × 10880 = 65280 ≤ 65536 would give 6.
  Occupancy turing = occupancy("sm_75", 32, 32, 10880);
  CHECK(turing.blocksPerSm == 5);
  CHECK(turing.limitedBy == "shared memory");
  CHECK(occupancy("sm_75", 32, 32, 10752).blocksPerSm == 6);  // 42 × 256: 6 × 10752 = 64512.
  // No shared memory still costs the 1 KB reservation, which never limits below the block cap:
  // floor(102400 / 1024) = 100 blocks on sm_86.
  CHECK(occupancy("sm_86", 16, 32).limitedBy == "blocks");
}

TEST_CASE("The per-block shared-memory maximum", "[occupancy]") {
  // The opt-in maximum per block is the SM's carveout less the reservation: 227 KB on 9.0,
  // 163 KB on 8.0, 99 KB on 8.6/8.9/12.0; on 7.5 the whole 64 KB (no reservation).
  CHECK(occupancy("sm_90", 32, 128, 227 * 1024).blocksPerSm == 1);
  CHECK(occupancy("sm_80", 32, 128, 163 * 1024).blocksPerSm == 1);
  CHECK(occupancy("sm_89", 32, 128, 99 * 1024).blocksPerSm == 1);
  CHECK(occupancy("sm_120", 32, 128, 99 * 1024).blocksPerSm == 1);
  CHECK(occupancy("sm_75", 32, 128, 64 * 1024).blocksPerSm == 1);
  for (auto [name, bytes] : {std::pair{"sm_90", 227 * 1024 + 1}, std::pair{"sm_80", 163 * 1024 + 1},
                             std::pair{"sm_86", 99 * 1024 + 1}, std::pair{"sm_75", 64 * 1024 + 1}}) {
    INFO(name);
    Occupancy failed = occupancy(name, 32, 128, static_cast<std::uint32_t>(bytes));
    CHECK(failed.blocksPerSm == 0);
    CHECK(failed.activeWarpsPerSm == 0);
    CHECK(failed.fraction == 0.0);
    CHECK_THAT(failed.limitedBy, StartsWith("launch fails: too much shared memory per block"));
    CHECK(failed.registerHeadroomUntil == 0);
    CHECK(failed.fewerRegistersForMoreBlocks == 0);
  }
}

TEST_CASE("Launches that fail", "[occupancy]") {
  // More than 1024 threads per block (§4.1).
  Occupancy threads = occupancy("sm_90", 32, 1025);
  CHECK(threads.blocksPerSm == 0);
  CHECK_THAT(threads.limitedBy, StartsWith("launch fails: too many threads per block (1025 > 1024)"));
  // Registers × threads beyond 64K per block: 65 registers round to 2304 per warp, × 32 warps =
  // 73728 > 65536. Fewer registers make it fit again: at 64, one block.
  Occupancy registers = occupancy("sm_90", 65, 1024);
  CHECK(registers.blocksPerSm == 0);
  CHECK(registers.activeWarpsPerSm == 0);
  CHECK_THAT(registers.limitedBy, StartsWith("launch fails: too many registers per block"));
  CHECK(registers.fewerRegistersForMoreBlocks == 64);
  CHECK(registers.blocksWithFewerRegisters == 1);
  CHECK(registers.registerHeadroomUntil == 0);
  // The hardware counts a block's warps rounded up to the 4 sub-partitions: 800 threads are 25
  // warps, and 80 registers × 800 = 64000 ≤ 65536, but 2560 per warp × 28 = 71680 > 65536.
  Occupancy rounded = occupancy("sm_80", 80, 800);
  CHECK(rounded.blocksPerSm == 0);
  CHECK_THAT(rounded.limitedBy, StartsWith("launch fails: too many registers per block"));
  CHECK(rounded.fewerRegistersForMoreBlocks == 72);  // 2304 × 28 = 64512.
  // More registers than a thread can have.
  CHECK_THAT(occupancy("sm_90", 256, 32).limitedBy, StartsWith("launch fails: too many registers per thread"));
  CHECK(occupancy("sm_90", 255, 32).blocksPerSm == 8);  // 8192 per warp: 2 per sub-partition, 8 one-warp blocks.
  // Several causes at once are all named.
  Occupancy both = occupancy("sm_90", 65, 1024, 300 * 1024);
  CHECK(both.limitedBy.find("registers") != std::string::npos);
  CHECK(both.limitedBy.find("shared memory") != std::string::npos);
  CHECK_THAT(occupancy("sm_90", 32, 0).limitedBy, StartsWith("launch fails"));
}

TEST_CASE("The register cliff and the headroom", "[occupancy]") {
  // 48 registers × 512 threads on sm_90: perWarp 1536, 10 per sub-partition, 40 / 16 = 2 blocks.
  // At 40: 1280 per warp, 12 per sub-partition, 48 / 16 = 3 blocks; 41 rounds back to 1536.
  // Up to 64 registers (2048 per warp, 32 / 16 = 2) the two blocks stay.
  Occupancy at48 = occupancy("sm_90", 48, 512);
  CHECK(at48.blocksPerSm == 2);
  CHECK(at48.limitedBy == "registers");
  CHECK(at48.fewerRegistersForMoreBlocks == 40);
  CHECK(at48.blocksWithFewerRegisters == 3);
  CHECK(at48.registerHeadroomUntil == 64);
  // Registers that do not limit: 32 registers × 128 threads is 16 blocks by registers (16 per
  // sub-partition × 4 / 4) and by warps (64 / 4); the warps cap ties, so no cliff below, and the
  // blocks stay up to 32 registers (33 → 1280 per warp, 12 per sub-partition, 48 / 4 = 12).
  Occupancy full = occupancy("sm_90", 32, 128);
  CHECK(full.blocksPerSm == 16);
  CHECK(full.limitedBy == "warps");
  CHECK(full.fraction == Approx(1.0));
  CHECK(full.fewerRegistersForMoreBlocks == 0);
  CHECK(full.blocksWithFewerRegisters == 0);
  CHECK(full.registerHeadroomUntil == 32);
  // When shared memory limits, fewer registers do not help, and registers have headroom until
  // they limit harder: 4 blocks of 4 warps need 16 warps, 4 per sub-partition, so perWarp ≤
  // 16384 / 4 = 4096, i.e. 128 registers (129 → 4352 per warp, 3 per sub-partition, 3 blocks).
  Occupancy shared = occupancy("sm_90", 32, 128, 48 * 1024);
  CHECK(shared.blocksPerSm == 4);
  CHECK(shared.fewerRegistersForMoreBlocks == 0);
  CHECK(shared.registerHeadroomUntil == 128);
  // Headroom up to the per-thread maximum: one block of 8 warps (200 KB of shared memory each)
  // still fits at 255 registers (8192 per warp, 2 per sub-partition, 8 warps per SM).
  Occupancy single = occupancy("sm_90", 16, 256, 200 * 1024);
  CHECK(single.blocksPerSm == 1);
  CHECK(single.registerHeadroomUntil == 255);
  // 24 one-warp blocks on sm_89 need 6 warps per sub-partition: perWarp ≤ 16384 / 6 = 2730,
  // i.e. 2560, 80 registers.
  Occupancy blocks = occupancy("sm_89", 16, 32);
  CHECK(blocks.blocksPerSm == 24);
  CHECK(blocks.registerHeadroomUntil == 80);
}

TEST_CASE("Named barriers share the SM's block barriers from CC 9.0 on", "[occupancy]") {
  // Available = factor × maxBlocksPerSm; a block takes barrier 0 plus its named barriers (ptxas
  // "used N barriers" = highest id + 1). sm_90: 2 × 32 = 64; 3 named barriers → 4 per block →
  // 16 blocks. One-warp blocks so nothing else limits below 32.
  Occupancy hopper = occupancy("sm_90", 32, 32, 0, 3);
  CHECK(hopper.blocksPerSm == 16);
  CHECK(hopper.limitedBy == "barriers");
  CHECK(occupancy("sm_90", 32, 32, 0, 1).blocksPerSm == 32);  // 64 / 2.
  CHECK(occupancy("sm_90", 32, 32, 0, 15).blocksPerSm == 4);  // 64 / 16.
  // sm_120: 1 × 24 = 24 barriers; 3 named → 24 / 4 = 6 blocks.
  CHECK(occupancy("sm_120", 32, 32, 0, 3).blocksPerSm == 6);
  // No named barriers: barrier 0 alone never limits.
  CHECK(occupancy("sm_120", 32, 32).blocksPerSm == 24);
  // CUDA 13.0's cuda_occupancy.h applies the barrier limit only on CC ≥ 9.0.
  CHECK(occupancy("sm_86", 32, 32, 0, 15).blocksPerSm == 16);
}
