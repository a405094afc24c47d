// Occupancy: the per-CC table and the per-SM block limits (see Occupancy.h).
//
// The calculation follows cudaOccMaxActiveBlocksPerMultiprocessor in CUDA 13.0's
// <cuda_occupancy.h> step by step (docs: cuda-facts §4.2), for the default launch state: no
// carveout preference, no cache preference, and a function that has opted in to the largest
// per-block shared memory (cudaFuncAttributes converts to FUNC_SHMEM_LIMIT_OPTIN). Partitioned
// global caching (5.x/6.x only) and the virtual-resource limit of 10.x+ (a kernel attribute PTX
// does not show; it is 0 for ordinary kernels) do not apply.
#include "registers/Occupancy.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

namespace ptx::registers {
namespace {

constexpr std::uint32_t kWarpSize = 32;
constexpr std::uint32_t kKiB = 1024;
constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint32_t>::max();

std::uint64_t divideRoundUp(std::uint64_t value, std::uint64_t unit) {
  return unit == 0 ? value : (value + unit - 1) / unit;
}

std::uint64_t roundUp(std::uint64_t value, std::uint64_t unit) {
  return unit == 0 ? value : divideRoundUp(value, unit) * unit;
}

// One row of cuda-facts §4.1. Registers, threads per block and the register allocation rules
// are the same on every CC from 7.5 to 12.x, so only what differs is spelled per row.
struct Row {
  std::uint32_t number;          // major * 10 + minor, as in the target name.
  std::uint32_t maxWarpsPerSm;
  std::uint32_t maxBlocksPerSm;
  std::uint32_t sharedKiBPerSm;  // The largest carveout.
  std::uint32_t barrierFactor;
};

// Carveout steps per family, from cudaOccAlignUpShmemSizeVoltaPlus in <cuda_occupancy.h>.
const std::vector<std::uint32_t>& carveoutsFor(std::uint32_t sharedKiBPerSm) {
  static const std::vector<std::uint32_t> kTuring = {32, 64};
  static const std::vector<std::uint32_t> k100 = {0, 8, 16, 32, 64, 100};
  static const std::vector<std::uint32_t> k164 = {0, 8, 16, 32, 64, 100, 132, 164};
  static const std::vector<std::uint32_t> k228 = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  switch (sharedKiBPerSm) {
    case 64: return kTuring;
    case 100: return k100;
    case 164: return k164;
    default: return k228;
  }
}

// Blocks per SM are the header's (cudaOccMaxBlocksPerMultiprocessor), which disagrees with the
// guide's table on 12.0 (32 there, 24 in the header; cuda-facts says to treat it as 24). The barrier
// factor is the header's too (cudaOccMaxBlocksPerSMBlockBarrierLimit). 10.1 is the old name of
// Thor, which CUDA 13 calls 11.0; the header gives both 24 blocks and a factor of 1, and the
// rest of the 10.x row. 12.1 is 12.0's row (the header treats the two minors alike). sm_88 is
// a ptxas 13 target with no published limits (the header has no row for it either), so it is
// left out rather than guessed.
constexpr std::array<Row, 12> kRows = {{
    {75, 32, 16, 64, 2},
    {80, 64, 32, 164, 2},
    {86, 48, 16, 100, 1},
    {87, 48, 16, 164, 1},
    {89, 48, 24, 100, 1},
    {90, 64, 32, 228, 2},
    {100, 64, 32, 228, 2},
    {101, 64, 24, 228, 1},
    {103, 64, 32, 228, 2},
    {110, 64, 24, 228, 1},
    {120, 48, 24, 100, 1},
    {121, 48, 24, 100, 1},
}};

SmLimits limitsOf(const Row& row) {
  SmLimits limits;
  limits.major = row.number / 10;
  limits.minor = row.number % 10;
  limits.maxWarpsPerSm = row.maxWarpsPerSm;
  limits.maxBlocksPerSm = row.maxBlocksPerSm;
  limits.sharedMemoryPerSm = row.sharedKiBPerSm * kKiB;
  limits.carveoutsKiB = carveoutsFor(row.sharedKiBPerSm);
  limits.namedBarrierBlocksFactor = row.barrierFactor;
  if (limits.major == 7) {
    // Turing: 256-byte granularity, and no per-block reservation (the driver reserves shared
    // memory per block from Ampere on, says the header; the table's 64 KB per block on a 64 KB
    // SM leaves no room for one). So the per-block maximum is the whole SM.
    limits.sharedAllocationUnit = 256;
    limits.reservedSharedPerBlock = 0;
    limits.maxSharedMemoryPerBlock = limits.sharedMemoryPerSm;
  } else {
    // 1 KB reserved per block (cuobjdump shows SHARED:5120 for 4096 static bytes on sm_90), and
    // the opt-in per-block maximum is the SM's carveout less that reservation (163/99/227 KB).
    limits.sharedAllocationUnit = 128;
    limits.reservedSharedPerBlock = kKiB;
    limits.maxSharedMemoryPerBlock = limits.sharedMemoryPerSm - limits.reservedSharedPerBlock;
  }
  return limits;
}

// The per-SM block limit of each resource; kUnlimited where a resource sets none.
struct BlockLimits {
  std::uint64_t warpsPerBlock = 0;
  std::uint64_t warps = kUnlimited;
  std::uint64_t blocks = kUnlimited;
  std::uint64_t registers = kUnlimited;
  std::uint64_t shared = kUnlimited;
  std::uint64_t barriers = kUnlimited;
  bool noThreads = false;
  bool tooManyThreads = false;
  bool tooManyRegistersPerThread = false;
  bool tooManyRegistersPerBlock = false;
  bool tooMuchShared = false;
  bool tooManyBarriers = false;
  std::uint64_t registersPerWarp = 0;      // Allocated, rounded to the allocation unit.
  std::uint64_t registersAssumed = 0;      // What the hardware check counts per block.
  std::uint64_t sharedAllocated = 0;       // Per block, reservation and granularity included.
  std::uint64_t barriersPerBlock = 0;

