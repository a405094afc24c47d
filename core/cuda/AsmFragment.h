// AsmFragment: an asm statement's template as PTX, with a map back to the template's bytes.
//
// nvcc substitutes `%N` with a virtual register of the operand's class (an immediate for `n`,
// text for `C`), `%%` with `%` and `%=` with a number, but only when the statement has at
// least one operand (inline-ptx.md §3). We keep `%N` as the register's name, since `%0` is a
// valid PTX identifier: the PTX reads like the template and messages name operands as the
// author wrote them. Each statement becomes one `.func` of a synthesized module whose `.reg`
// lines declare the operands with the constraint's type, so the PTX checks run on it unchanged.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "cuda/AsmStatement.h"

namespace ptx::cuda {

// A `%` sequence nvcc cannot take (inline-ptx.md §3).
struct TemplateEscapeIssue {
  enum class Kind : std::uint8_t {
    OperandOutOfRange,      // %N with N >= operand count
    NamedOperand,           // %[name]
    OperandModifier,        // %c0
    EscapeWithoutOperands,  // %% or %= in a statement without operands
  };
  Kind kind;
  std::uint32_t templateBegin = 0;  // Template bytes of the sequence.
  std::uint32_t templateEnd = 0;
  std::uint32_t operandIndex = 0;   // For OperandOutOfRange.
};

// One `%N` of the template.
struct OperandReference {
  std::uint32_t operand = 0;
  std::uint32_t templateBegin = 0;
  std::uint32_t templateEnd = 0;
  std::uint32_t ptxBegin = 0;  // In SubstitutedTemplate::text.
  std::uint32_t ptxEnd = 0;
};

struct SubstitutedTemplate {
  std::string text;  // The PTX nvcc would emit for the template (registers named %N).
  // Piecewise map: PTX bytes [ptx, ptx + ptxLength) came from template bytes
  // [templateOffset, templateOffset + templateLength); equal lengths map byte to byte.
  struct Segment {
    std::uint32_t ptx = 0;
    std::uint32_t ptxLength = 0;
    std::uint32_t templateOffset = 0;
    std::uint32_t templateLength = 0;
  };
  std::vector<Segment> segments;
  std::vector<TemplateEscapeIssue> issues;
  std::vector<OperandReference> references;
  bool pastedUnknownImmediate = false;  // An `n` operand whose value we do not know (a stand-in was pasted).

  // Template bytes [begin, end) for PTX bytes [ptxBegin, ptxEnd).
  std::pair<std::uint32_t, std::uint32_t> templateRangeOf(std::uint32_t ptxBegin, std::uint32_t ptxEnd) const;
  // The inverse, for a cursor: the PTX byte a cursor before template byte `templateOffset` stands
  // before (the template's size: the end of the PTX). A cursor inside a substituted sequence
  // (`%%`, an `n` operand's `%0`) stands after its PTX.
  std::uint32_t ptxOffsetOf(std::uint32_t templateOffset) const;
};

SubstitutedTemplate substituteOperands(const AsmStatement& statement);

// True when the template's `{` and `}` (outside PTX comments) balance; a statement that opens
// a scope another statement closes cannot be checked alone.
bool bracesBalance(std::string_view ptx);

// A synthesized PTX module holding a set of statements, one `.func` each.
struct FragmentModule {
  std::string text;
  struct Entry {
    std::uint32_t statement = 0;  // Index into the statement list given to buildFragmentModule.
    std::uint32_t bodyBegin = 0;  // Where the substituted template starts in `text`.
    std::uint32_t bodyEnd = 0;
    SubstitutedTemplate substituted;
  };
  std::vector<Entry> entries;  // Ascending by bodyBegin.

  // The entry whose template holds module byte `offset` (its end included), or null.
  const Entry* entryAt(std::uint32_t offset) const;
};

// Which statements a fragment module holds.
enum class FragmentSelection : std::uint8_t {
  // Those whose PTX is what nvcc emits: statements that are opaque, whose braces do not balance
  // or whose template has an escape issue are left out (substituteOperands reports those).
  Checkable,
  // Every statement that is not opaque, as far as it substitutes (the server's features on a
  // template being typed, where `%5` may not have its operand yet).
  AllResolved,
};

// `ptxTarget` is the `.target` of the pass ("sm_90a"), `ptxVersion` its `.version` ("9.0").
FragmentModule buildFragmentModule(const std::vector<AsmStatement>& statements, std::string_view ptxTarget,
                                   std::string_view ptxVersion,
                                   FragmentSelection selection = FragmentSelection::Checkable);

}  // namespace ptx::cuda
