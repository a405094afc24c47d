// AsmRuleContext: what an inline-asm rule (ASM0xx) sees of one device pass of a CUDA source.
//
// The pipeline (CudaLint.cpp) extracts the pass's asm statements, substitutes their operands,
// lints the templates as one synthesized PTX module and hands every rule this context: each
// statement with its substitution, its function in the synthesized module (when its PTX could
// be built), where it sits in the C++ source, and the PTX diagnostics of the pass before they
// were mapped back. Rules report in source bytes.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "Lint.h"
#include "Registry.h"
#include "RuleContext.h"
#include "cuda/AsmFragment.h"
#include "cuda/AsmStatement.h"
#include "cuda/CppLexer.h"
#include "cuda/DevicePasses.h"

namespace ptx {

// Where a statement sits in the C++ source (from the CUDA syntax tree's outline).
struct StatementPlacement {
  bool isHostOnly = false;   // In a function that is never compiled for the device.
  // The function's qualifiers include a macro this file does not define (`CUTLASS_DEVICE`):
  // it may be device code or not. Its statements are checked when they read as PTX, and an
  // error there is a warning.
  bool deviceUnknown = false;
  bool isTemplate = false;   // In a function template (or a member of a class template).
  bool isLambda = false;
  bool mayBeInlined = false; // A __device__ function (not a kernel): every call site gets a copy.
  // Whether a kernel of the pass reaches the statement (its function is a kernel or is called
  // from one); Unknown when the source has no kernel or the call graph cannot say.
  cuda::Truth reachedByKernel = cuda::Truth::Unknown;
  // Enclosing loops, innermost first: each loop's whole range and its condition.
  std::vector<ByteRange> loops;
  std::vector<ByteRange> loopConditions;
  // The statement's function returns a value and is called inside loops: per such call, the
  // loop's condition, the call, and the variable the call's result is assigned to (empty when
  // it is not a plain `x = f(...)`). A polling loop may be a caller's.
  struct PolledCall {
    ByteRange loopCondition;
    ByteRange call;
    std::string assignedTo;
  };
  std::vector<PolledCall> callsInLoops;
  ByteRange functionBody;
};

struct CheckedStatement {
  const cuda::AsmStatement* statement = nullptr;
  cuda::SubstitutedTemplate substituted;
  // The statement's function in the synthesized module; null when its PTX was not built
  // (opaque, escape issues, unbalanced braces).
  const cuda::FragmentModule::Entry* entry = nullptr;
  std::uint32_t fragmentFunction = UINT32_MAX;  // Index into the fragment module's functions.
  StatementPlacement placement;
};

struct AsmRuleContext {
  std::string_view text;  // The CUDA source.
  const cuda::LexedSource& source;
  const cuda::DevicePass& pass;
  std::span<const CheckedStatement> statements;
  // Per statement the pass extracted (FragmentModule::Entry::statement), its index in
  // `statements`, or UINT32_MAX for one that is not device code.
  std::span<const std::uint32_t> checkedOfStatement;
  const cuda::FragmentModule& fragments;
  const LintResult& fragmentLint;  // The synthesized module's lint (tree, model, diagnostics).
  std::vector<Diagnostic>& out;

  std::string_view textOf(ByteRange range) const { return text.substr(range.begin, range.end - range.begin); }
  std::string_view fragmentTextOf(ByteRange range) const {
    return std::string_view(fragments.text).substr(range.begin, range.end - range.begin);
  }

  void report(RuleCode rule, ByteRange range, std::string message, std::vector<RelatedInformation> related = {}) const {
    const RuleMeta& meta = rule.meta();
    Diagnostic diagnostic;
    diagnostic.rule = std::string(meta.code);
    diagnostic.severity = meta.defaultSeverity;
    diagnostic.category = meta.category;
    diagnostic.range = range;
    diagnostic.message = std::move(message);
    diagnostic.related = std::move(related);
    out.push_back(std::move(diagnostic));
  }

  void attachFix(std::string title, std::vector<FixEdit> edits, bool isPreferred = false) const {
    if (out.empty() || edits.empty()) return;
    out.back().fixes.push_back({std::move(title), std::move(edits), isPreferred});
  }

  // The source bytes of synthesized-module bytes inside the statement's template.
  ByteRange sourceOf(const CheckedStatement& checked, ByteRange fragmentRange) const;
  // The source bytes of template bytes [begin, end).
  static ByteRange sourceOfTemplate(const CheckedStatement& checked, std::uint32_t begin, std::uint32_t end) {
    return checked.statement->sourceOfTemplate(begin, end);
  }
  // The checked statement a fragment function stands for, or null.
  const CheckedStatement* checkedOf(const cuda::FragmentModule::Entry& entry) const {
    std::uint32_t index = entry.statement < checkedOfStatement.size() ? checkedOfStatement[entry.statement] : UINT32_MAX;
    return index == UINT32_MAX ? nullptr : &statements[index];
  }
  // The source of the first `%index` reference inside synthesized-module bytes `within` (an
  // address `[%1+8]` → the `%1`), else of `within` itself.
  ByteRange operandReferenceIn(const CheckedStatement& checked, std::uint32_t index, ByteRange within) const;
  // The operand a symbol of the synthesized module stands for (`%2` → 2), if it is one of the
  // registers the pipeline declared for the statement's operands.
  std::optional<std::uint32_t> operandOfSymbol(const CheckedStatement& checked, SymbolId symbol) const;
  // The source range of operand `index`'s constraint letter.
  static ByteRange constraintLetter(const CheckedStatement& checked, std::uint32_t index) {
    std::uint32_t at = checked.statement->operands[index].letterOffset;
    return {at, at + 1};
  }
};

// The registers an instruction of the synthesized module writes (its destination, the
// elements of a destination vector or predicate pair) and those it reads (every other
// register operand, address bases and the guard), as operand indices into Module::operands
// for writes and symbol ids for both.
struct RegisterAccesses {
  std::vector<std::pair<SymbolId, ByteRange>> writes;
  std::vector<std::pair<SymbolId, ByteRange>> reads;
};
RegisterAccesses registerAccessesOf(const Module& module, std::uint32_t instruction);

// Every inline-asm rule's check, declared from Rules.def.
#define PTX_SOURCE_CHECK_InlineAsm(check) void check(const AsmRuleContext& context);
#define PTX_SOURCE_CHECK_HostCalls(check)
#define PTX_RULE(code, name, category, severity, check, reads, when, summary)
#define PTX_SOURCE_RULE(code, name, category, severity, check, reads, when, summary) PTX_SOURCE_CHECK_##reads(check)
#include "Rules.def"
#undef PTX_SOURCE_CHECK_InlineAsm
#undef PTX_SOURCE_CHECK_HostCalls

}  // namespace ptx
