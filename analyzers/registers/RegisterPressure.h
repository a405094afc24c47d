// RegisterPressure: how many hardware registers a function needs, estimated from its PTX the
// way ptxas allocates them (docs/registers.md has the method and its measured error).
//
//   lowering     each instruction becomes the values it reads and writes, in 32-bit register
//                units (pairs and quads aligned, vectors expanded, predicates apart); cheap
//                operands (immediates, parameters, constant-bank words) hold no register where
//                an ALU instruction reads them; address offsets and mul.wide fold; expanded
//                instructions get temporaries; vector operands form consecutive groups.
//   regions      short forward branches are if-converted into one region (ifConvert).
//   schedule     each region is reordered as ptxas issues it (Schedule.h).
//   liveness     backward dataflow over the regions (loops to a fixpoint); a write under a
//                guard does not end the old value's life; one-operand integer results whose
//                operand stays live are recomputed at their reads (rematerialization).
//   allocation   first fit on exact lifetimes, R1 reserved, preferring the register bank
//                the co-operands use less and registers no memory instruction just read (as
//                ptxas does below the full-occupancy count), plus ptxas's two reserved
//                registers; then ptxas's loop unrolling, the ABI around calls and callees
//                (a recursive callee's registers are not added to the caller's).
//
// The core knows nothing of LSP or I/O: it reads the Module and the text.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "flow/FunctionFlow.h"
#include "model/Module.h"
#include "registers/Budget.h"
#include "registers/Constants.h"
#include "registers/Lowering.h"

namespace ptx::registers {

// The stages, one file each, in the order estimateFunction runs them:
//   Lowering.h       instructions to values in 32-bit units;
//   IfConversion.h   short branches merged into predicated regions;
//   Liveness.h       live sets (and rematerialization) over the regions;
//   Schedule.h       each region in the order ptxas issues it;
//   Pressure.h       units live at each instruction and each value's allocation points;
//   Allocation.h     first fit with ptxas's preferences, under the budget (Budget.h);
//   then ptxas's additions: the ABI around calls (Calls.h), loop unrolling (Unrolling.h) and
//   setmaxnreg. Every measured or calibrated number is in Constants.h.

// The registers one kernel or function is estimated to use.
struct RegisterEstimate {
  std::size_t function = 0;        // Index into Module::functions.
  std::uint32_t registers = 0;     // Estimated "Used N registers" of ptxas -v.
  std::uint32_t maxLiveUnits = 0;  // Most 32-bit units live at one point.
  std::uint32_t maxLivePredicates = 0;
  std::uint32_t peakInstruction = 0;          // Index into Module::instructions.
  std::vector<flow::RegisterKey> liveAtPeak;  // Registers live at the peak, widest first.
  std::uint32_t budget = 255;                 // The per-thread register limit that applies.
  std::string budgetReason;                   // "255", ".maxnreg 64", ".maxntid 256 / .minnctapersm 2".
  std::uint32_t spilledUnits = 0;             // 32-bit units that did not fit the budget.
  // The most registers a `setmaxnreg` gives the warpgroup that asks for them (capped at 255),
  // after launch; 0 when the function has none. `registers` stays what ptxas -v prints: the
  // allocation at launch (see RegisterPressure.cpp).
  std::uint32_t afterSetmaxnreg = 0;
  // Per instruction of the function: 32-bit units live across it (for plots and inlay hints).
  std::vector<std::uint16_t> liveUnits;
  // Per instruction: whether it sits inside a loop (a block on a CFG cycle).
  std::vector<bool> inLoop;
  // Calls of functions defined in the module: (Module::functions index, 32-bit units live
  // across the call; 0 for a recursive callee, called through the ABI, whose registers are not
  // added to them). estimateRegisters raises `registers` to cover each callee.
  std::vector<std::pair<std::size_t, std::uint32_t>> directCalls;
};

// Estimates one function with a body (Module::functions[function]).
RegisterEstimate estimateFunction(std::string_view text, const Module& module, flow::FlowCache& flows,
                                  std::size_t function);

// Estimates every function with a body; prototypes are skipped.
std::vector<RegisterEstimate> estimateRegisters(std::string_view text, const Module& module, flow::FlowCache& flows);

}  // namespace ptx::registers