  bool fails() const {
    return noThreads || tooManyThreads || tooManyRegistersPerThread || tooManyRegistersPerBlock || tooMuchShared ||
           tooManyBarriers;
  }
  std::uint64_t fitting() const {
    if (fails()) return 0;
    return std::min({warps, blocks, registers, shared, barriers});
  }
};

BlockLimits blockLimits(const SmLimits& limits, const OccupancyInput& input) {
  BlockLimits out;
  const std::uint64_t threads = input.threadsPerBlock;
  out.warpsPerBlock = divideRoundUp(threads, kWarpSize);
  if (threads == 0) {
    out.noThreads = true;
    return out;
  }
  out.tooManyThreads = threads > limits.maxThreadsPerBlock;

  // Warps and blocks: fixed caps of the SM. A block's warp count is rounded up, so a block of
  // 33 threads takes two warp slots.
  out.warps = limits.maxWarpsPerSm / out.warpsPerBlock;
  out.blocks = limits.maxBlocksPerSm;

  // Registers are allocated per warp, rounded up to the allocation unit (256, so a per-thread
  // count counts as the next multiple of 8), and each warp's registers come from one of the
  // sub-partitions' register files: an SM holds floor((65536 / 4) / perWarp) warps per
  // sub-partition. The launch-time check counts the block's warps rounded up to a multiple of
  // the sub-partitions ("for historical reasons", says the header, as if every partition
  // allocated at once); with 64K registers both per block and per SM that check fails exactly
  // when the SM limit below is 0, and it is what turns into "too many resources requested for
  // launch".
  out.tooManyRegistersPerThread = input.registersPerThread > limits.maxRegistersPerThread;
  out.registersPerWarp = roundUp(std::uint64_t{input.registersPerThread} * kWarpSize, limits.registerAllocationUnit);
  if (out.registersPerWarp > 0) {
    out.registersAssumed = out.registersPerWarp * roundUp(out.warpsPerBlock, std::max(limits.subPartitions, 1u));
    const std::uint64_t allocated = out.registersPerWarp * out.warpsPerBlock;
    const std::uint64_t subPartitions = std::max(limits.subPartitions, 1u);
    const std::uint64_t warpsPerSubPartition = (limits.registersPerSm / subPartitions) / out.registersPerWarp;
    out.registers = warpsPerSubPartition * subPartitions / out.warpsPerBlock;
    out.tooManyRegistersPerBlock = out.registersAssumed > limits.maxRegistersPerBlock ||
                                   allocated > limits.maxRegistersPerBlock || out.registers == 0;
  }

  // Shared memory: the kernel's bytes plus the driver's reservation, rounded up to the
  // allocation granularity. A block must fit the opt-in per-block maximum (plus the
  // reservation, which that maximum excludes).
  //
  // Against which carveout? With the carveout preference left at its default the header takes
  // the SM's whole shared memory (sharedMemPerMultiprocessor aligned to a carveout step: the
  // largest one), and the "smallest step that fits one block" only comes into play when a
  // preference smaller than one block was set. At launch the driver then configures a carveout
  // no smaller than this occupancy needs, so the largest carveout is the figure a launch with
  // default settings gets, and the one used here; a kernel that sets
  // cudaFuncAttributePreferredSharedMemoryCarveout can get fewer blocks.
  out.sharedAllocated = roundUp(std::uint64_t{input.sharedBytesPerBlock} + limits.reservedSharedPerBlock,
                                limits.sharedAllocationUnit);
  out.tooMuchShared =
      out.sharedAllocated > std::uint64_t{limits.maxSharedMemoryPerBlock} + limits.reservedSharedPerBlock;
  if (out.sharedAllocated > 0) {
    out.shared = limits.sharedMemoryPerSm / out.sharedAllocated;
    out.tooMuchShared = out.tooMuchShared || out.shared == 0;
  }

  // Block barriers: the SM has factor × maxBlocksPerSm of them, and a block takes as many as
  // ptxas's "used N barriers", which is the highest barrier id + 1 (bar.sync 0 plus bar.sync 3
  // gives "used 4 barriers" with ptxas 13 on sm_90): barrier 0 plus the named ones. The header
  // applies this limit from CC 9.0 on only (its factor table also lists 7.x and 8.x, but the
  // call is guarded by computeMajor >= 9); we do the same. One barrier never limits, since
  // factor × maxBlocksPerSm ≥ maxBlocksPerSm: hence "0 named barriers: no limit".
  if (input.namedBarriers > 0 && limits.major >= 9) {
    out.barriersPerBlock = std::uint64_t{input.namedBarriers} + 1;
    out.barriers = std::uint64_t{limits.namedBarrierBlocksFactor} * limits.maxBlocksPerSm / out.barriersPerBlock;
    out.tooManyBarriers = out.barriers == 0;
  }
  return out;
}

std::string failureOf(const SmLimits& limits, const OccupancyInput& input, const BlockLimits& block) {
  std::vector<std::string> reasons;
  if (block.noThreads) reasons.push_back("a block of 0 threads");
  if (block.tooManyThreads) {
    reasons.push_back("too many threads per block (" + std::to_string(input.threadsPerBlock) + " > " +
                      std::to_string(limits.maxThreadsPerBlock) + ")");
  }
  if (block.tooManyRegistersPerThread) {
    reasons.push_back("too many registers per thread (" + std::to_string(input.registersPerThread) + " > " +
                      std::to_string(limits.maxRegistersPerThread) + ")");
  }
  if (block.tooManyRegistersPerBlock && !block.noThreads) {
    reasons.push_back("too many registers per block (" + std::to_string(block.registersPerWarp) + " per warp × " +
                      std::to_string(roundUp(block.warpsPerBlock, std::max(limits.subPartitions, 1u))) +
                      " warps = " + std::to_string(block.registersAssumed) + " > " +
                      std::to_string(limits.maxRegistersPerBlock) + ")");
  }
  if (block.tooMuchShared && !block.noThreads) {
    reasons.push_back("too much shared memory per block (" + std::to_string(input.sharedBytesPerBlock) + " bytes > " +
                      std::to_string(limits.maxSharedMemoryPerBlock) + ")");
  }
  if (block.tooManyBarriers && !block.noThreads) {
    reasons.push_back("too many barriers per block (" + std::to_string(block.barriersPerBlock) + ")");
  }
  std::string text = "launch fails: ";
  for (std::size_t i = 0; i < reasons.size(); ++i) text += (i ? "; " : "") + reasons[i];
  return text;
}

std::uint64_t blocksWithRegisters(const SmLimits& limits, OccupancyInput input, std::uint32_t registers) {
  input.registersPerThread = registers;
  return blockLimits(limits, input).fitting();
}

}  // namespace

std::optional<SmLimits> limitsForTarget(std::string_view target) {
  // sm_XY, compute_XY (a virtual target: the same limits apply when it is compiled) and
  // lto_XY, each with an optional `a` (9.0 on) or `f` (10.0 on) suffix.
  for (std::string_view prefix : {"sm_", "compute_", "lto_"}) {
    if (!target.starts_with(prefix)) continue;
    std::string_view rest = target.substr(prefix.size());
    char suffix = 0;
    if (!rest.empty() && (rest.back() == 'a' || rest.back() == 'f')) {
      suffix = rest.back();
      rest.remove_suffix(1);
    }
    if (rest.size() < 2 || rest.size() > 3 || rest.front() == '0') return std::nullopt;
    std::uint32_t number = 0;
    auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), number);
    if (error != std::errc() || end != rest.data() + rest.size()) return std::nullopt;
    if ((suffix == 'a' && number < 90) || (suffix == 'f' && number < 100)) return std::nullopt;
    for (const Row& row : kRows) {
      if (row.number == number) return limitsOf(row);
    }
    return std::nullopt;
  }
  return std::nullopt;
}

