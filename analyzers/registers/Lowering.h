// Lowering: the first stage of the register estimate (RegisterPressure.h). Each instruction
// becomes the values it reads and writes in 32-bit register units (pairs and quads aligned,
// vectors expanded, predicates apart); cheap operands (immediates, parameters, constant-bank
// words) hold no register where an ALU instruction reads them; address offsets and mul.wide
// fold; expanded instructions get temporaries; vector operands form consecutive groups.
// What each instruction is comes from its facts and the family table (InstructionClasses.h).
#pragma once

#include <cstdint>
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

// The 32-bit registers one value of a register's type takes: 1, 2 (64-bit) or 4 (128-bit).
std::uint8_t registerUnits(const Symbol& symbol);

}  // namespace ptx::registers
