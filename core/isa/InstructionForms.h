// InstructionForms: the per-form instruction table — which modifiers each instruction family
// takes, in which groups, with which operands, and what each form needs (PTX ISA version,
// target) — and the matcher that finds the form an instruction statement uses.
//
// The data is written in a compact notation close to the PTX ISA's own syntax blocks, one
// PTX_INSTRUCTION entry per family in core/isa/instructions/*.def (the notation is described
// in core/isa/instructions/README.md). It is parsed once, on first use; a malformed entry
// is reported through instructionTableErrors(), which a unit test keeps empty.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "isa/IsaReference.h"

namespace ptx {

// What an operand position accepts (a bit set).
enum OperandKind : std::uint16_t {
  kOperandRegister = 1 << 0,   // r: a register (or special register) name
  kOperandImmediate = 1 << 1,  // i: a literal or constant expression
  kOperandSymbol = 1 << 2,     // s: a variable or function name used as an address value
  kOperandAddress = 1 << 3,    // a: a bracketed address [reg+off], [var], [imm]
  kOperandVector = 1 << 4,     // v: a braced vector {a, b, ...}
  kOperandLabel = 1 << 5,      // l: a label (or a name the model resolves later)
  kOperandPredicate = 1 << 6,  // p: a predicate register
  kOperandNegatedPredicate = 1 << 7,  // n: a predicate, optionally negated with '!'
  kOperandPredicatePair = 1 << 8,     // q: `p|q` (or a single predicate)
  kOperandSink = 1 << 9,              // _: the sink '_'
  kOperandAny = 1 << 10,              // *: anything, not checked
  kOperandValuePredicatePair = 1 << 11,  // m: `d|p` — a register (or '_') and a predicate
};

// Which type an operand's registers must have.
enum class OperandTypeRule : std::uint8_t {
  None,      // not checked
  Element,   // the type of the form's N-th type element (typeIndex)
  Wide,      // twice the width of the N-th type element (mul.wide's destination)
  Fixed,     // a fixed type (fixedType)
};

// How strictly register sizes must match (PTX ISA §6.4 "Operand Size Exceeding Instruction
// Type Size"): ld/cvt destinations may be wider, st/cvt sources may be wider.
enum class OperandRelax : std::uint8_t { Strict, WiderDestination, WiderSource };

struct OperandSpec {
  std::string name;
  std::uint16_t kinds = 0;
  OperandTypeRule typeRule = OperandTypeRule::None;
  std::uint8_t typeIndex = 0;
  std::string fixedType;
  OperandRelax relax = OperandRelax::Strict;
  bool optional = false;
};

// One position of a form's modifier template: a literal (`.sat`) or a group (`.rnd`).
struct FormElement {
  std::string spelling;             // As written in the template (".rnd", ".sat").
  std::vector<std::string> values;  // Allowed modifiers (one for a literal).
  bool optional = false;
  bool isType = false;    // Every value is a fundamental type (.s32, .f16x2, ...).
  bool isVector = false;  // Every value is a vector width (.v2, .v4, .v8).
};

struct InstructionForm {
  std::string text;  // The form line as written, for messages and hover.
  std::vector<FormElement> elements;
  std::vector<OperandSpec> operands;
  std::optional<PtxVersion> minPtx;
  // Targets of which any one suffices ("sm_90", "sm_100a", "sm_100f"); empty: any target.
  std::vector<std::string> targets;
};

struct InstructionFamily {
  std::string_view name;
  std::vector<InstructionForm> forms;
  std::vector<std::string> vocabulary;  // Every modifier any form accepts, sorted.
  std::string_view examples;            // Statements ptxas accepts, one per line.
  std::string_view counterexamples;     // Statements ptxas rejects, each with its rule id.
};

std::span<const InstructionFamily> allInstructionFamilies();
const InstructionFamily* findInstructionFamily(std::string_view opcode);
// Problems found while reading the table data (bad notation); empty when the data is sound.
std::span<const std::string> instructionTableErrors();

// The result of matching an instruction's modifiers against a family's forms.
struct FormMatch {
  const InstructionForm* form = nullptr;
  // For every modifier of the instruction, the index of the form element it fills.
  std::vector<std::uint32_t> elementOfModifier;
  // The values of the form's type elements, in template order ("" when an optional type
  // element is absent).
  std::vector<std::string_view> types;
  std::uint32_t vectorWidth = 0;  // From a `.vN` element, 0 when none.
  bool inTemplateOrder = true;
};

// Every form of `family` that the modifiers fill, in the order the forms are listed. ptxas
// accepts modifiers in any order, so matching is order-insensitive; FormMatch records
// whether the template order was kept.
std::vector<FormMatch> matchForms(const InstructionFamily& family,
                                  std::span<const std::string_view> modifiers);

// A form that an instruction still being typed may grow into: its modifiers so far each fill
// a distinct element of the form, in any order, but required elements may still be missing.
struct PartialFormMatch {
  const InstructionForm* form = nullptr;
  std::vector<bool> filled;  // Per element of the form: whether a typed modifier fills it.
};

// Every form of `family` that `modifiers` are a start of, in the order the forms are listed,
// for completion and signature help while a statement is incomplete. A repeated modifier
// counts once, as in matchForms.
std::vector<PartialFormMatch> matchFormsPartially(const InstructionFamily& family,
                                                  std::span<const std::string_view> modifiers);

// Whether a register of type `registerType` may stand where the instruction type is
// `instructionType` (PTX ISA §6.4.1 operand type rules, with the relaxed size rules for
// ld/st/cvt). Both are spelled with the dot (".b32").
bool registerTypeFits(std::string_view instructionType, std::string_view registerType,
                      OperandRelax relax);

// Whether `target` (as spelled in .target) satisfies one requirement ("sm_90", "sm_90a",
// "sm_100f").
bool targetSatisfies(const TargetArch& target, std::string_view requirement);

}  // namespace ptx