Occupancy computeOccupancy(const SmLimits& limits, const OccupancyInput& input) {
  Occupancy result;
  const BlockLimits block = blockLimits(limits, input);
  result.warpsPerBlock = static_cast<std::uint32_t>(std::min<std::uint64_t>(block.warpsPerBlock, kUnlimited));
  result.maxWarpsPerSm = limits.maxWarpsPerSm;
  const std::uint64_t blocks = block.fitting();
  result.blocksPerSm = static_cast<std::uint32_t>(std::min(blocks, kUnlimited));
  result.activeWarpsPerSm = static_cast<std::uint32_t>(std::min(blocks * block.warpsPerBlock, kUnlimited));
  result.fraction = limits.maxWarpsPerSm ? double(result.activeWarpsPerSm) / limits.maxWarpsPerSm : 0.0;

  if (block.fails()) {
    result.limitedBy = failureOf(limits, input, block);
  } else {
    // Ties name the SM's fixed caps before the kernel's resources: when warps and registers
    // give the same count, freeing registers gains nothing, so "warps" is the honest answer
    // (the cliff fields below say when fewer registers would help).
    const std::pair<std::uint64_t, const char*> order[] = {{block.warps, "warps"},
                                                           {block.blocks, "blocks"},
                                                           {block.registers, "registers"},
                                                           {block.shared, "shared memory"},
                                                           {block.barriers, "barriers"}};
    for (const auto& [limit, name] : order) {
      if (limit == blocks) {
        result.limitedBy = name;
        break;
      }
    }
  }

  // The register cliff. Blocks per SM never grow with more registers, so the largest count
  // below the current one that fits more blocks is found by walking down (they change only at
  // multiples of allocation unit / 32 registers, at most 255 steps of arithmetic).
  for (std::uint32_t fewer = input.registersPerThread; fewer-- > 1;) {
    const std::uint64_t more = blocksWithRegisters(limits, input, fewer);
    if (more > blocks) {
      result.fewerRegistersForMoreBlocks = fewer;
      result.blocksWithFewerRegisters = static_cast<std::uint32_t>(std::min(more, kUnlimited));
      break;
    }
  }
  if (blocks > 0) {
    std::uint32_t until = input.registersPerThread;
    while (until < limits.maxRegistersPerThread && blocksWithRegisters(limits, input, until + 1) == blocks) ++until;
    result.registerHeadroomUntil = until;
  }
  return result;
}

}  // namespace ptx::registers
