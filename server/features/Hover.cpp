// Hover: finds the leaf under the offset and renders reference or symbol documentation; a
// modifier of an instruction gets its description for that instruction's family.
#include "features/Hover.h"

#include <algorithm>

#include "isa/HoverDocs.h"
#include "syntax/SyntaxKinds.h"
#include "text/LineIndex.h"

namespace ptx::lsp {
namespace {

std::string_view slice(std::string_view text, ByteRange range) {
  return text.substr(range.begin, range.end - range.begin);
}

// `word` is the name as spelled under the cursor: for a `%r<N>` range, uses are counted for
// that one register (`%r1`), not the whole range.
std::string symbolMarkdown(std::string_view text, const Module& module, SymbolId id, std::string_view word,
                           const LineIndex* lines) {
  const Symbol& symbol = module.symbols[id];
  std::string out = "```ptx\n";
  std::string_view declaration = slice(text, symbol.declarationRange);
  // Long declarations (function bodies) show their first line only.
  out += declaration.substr(0, std::min(declaration.find('\n'), std::size_t{200}));
  out += "\n```\n\n";
  out += toString(symbol.kind);
  if (!symbol.space().empty()) {
    out += " in `";
    out += symbol.space();
    out += '`';
  }
  if (!symbol.type.empty()) {
    out += ", type `";
    out += symbol.type;
    out += '`';
  }
  if (symbol.vectorWidth != 0) {
    out += ", vector of ";
    out += std::to_string(symbol.vectorWidth);
  }
  if (symbol.rangeCount != 0) {
    out += ", range `";
    out += symbol.name;
    out += '<';
    out += std::to_string(symbol.rangeCount);
    out += ">`";
  }
  out += "; declared on line ";
  // The caller's index when it has one: rebuilding it would scan the whole file per hover.
  std::uint32_t line = lines != nullptr
                           ? lines->lineOf(symbol.nameRange.begin)
                           : static_cast<std::uint32_t>(std::count(text.begin(), text.begin() + symbol.nameRange.begin, '\n'));
  out += std::to_string(line + 1);
  std::span<const Reference> candidates = module.referencesWithin(module.visibilityOf(id));
  std::size_t uses = static_cast<std::size_t>(std::count_if(
      candidates.begin(), candidates.end(), [&](const Reference& r) {
        return r.target == id && (symbol.rangeCount == 0 || slice(text, r.range) == word);
      }));
  out += symbol.rangeCount != 0 ? ", `" + std::string(word) + "` used " : ", used ";
  out += std::to_string(uses);
  out += uses == 1 ? " time." : " times.";
  return out;
}

}  // namespace

std::optional<HoverResult> hoverAt(std::string_view text, const LintResult& analysis, std::uint32_t offset,
                                   const LineIndex* lines) {
  TSNode root = analysis.tree.root();
  if (ts_node_is_null(root) || offset > text.size()) return std::nullopt;
  TSNode node = ts_node_descendant_for_byte_range(root, offset, offset);
  // The cursor just past a word (`add|`) still means that word.
  if ((ts_node_is_null(node) || ts_node_child_count(node) > 0) && offset > 0) {
    node = ts_node_descendant_for_byte_range(root, offset - 1, offset - 1);
  }
  if (ts_node_is_null(node)) return std::nullopt;
  ByteRange range{ts_node_start_byte(node), ts_node_end_byte(node)};
  std::string_view word = slice(text, range);
  std::string_view type = ts_node_type(node);
  if (type == "opcode") {
    if (auto docs = instructionHover(word)) return HoverResult{std::move(*docs), range};
    return std::nullopt;
  }
  if (type == "identifier") {
    SymbolId id = analysis.module.symbolAt(offset);
    if (id == kNoSymbol && offset > 0) id = analysis.module.symbolAt(offset - 1);
    if (id != kNoSymbol) return HoverResult{symbolMarkdown(text, analysis.module, id, word, lines), range};
    if (auto docs = hoverMarkdown(word)) return HoverResult{std::move(*docs), range};
    return std::nullopt;
  }
  if (type == "component") {
    // `%tid.x`: document the special register.
    TSNode parent = ts_node_parent(node);
    if (!ts_node_is_null(parent)) {
      ByteRange whole{ts_node_start_byte(parent), ts_node_end_byte(parent)};
      if (auto docs = hoverMarkdown(slice(text, whole))) return HoverResult{std::move(*docs), whole};
    }
    return std::nullopt;
  }
  if (ts_node_symbol(node) == syntaxKinds().modifier) {
    // A modifier of an instruction is documented for that instruction's family.
    TSNode parent = ts_node_parent(node);
    TSNode opcode = ts_node_is_null(parent) ? parent : ts_node_child_by_field_id(parent, syntaxKinds().fields.opcode);
    if (!ts_node_is_null(opcode)) {
      Family family = familyNamed(slice(text, ByteRange{ts_node_start_byte(opcode), ts_node_end_byte(opcode)}));
      if (auto docs = modifierHover(word, family)) return HoverResult{std::move(*docs), range};
      return std::nullopt;
    }
  }
  if (auto docs = hoverMarkdown(word)) return HoverResult{std::move(*docs), range};
  return std::nullopt;
}

}  // namespace ptx::lsp
