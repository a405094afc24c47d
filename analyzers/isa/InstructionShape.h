// InstructionShape: checks each instruction's modifiers and operands against the
// instruction table once per lint, for the rules that report the findings (ISA004–ISA008).
//
// Shared because the rules need the same decision — which form of the family the statement
// means — and must agree on it: an instruction with an unknown modifier gets ISA004 only, one
// whose modifiers fit no form gets ISA005 only, and operand findings come from the form the
// operands fit best.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "diag/Diagnostic.h"
#include "isa/InstructionForms.h"
#include "model/Module.h"

namespace ptx {

enum class ShapeProblem : std::uint8_t {
  UnknownModifier,      // ISA004
  InvalidCombination,   // ISA005
  OperandCount,         // ISA006
  OperandKind,          // ISA007
  OperandType,          // ISA008
};

struct ShapeFinding {
  ShapeProblem problem;
  std::uint32_t instruction;  // Index into Module::instructions.
  ByteRange range;
  std::string message;
  std::string suggestion;  // A replacement modifier for ISA004, else empty.
};

struct InstructionShapes {
  std::vector<ShapeFinding> findings;
  // The distinct results of form matching: instructions spelled alike (one entry of
  // Module::instructionFacts) share one entry, which keeps big files from matching the same
  // text again.
  std::vector<std::vector<FormMatch>> matchSets;
  std::vector<std::uint32_t> matchSetOf;  // Per instruction; kNoMatchSet when none.
  static constexpr std::uint32_t kNoMatchSet = UINT32_MAX;

  // The forms the instruction's modifiers fit (empty when none, or when its family has no
  // table entry); the version/target rules read them.
  const std::vector<FormMatch>& matchesOf(std::size_t instruction) const {
    static const std::vector<FormMatch> kNone;
    std::uint32_t set = instruction < matchSetOf.size() ? matchSetOf[instruction] : kNoMatchSet;
    return set == kNoMatchSet ? kNone : matchSets[set];
  }
};

InstructionShapes checkInstructionShapes(std::string_view text, const Module& module);

// Whether a register's declared type is one of the 8-bit ones (.b8, .u8, .s8).
bool isByteRegisterType(Modifier type);
// Families that may name 8-bit registers (ld, ldu, st, cvt and call arguments).
bool allowsByteRegisters(Family family);

}  // namespace ptx
