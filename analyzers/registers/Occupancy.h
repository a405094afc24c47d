// Occupancy: how many blocks of a kernel fit on one SM, and what limits them, computed the way
// CUDA's occupancy calculator does (cudaOccupancyMaxActiveBlocksPerMultiprocessor, whose
// reference implementation is CUDA 13.0's <cuda_occupancy.h>) from a per-compute-capability
// table (docs: cuda-facts §4.1, §4.2).
//
//   registers      allocated per warp in units of 256, per sub-partition (a warp's registers
//                  live in one of the SM's 4 register files), so the per-thread count that
//                  matters is the one rounded up to a multiple of 8; the cliffs are there.
//   warps, blocks  fixed per-SM caps of the compute capability.
//   shared memory  static + dynamic + the driver's per-block reservation, rounded up to the
//                  allocation granularity, against the shared-memory carveout.
//   barriers       on CC ≥ 9.0 the SM has a fixed number of block barriers to share.
//
// Pure functions: no I/O, no model. A hover or a rule feeds them the registers ptxas reports
// (or RegisterPressure estimates), the block size from `.maxntid`/`.reqntid`, and the
// shared-memory bytes of the kernel's `.shared` variables.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptx::registers {

// Per compute capability limits (cuda-facts §4.1 and "Allocation rules the guide leaves out").
struct SmLimits {
  unsigned major = 0, minor = 0;
  std::uint32_t maxRegistersPerThread = 255;
  std::uint32_t registersPerSm = 65536;
  std::uint32_t maxRegistersPerBlock = 65536;
  std::uint32_t registerAllocationUnit = 256;     // Per warp.
  std::uint32_t subPartitions = 4;
  std::uint32_t maxThreadsPerBlock = 1024;
  std::uint32_t maxWarpsPerSm = 64;
  std::uint32_t maxBlocksPerSm = 32;
  std::uint32_t sharedMemoryPerSm = 228 * 1024;        // Bytes, the largest carveout.
  std::uint32_t maxSharedMemoryPerBlock = 227 * 1024;  // Bytes, the opt-in maximum.
  std::uint32_t sharedAllocationUnit = 128;            // 256 on 7.x.
  std::uint32_t reservedSharedPerBlock = 1024;         // 0 on 7.x (reserved from Ampere on).
  std::vector<std::uint32_t> carveoutsKiB;             // Shared-memory carveout steps.
  // Block barriers available on the SM = factor × maxBlocksPerSm (1 on 8.6/8.7/8.9/10.1/11.0/12.x).
  std::uint32_t namedBarrierBlocksFactor = 2;
};

// "sm_90", "sm_90a", "sm_100f", "compute_80", "lto_89", "sm_120a" … → the limits of that
// compute capability; nullopt for spellings that are not a target, for targets older than
// sm_75 (ptxas 13 no longer compiles for them), and for targets whose limits are not published
// (sm_88).
std::optional<SmLimits> limitsForTarget(std::string_view target);

struct OccupancyInput {
  std::uint32_t registersPerThread = 0;
  std::uint32_t threadsPerBlock = 256;
  std::uint32_t sharedBytesPerBlock = 0;   // Static + dynamic, without the driver's reservation.
  std::uint32_t namedBarriers = 0;         // Barriers used beyond barrier 0 (0: no limit from barriers).
};

struct Occupancy {
  std::uint32_t blocksPerSm = 0;
  std::uint32_t warpsPerBlock = 0;
  std::uint32_t activeWarpsPerSm = 0;
  std::uint32_t maxWarpsPerSm = 0;
  double fraction = 0;                     // activeWarpsPerSm / maxWarpsPerSm.
  // "registers", "warps", "blocks", "shared memory", "barriers", or "launch fails: …" when no
  // block fits (too many threads, too many registers per block, too much shared memory).
  std::string limitedBy;
  // The register cliff: the largest registers-per-thread value below registersPerThread at
  // which more blocks would fit (0 when none: registers are not the limit, or fewer registers
  // would not help), and how many blocks would then fit.
  std::uint32_t fewerRegistersForMoreBlocks = 0;
  std::uint32_t blocksWithFewerRegisters = 0;
  // The most registers per thread that keep blocksPerSm (0 when the launch fails).
  std::uint32_t registerHeadroomUntil = 0;
};

Occupancy computeOccupancy(const SmLimits& limits, const OccupancyInput& input);

}  // namespace ptx::registers
