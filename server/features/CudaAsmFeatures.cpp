// CudaAsmFeatures: the PTX features on a statement's synthesized module, mapped to and from the
// C++ source, and the operands `%N` answered from the statement itself.
#include "features/CudaAsmFeatures.h"

#include <algorithm>
#include <cctype>

#include "Registry.h"
#include "cuda/AsmFragment.h"
#include "features/Navigation.h"
#include "text/LineIndex.h"

namespace ptx::lsp {
namespace {

using cuda::AsmStatement;
using Entry = cuda::FragmentModule::Entry;

// Joins pieces into one string. (Spelled out because GCC 12 reports a false -Wrestrict on
// `"literal" + std::string` at -O3.)
template <typename... Pieces>
std::string concat(const Pieces&... pieces) {
  std::string out;
  (out.append(std::string_view(pieces)), ...);
  return out;
}

// nvcc 13.0 writes `.version 9.0` for every target (as the lint's fragments do).
constexpr std::string_view kPtxVersion = "9.0";

// The features need the tree and the model only: every rule off.
const LintOptions& modelOnly() {
  static const LintOptions options = [] {
    LintOptions made;
    made.threads = 1;
    made.maxTextBytes = 0;  // The document's own limit was applied when it was analyzed.
    for (const RuleMeta& meta : allRules()) made.rules[std::string(meta.code)].enabled = false;
    return made;
  }();
  return options;
}

// Statements' PTX as one synthesized module, with its tree and model. Not movable: the line
// index views the module's text.
struct Fragments {
  Fragments(const std::vector<AsmStatement>& statements, std::string_view ptxTarget)
      : module(cuda::buildFragmentModule(statements, ptxTarget, kPtxVersion, cuda::FragmentSelection::AllResolved)),
        lint(lintText(module.text, modelOnly())),
        lines(module.text) {}
  Fragments(const Fragments&) = delete;
  Fragments& operator=(const Fragments&) = delete;

  const Entry* single() const { return module.entries.empty() ? nullptr : &module.entries.front(); }

