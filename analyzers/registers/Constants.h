// Constants: every number the register estimate takes from measurement, calibration or the
// hardware, in one table, each with how it was obtained (docs/registers.md tells the method;
// bench/registers_bench measures the result). Changing one changes the estimate: rerun the
// bench and say why in docs/registers.md.
#pragma once

#include <cstdint>

namespace ptx::registers {

// --- What ptxas reserves -------------------------------------------------------------------

// ptxas -v reports the highest general register a function's code touches plus one, plus two
// more that it always reserves. Measured: true of all 1567 functions of the corpus whose SASS
// was dumped with cuobjdump.
constexpr std::uint32_t kReportedReserve = 2;

// R1 holds the stack pointer in every function (SASS starts each kernel with
// `MOV R1, c[0x0][0x28]`), so it is never allocated. Read from the corpus's SASS.
constexpr std::uint32_t kStackPointer = 1;

// The architecture assumed when the `.target` is older or missing: the lowest one ptxas 13
// accepts.
constexpr std::uint32_t kLowestPtxasTarget = 75;

// --- Budgets (Budget.h) --------------------------------------------------------------------

// ptxas raises a `.maxnreg` below this to it. Measured with ptxas 13.
constexpr std::uint32_t kLowestMaxnreg = 24;
// The architectural per-thread limit.
constexpr std::uint32_t kMostRegistersPerThread = 255;
// Launch bounds: registers one SM sub-partition holds, the granularity registers are given to
// a warp in, and the sub-partitions per SM (CUDA occupancy calculator; cuda-facts §4.3).
constexpr std::uint32_t kRegistersPerSubPartition = 16384;
constexpr std::uint32_t kWarpAllocationGranularity = 256;
constexpr std::uint32_t kSubPartitions = 4;

// --- Lowering (Lowering.cpp) ---------------------------------------------------------------

// Temporaries (32-bit units) of the instructions ptxas expands into a sequence or a slow-path
// subroutine, held at the instruction only. Measured with ptxas 13 on kernels that differ only
// in the instruction (scripts/expansion-registers.py), sm_80 and sm_90 alike.
namespace expansion {
constexpr std::uint32_t kMulHiS64 = 7;
constexpr std::uint32_t kMulHiU64 = 3;
constexpr std::uint32_t kPopc64 = 3;
constexpr std::uint32_t kDivS32 = 8;
constexpr std::uint32_t kDivU32 = 5;
constexpr std::uint32_t kDivS64 = 14;
constexpr std::uint32_t kDivU64 = 12;
constexpr std::uint32_t kDivF32 = 8;  // Not .approx or .full.
constexpr std::uint32_t kDivF64 = 16;
constexpr std::uint32_t kRemS32 = 7;
constexpr std::uint32_t kRemU32 = 5;
constexpr std::uint32_t kRemS64 = 14;
constexpr std::uint32_t kRemU64 = 12;
constexpr std::uint32_t kRcp = 10;  // Any rcp but rcp.approx.f32.
constexpr std::uint32_t kSqrtF32 = 7;   // Not .approx.
constexpr std::uint32_t kSqrtF64 = 13;  // Not .approx.
constexpr std::uint32_t kRsqrtF64 = 10;  // Refined in software; .f32 is one MUFU.
}  // namespace expansion

// --- If-conversion (IfConversion.cpp) ------------------------------------------------------

// The most instructions a predicated branch skips. Calibrated on the corpus.
constexpr std::uint32_t kIfConversionLimit = 12;
// The most instructions of one converted run: ptxas if-converts locally, and longer runs
// hoisted loads past more code than its scheduler does. Calibrated on the corpus (16..96
// tried).
constexpr std::uint32_t kLargestConvertedRun = 24;

// --- Scheduling (Schedule.cpp) -------------------------------------------------------------

// Latency classes in cycles: the hardware's orders of magnitude on Volta and later, not fitted.
constexpr std::uint32_t kAluLatency = 4;
constexpr std::uint32_t kSlowAluLatency = 16;  // MUFU, fp64, conversions through fp64, shuffles.
constexpr std::uint32_t kSharedLatency = 30;   // Shared memory, constant bank with a register index.
constexpr std::uint32_t kMemoryLatency = 400;  // Global, local, generic, texture, surface.
// The scheduler hoists loads while the pressure stays under the full-occupancy count less R1
// and the reserve, and never aims below this many units. Calibrated on the corpus.
constexpr std::int64_t kLowestPressureTarget = 8;

// --- Allocation (Allocation.cpp) -----------------------------------------------------------

// Instructions after a memory instruction during which ptxas avoids rewriting a register it
// reads. Measured on the corpus's SASS: relative to the rewrites further on, such a register
// is rewritten one or two instructions later a fifth as often as one an ALU instruction read,
// three instructions later half as often.
constexpr std::uint32_t kMemoryOperandHold = 3;

// --- Calls (Calls.cpp) ---------------------------------------------------------------------

// Registers around a call through the ABI with `across` units live across it: never fewer
// than kAbiMinimum; from 5 units on, kBelowCalleeSaved plus the units rounded up to even; from
// kCalleeSavedUnits on, 2 x units + kCalleeSavedOverflow. Measured with ptxas 13 on sm_75 and
// sm_80 kernels calling an .extern function with 0..40 values live across.
constexpr std::uint32_t kAbiMinimum = 24;
constexpr std::uint32_t kBelowCalleeSaved = 20;
constexpr std::uint32_t kCalleeSavedUnits = 16;
constexpr std::uint32_t kCalleeSavedOverflow = 6;

// --- Loop unrolling (Unrolling.cpp) --------------------------------------------------------

// ptxas unrolls single-block counted loops of up to this many instructions, this many times.
// Measured with ptxas 13 on loops of 1..12 global loads and 0..48 other instructions on sm_75,
// sm_80, sm_86 and sm_90.
constexpr std::uint32_t kLargestUnrolledBody = 45;
constexpr std::uint32_t kUnrollFactor = 4;

}  // namespace ptx::registers
