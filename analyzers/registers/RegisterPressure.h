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

namespace ptx::registers {

// One value of the lowered function: a PTX register (or, for 64/128-bit registers, the
// aligned group of 32-bit units it occupies).
struct LoweredValue {
  flow::RegisterKey reg;
  std::uint8_t units = 1;  // 32-bit registers: 1, 2 (aligned pair) or 4 (aligned quad).
  bool predicate = false;  // Lives in the predicate file, not in general registers.
  // Every definition is cheap to redo where the value is used (an immediate, a kernel
  // parameter read from the constant bank, a variable's address): ptxas rematerializes such
  // values or folds them into the using instruction, so they hold a register only there.
  bool rematerializable = false;
  // A temporary of an expanded instruction (division, square root...), live at it only; its
  // `reg` names no register.
  bool scratch = false;
  // Defined once by a one-cycle integer instruction (add, sub, shift, logic op) whose only
  // register operand is this value: where that operand is live at every read, ptxas repeats
  // the instruction there instead of keeping the result (UINT32_MAX: not such a value).
  std::uint32_t recomputableFrom = UINT32_MAX;
};

// One instruction of the lowered function: the values it reads and writes (indices into
// LoweredFunction::values). A write under a guard keeps the old value alive.
struct LoweredInstruction {
  std::vector<std::uint32_t> uses;
  // Whether the rematerializable value read as uses[k] must be put in a general register for
  // this instruction (an ALU instruction takes it as an immediate or a constant-bank operand;
  // a store, a vector or an address of memory does not): bit k; uses past the 64th always do.
  std::uint64_t materializedUses = 0;
  bool materializes(std::size_t k) const { return k >= 64 || ((materializedUses >> k) & 1) != 0; }
  void addUse(std::uint32_t value, bool needsRegister) {
    if (needsRegister && uses.size() < 64) materializedUses |= std::uint64_t{1} << uses.size();
    uses.push_back(value);
  }
  std::vector<std::uint32_t> defs;
  bool guardedDefs = false;
  // A branch ptxas replaces with predication (RegisterPressure's if-conversion): it issues
  // nothing and orders nothing.
  bool predicatedAway = false;
  // A memory, texture or surface instruction: the hardware reads its register operands after
  // issue, so a register it reads is not rewritten right after it.
  bool readsOperandsLate = false;
};

struct LoweredFunction {
  std::vector<LoweredValue> values;
  std::vector<LoweredInstruction> instructions;  // Parallel to the function's instructions.
  std::vector<std::uint32_t> liveAtEntry;        // Register parameters of a .func.
  // The elements of each .v2/.v4 operand of a memory or texture instruction, in order
  // (UINT32_MAX for an element that is not a register): SASS wants them consecutive.
  std::vector<std::vector<std::uint32_t>> vectorGroups;
};

LoweredFunction lowerFunction(std::string_view text, const Module& module, flow::FunctionFlow& flow);

// ptxas -v reports the highest general register a function's code touches plus one, plus
// two more that it always reserves.
constexpr std::uint32_t kReportedReserve = 2;

// Instructions after a memory instruction during which ptxas avoids rewriting a register it
// reads (measured on the corpus's SASS: relative to the rewrites further on, such a register
// is rewritten one or two instructions later a fifth as often as one an ALU instruction read,
// three instructions later half as often).
constexpr std::uint32_t kMemoryOperandHold = 3;

// The architecture ptxas compiles the module for: its `.target`, or sm_75 (the lowest that
// ptxas 13 accepts) when that is older or missing.
std::uint32_t compiledArchitecture(std::string_view text, const Module& module);

// The most registers per thread that keep every warp slot of an SM usable on sm_<sm>
// (65536 registers / 2048 threads = 32 on sm_80 and sm_90; 40 on sm_86/sm_89; 64 on sm_75).
std::uint32_t fullOccupancyRegisters(std::uint32_t sm);

// A performance-tuning directive's value (`.maxnreg 64`: position 0 is 64), if present.
std::optional<std::uint64_t> functionDirective(const FunctionInfo& function, std::string_view name,
                                               std::size_t position = 0);

// Threads per block that `.reqntid` (else `.maxntid`) declares, all dimensions multiplied.
std::optional<std::uint64_t> declaredThreadsPerBlock(const FunctionInfo& function);

// The 32-bit registers one value of a register's type takes: 1, 2 (64-bit) or 4 (128-bit).
std::uint8_t registerUnits(const Symbol& symbol);

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
  // Per instruction of the function: 32-bit units live across it (for plots and inlay hints).
  std::vector<std::uint16_t> liveUnits;
  // Per instruction: whether it sits inside a loop (a block on a CFG cycle).
  std::vector<bool> inLoop;
  // Calls of functions defined in the module: (Module::functions index, 32-bit units live
  // across the call; 0 for a recursive callee, called through the ABI, whose registers are not
  // added to them). estimateRegisters raises `registers` to cover each callee.
  std::vector<std::pair<std::size_t, std::uint32_t>> directCalls;
};

// The per-thread register limit that applies to a function: .maxnreg, else the ceiling its
// launch bounds imply, else the architectural 255; and how it reads in a message.
struct RegisterBudget {
  std::uint32_t registers = 255;
  std::string reason = "255 per thread";
};
RegisterBudget registerBudget(const FunctionInfo& function);

// Estimates one function with a body (Module::functions[function]).
RegisterEstimate estimateFunction(std::string_view text, const Module& module, flow::FlowCache& flows,
                                  std::size_t function);

// Estimates every function with a body; prototypes are skipped.
std::vector<RegisterEstimate> estimateRegisters(std::string_view text, const Module& module, flow::FlowCache& flows);

// The register ceiling ptxas applies for `.maxntid T` with `.minnctapersm B`:
// min(255, floor(16384 / ceil(B * ceil(T/32) / 4) / 256) * 256 / 32) (docs: cuda-facts §4.3).
std::uint32_t launchBoundsRegisterCeiling(std::uint32_t threadsPerBlock, std::uint32_t minBlocksPerSm);

}  // namespace ptx::registers