  const cuda::FragmentModule module;
  const LintResult lint;
  const LineIndex lines;
};

std::uint32_t templateSize(const AsmStatement& statement) {
  return static_cast<std::uint32_t>(statement.templateSource.size());
}

// The source offset of a cursor before template byte `at` (at the end: after the last byte).
std::uint32_t sourceOfCursor(const AsmStatement& statement, std::uint32_t at) {
  if (statement.templateSource.empty()) return statement.templateRange.begin;
  if (at < templateSize(statement)) return statement.templateSource[at];
  return statement.templateSource.back() + statement.templateSourceWidth.back();
}

// Whether template bytes [begin, end) are one unbroken stretch of the source.
bool contiguous(const AsmStatement& statement, std::uint32_t begin, std::uint32_t end) {
  for (std::uint32_t k = begin + 1; k < end; ++k) {
    if (statement.templateSource[k] != statement.templateSource[k - 1] + statement.templateSourceWidth[k - 1])
      return false;
  }
  return true;
}

// What a completion typed from template byte `begin` to the cursor (template byte `end`, source
// `cursor`) replaces: those source bytes when they are one stretch, else nothing (an insertion).
ByteRange typedRange(const AsmStatement& statement, std::uint32_t begin, std::uint32_t end, std::uint32_t cursor) {
  if (begin >= end || !contiguous(statement, begin, end) || sourceOfCursor(statement, begin) > cursor) return {cursor, cursor};
  const std::uint32_t last = end - 1;
  if (statement.templateSource[last] + statement.templateSourceWidth[last] != cursor) return {cursor, cursor};
  return {statement.templateSource[begin], cursor};
}

// Source bytes of the module bytes `ptx` of `entry`'s body.
ByteRange sourceOfPtx(const AsmStatement& statement, const Entry& entry, ByteRange ptx) {
  auto local = [&](std::uint32_t offset) { return std::clamp(offset, entry.bodyBegin, entry.bodyEnd) - entry.bodyBegin; };
  auto [begin, end] = entry.substituted.templateRangeOf(local(ptx.begin), local(ptx.end));
  if (begin == end) {
    std::uint32_t at = sourceOfCursor(statement, begin);
    return {at, at};
  }
  return statement.sourceOfTemplate(begin, end);
}

bool inBody(const Entry& entry, ByteRange range) { return entry.bodyBegin <= range.begin && range.end <= entry.bodyEnd; }

// The module byte a template cursor stands before.
std::uint32_t ptxOfCursor(const Entry& entry, std::uint32_t templateOffset) {
  return entry.bodyBegin + entry.substituted.ptxOffsetOf(templateOffset);
}

// The `%N` (valid or not) whose template bytes hold the cursor.
struct OperandAtCursor {
  std::uint32_t index = 0;
  std::uint32_t templateBegin = 0;
  std::uint32_t templateEnd = 0;
  bool exists = false;  // N < the operand count.
};

std::optional<OperandAtCursor> operandAt(const cuda::SubstitutedTemplate& substituted, std::uint32_t at) {
  for (const cuda::OperandReference& reference : substituted.references) {
    if (reference.templateBegin <= at && at < reference.templateEnd)
      return OperandAtCursor{reference.operand, reference.templateBegin, reference.templateEnd, true};
  }
  for (const cuda::TemplateEscapeIssue& issue : substituted.issues) {
    if (issue.kind == cuda::TemplateEscapeIssue::Kind::OperandOutOfRange && issue.templateBegin <= at &&
        at < issue.templateEnd)
      return OperandAtCursor{issue.operandIndex, issue.templateBegin, issue.templateEnd, false};
  }
  return std::nullopt;
}

std::string_view directionOf(const cuda::AsmOperand& operand) {
  if (operand.isOutput && operand.readWrite) return "read-write";
  return operand.isOutput ? "output" : "input";
}

std::string_view directionNote(const cuda::AsmOperand& operand) {
  if (operand.isOutput && operand.readWrite) return " (`+`: the template reads and writes it)";
  return operand.isOutput ? " (`=`: the template writes it)" : " (the template reads it)";
}

std::string whatItBecomes(const cuda::AsmOperand& operand) {
  std::string_view type = cuda::registerTypeOf(operand.kind);
  if (!type.empty()) return concat("a `", type, "` register");
  switch (operand.kind) {
    case cuda::ConstraintKind::Immediate:
      return operand.pastedText ? concat("the immediate `", *operand.pastedText, "`, pasted into the text")
                                : std::string("an immediate pasted into the text (its value is known when the template is instantiated)");
    case cuda::ConstraintKind::Text: return "a constant string pasted into the text";
    default: return "a constraint nvcc does not take for PTX";
  }
}

// `"=r"(v.x)`, as the operand list spells it.
std::string operandSpelling(const cuda::AsmOperand& operand) {
  return concat("\"", operand.constraintText, "\"(", operand.expressionText, ")");
}

std::string operandDetail(const cuda::AsmOperand& operand) {
  std::string_view type = cuda::registerTypeOf(operand.kind);
  return concat(operandSpelling(operand), ": ", directionOf(operand), type.empty() ? "" : ", ", type);
}

std::string operandMarkdown(const AsmStatement& statement, std::uint32_t index) {
  const cuda::AsmOperand& operand = statement.operands[index];
  return concat("**%", std::to_string(index), "**: ", directionOf(operand), " operand ", std::to_string(index), " of ",
                std::to_string(statement.operands.size()), directionNote(operand), ", ", whatItBecomes(operand),
                "\n\n```cpp\n", operandSpelling(operand), "\n```");
}

std::string missingOperandMarkdown(const AsmStatement& statement, std::uint32_t index) {
  std::string text = concat("**%", std::to_string(index), "**: no such operand; the statement has ",
                             std::to_string(statement.operands.size()), statement.operands.size() == 1 ? " operand" : " operands");
  if (!statement.operands.empty())
    text += concat(" (%0 to %", std::to_string(statement.operands.size() - 1), ")");
  return text;
}

bool isOperandName(std::string_view label) {
  return label.size() >= 2 && label[0] == '%' &&
         std::all_of(label.begin() + 1, label.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// The source ranges of template bytes [begin, end), one per unbroken stretch on one line.
void appendSourcePieces(std::string_view text, const AsmStatement& statement, std::uint32_t begin, std::uint32_t end,
                        const SemanticToken& token, std::vector<SemanticToken>& out) {
  end = std::min(end, templateSize(statement));
  std::uint32_t run = begin;
  for (std::uint32_t k = begin; k < end; ++k) {
    bool last = k + 1 == end ||
                statement.templateSource[k + 1] != statement.templateSource[k] + statement.templateSourceWidth[k];
    if (!last) continue;
    std::uint32_t from = statement.templateSource[run];
    std::uint32_t to = statement.templateSource[k] + statement.templateSourceWidth[k];
    if (from < to && to <= text.size() && text.substr(from, to - from).find('\n') == std::string_view::npos)
      out.push_back({from, to, token.type, token.modifiers});
    run = k + 1;
  }
}

// The source bytes a statement's template may come from: its literals and any macro body.
ByteRange hullOf(const AsmStatement& statement) {
  ByteRange hull = statement.range;
  for (std::size_t k = 0; k < statement.templateSource.size(); ++k) {
    hull.begin = std::min(hull.begin, statement.templateSource[k]);
    hull.end = std::max<std::uint32_t>(hull.end, statement.templateSource[k] + statement.templateSourceWidth[k]);
  }
  return hull;
}

bool overlaps(ByteRange a, ByteRange b) { return a.begin < b.end && b.begin < a.end; }

}  // namespace

std::optional<AsmCursor> asmCursorAt(const std::vector<AsmStatement>& statements, std::uint32_t offset) {
  for (const AsmStatement& statement : statements) {
    if (statement.opaqueReason || statement.templateSource.empty()) continue;
    const auto& source = statement.templateSource;
    const auto& width = statement.templateSourceWidth;
    std::optional<std::uint32_t> after;
    for (std::uint32_t k = 0; k < source.size(); ++k) {
      if (source[k] <= offset && offset < source[k] + width[k]) return AsmCursor{&statement, k, true};
      if (!after && source[k] + width[k] == offset) after = k + 1;
    }
    if (after) return AsmCursor{&statement, *after, false};
  }
  return std::nullopt;
}

std::optional<HoverResult> asmHoverAt(const std::vector<AsmStatement>& statements, std::string_view ptxTarget,
                                      std::uint32_t offset) {
  std::optional<AsmCursor> cursor = asmCursorAt(statements, offset);
  if (!cursor || !cursor->onByte) return std::nullopt;
  const AsmStatement& statement = *cursor->statement;
  Fragments fragments({statement}, ptxTarget);
  const Entry* entry = fragments.single();
  if (!entry) return std::nullopt;
  if (auto operand = operandAt(entry->substituted, cursor->templateOffset)) {
    ByteRange range = statement.sourceOfTemplate(operand->templateBegin, operand->templateEnd);
    return HoverResult{operand->exists ? operandMarkdown(statement, operand->index)
                                       : missingOperandMarkdown(statement, operand->index),
                       range};
  }
  auto hover = hoverAt(fragments.module.text, fragments.lint, ptxOfCursor(*entry, cursor->templateOffset), &fragments.lines);
  if (!hover || !inBody(*entry, hover->range)) return std::nullopt;
  hover->range = sourceOfPtx(statement, *entry, hover->range);
  return hover;
}

std::optional<ByteRange> asmDefinitionAt(const std::vector<AsmStatement>& statements, std::string_view ptxTarget,
                                         std::uint32_t offset) {
  std::optional<AsmCursor> cursor = asmCursorAt(statements, offset);
  if (!cursor || !cursor->onByte) return std::nullopt;
  const AsmStatement& statement = *cursor->statement;
  Fragments fragments({statement}, ptxTarget);
  const Entry* entry = fragments.single();
  if (!entry) return std::nullopt;
  if (auto operand = operandAt(entry->substituted, cursor->templateOffset)) {
    if (!operand->exists) return std::nullopt;
    return statement.operands[operand->index].expression;
  }
  std::optional<ByteRange> target = definitionAt(fragments.lint.module, ptxOfCursor(*entry, cursor->templateOffset));
  if (!target || !inBody(*entry, *target)) return std::nullopt;
  return sourceOfPtx(statement, *entry, *target);
}

std::vector<ByteRange> asmReferencesAt(const std::vector<AsmStatement>& statements, std::string_view ptxTarget,
                                       std::uint32_t offset, bool includeDeclaration) {
  std::optional<AsmCursor> cursor = asmCursorAt(statements, offset);
  if (!cursor || !cursor->onByte) return {};
  const AsmStatement& statement = *cursor->statement;
  Fragments fragments({statement}, ptxTarget);
  const Entry* entry = fragments.single();
  if (!entry) return {};
  std::vector<ByteRange> out;
  if (auto operand = operandAt(entry->substituted, cursor->templateOffset)) {
    if (!operand->exists) return {};
    if (includeDeclaration) out.push_back(statement.operands[operand->index].expression);
    for (const cuda::OperandReference& reference : entry->substituted.references) {
      if (reference.operand == operand->index)
        out.push_back(statement.sourceOfTemplate(reference.templateBegin, reference.templateEnd));
    }
  } else {
    for (ByteRange range : referencesAt(fragments.module.text, fragments.lint.module,
                                        ptxOfCursor(*entry, cursor->templateOffset), includeDeclaration)) {
      if (inBody(*entry, range)) out.push_back(sourceOfPtx(statement, *entry, range));
    }
  }
  std::sort(out.begin(), out.end(), [](ByteRange a, ByteRange b) { return a.begin < b.begin; });
  return out;
}

std::vector<CompletionItem> asmCompletionAt(const std::vector<AsmStatement>& statements, std::string_view ptxTarget,
                                            std::uint32_t offset) {
  std::optional<AsmCursor> cursor = asmCursorAt(statements, offset);
  if (!cursor) return {};
  const AsmStatement& statement = *cursor->statement;
  const std::string& text = statement.templateText;
  const std::uint32_t at = cursor->templateOffset;
  std::vector<CompletionItem> items;

  // An operand being typed: `%` (not the second of `%%`) and maybe digits before the cursor.
  std::uint32_t digits = at;
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(text[digits - 1]))) --digits;
  std::uint32_t percents = 0;
  while (percents < digits && text[digits - 1 - percents] == '%') ++percents;
  if (percents % 2 == 1) {
    ByteRange replace = typedRange(statement, digits - 1, at, offset);
    for (std::uint32_t k = 0; k < statement.operands.size(); ++k) {
      std::string name = concat("%", std::to_string(k));
      // Before every PTX item ('!' sorts first), in operand order.
      std::string order = concat("!", std::to_string(1000000 + k));
      items.push_back({name, CompletionKind::Register, operandDetail(statement.operands[k]), operandMarkdown(statement, k),
                       name, replace, order});
    }
  }

  Fragments fragments({statement}, ptxTarget);
  const Entry* entry = fragments.single();
  if (!entry) return items;
  for (CompletionItem& item : completeAt(fragments.module.text, fragments.lint, ptxOfCursor(*entry, at))) {
    if (isOperandName(item.label)) continue;  // Listed above, with the operand they stand for.
    std::uint32_t replaced = std::clamp(item.replace.begin, entry->bodyBegin, entry->bodyEnd) - entry->bodyBegin;
    std::uint32_t typedFrom = entry->substituted.templateRangeOf(replaced, replaced).first;
    item.replace = typedRange(statement, std::min(typedFrom, at), at, offset);
    items.push_back(std::move(item));
  }
  return items;
}

std::vector<SemanticToken> asmSemanticTokens(std::string_view text, const std::vector<AsmStatement>& statements,
                                             std::string_view ptxTarget, std::optional<ByteRange> range) {
  std::vector<AsmStatement> chosen;
  if (range) {
    for (const AsmStatement& statement : statements)
      if (overlaps(hullOf(statement), *range)) chosen.push_back(statement);
  }
  Fragments fragments(range ? chosen : statements, ptxTarget);
  const std::vector<AsmStatement>& placed = range ? chosen : statements;
  const auto& entries = fragments.module.entries;

  std::vector<SemanticToken> out;
  std::size_t next = 0;
  for (const SemanticToken& token : semanticTokens(fragments.module.text, fragments.lint)) {
    while (next < entries.size() && entries[next].bodyEnd <= token.begin) ++next;
    if (next == entries.size()) break;
    const Entry& entry = entries[next];
    if (!inBody(entry, {token.begin, token.end})) continue;
    const AsmStatement& statement = placed[entry.statement];
    auto [begin, end] = entry.substituted.templateRangeOf(token.begin - entry.bodyBegin, token.end - entry.bodyBegin);
    appendSourcePieces(text, statement, begin, end, token, out);
  }
  // A macro body's tokens come once per expanding statement; tokens never overlap.
  std::stable_sort(out.begin(), out.end(), [](const SemanticToken& a, const SemanticToken& b) { return a.begin < b.begin; });
  std::vector<SemanticToken> tokens;
  for (const SemanticToken& token : out) {
    if (!tokens.empty() && token.begin < tokens.back().end) continue;
    if (range && !overlaps({token.begin, token.end}, *range)) continue;
    tokens.push_back(token);
  }
  return tokens;
}

}  // namespace ptx::lsp
