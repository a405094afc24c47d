// SemanticTokens: one cursor walk over the leaves of the tree, in source order, with names
// looked up in the model by two pointers that only move forward.
//
// Leaves are classified by their grammar symbol through a table built from the language, so
// the walk compares no strings; names consult the model's position-sorted references and
// declarations, which the walk visits in the same order, so a full request is linear. A range
// request seeks to its start with ts_tree_cursor_goto_first_child_for_byte (which skips whole
// chunks of statements) and binary-searches the model once, so its cost follows the range,
// not the file.
#include "features/SemanticTokens.h"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "isa/IsaReference.h"
#include "syntax/SyntaxKinds.h"

namespace ptx::lsp {

const std::vector<std::string>& semanticTokenTypes() {
  // LSP's standard names, plus VS Code's standard `label`; the order is SemanticTokenType's.
  static const std::vector<std::string> types = {
      "keyword", "type",       "function", "parameter", "variable", "label",  "property",
      "enumMember", "modifier", "macro",   "comment",   "string",   "number", "operator",
  };
  return types;
}

const std::vector<std::string>& semanticTokenModifiers() {
  static const std::vector<std::string> modifiers = {"declaration", "definition", "readonly", "defaultLibrary"};
  return modifiers;
}

namespace {

constexpr std::uint32_t typeIndex(SemanticTokenType type) { return static_cast<std::uint32_t>(type); }

// What a leaf is, from its grammar symbol alone; identifiers, modifiers and a few punctuation
// tokens are refined by their context.
enum class LeafClass : std::uint8_t {
  None,  // Not a token of its own: descend into it, or leave it uncoloured.
  Identifier,
  Opcode,
  Modifier,  // A `.name` after an opcode: a type, vector width or plain modifier.
  Keyword,
  Type,
  Component,
  Property,
  Label,
  Macro,
  Sink,
  Comment,
  String,
  Number,
  Operator,
  AngleBracket,  // `<`, `>`: operators, except around a register count.
  Colon,         // `:`: an operator in `a ? b : c` only.
};

// LeafClass by TSSymbol, for every symbol of the language.
std::vector<LeafClass> leafClasses(const TSLanguage* language) {
  std::vector<LeafClass> classes(ts_language_symbol_count(language), LeafClass::None);
  static const std::unordered_set<std::string_view> operators = {
      "+", "-", "*", "/", "%", "<<", ">>", "<=", ">=", "==", "!=", "&", "^", "|", "&&", "||", "!", "~", "=", "?"};
  static const std::array<std::pair<std::string_view, LeafClass>, 20> named = {{
      {"identifier", LeafClass::Identifier},
      {"opcode", LeafClass::Opcode},
      {"modifier", LeafClass::Modifier},
      {"attribute_name", LeafClass::Modifier},
      {"state_space", LeafClass::Keyword},
      {"linkage", LeafClass::Keyword},
      {"function_kind", LeafClass::Keyword},
      {"directive_name", LeafClass::Keyword},
      {"type", LeafClass::Type},
      {"vector_width", LeafClass::Type},
      {"component", LeafClass::Component},
      {"section_name", LeafClass::Label},
      {"preprocessor_line", LeafClass::Macro},
      {"dwarf_line", LeafClass::Macro},
      {"sink", LeafClass::Sink},
      {"comment", LeafClass::Comment},
      {"string_literal", LeafClass::String},
      {"integer_literal", LeafClass::Number},
      {"float_literal", LeafClass::Number},
      {"hex_float_literal", LeafClass::Number},
  }};
  for (TSSymbol symbol = 0; symbol < classes.size(); ++symbol) {
    std::string_view name = ts_language_symbol_name(language, symbol);
    TSSymbolType kind = ts_language_symbol_type(language, symbol);
    if (kind == TSSymbolTypeRegular) {
      for (const auto& [spelled, leaf] : named) {
        if (name == spelled) classes[symbol] = leaf;
      }
    } else if (kind == TSSymbolTypeAnonymous) {
      if (name.size() > 1 && name[0] == '.') classes[symbol] = LeafClass::Keyword;  // `.version`, `.maxntid`
      else if (name == "generic") classes[symbol] = LeafClass::Keyword;
      else if (name == "<" || name == ">") classes[symbol] = LeafClass::AngleBracket;
      else if (name == ":") classes[symbol] = LeafClass::Colon;
      else if (operators.contains(name)) classes[symbol] = LeafClass::Operator;
    }
  }
  return classes;
}

// Whether an opcode branches to a label operand (bra, brx.idx).
bool isBranch(std::string_view opcode) {
  Family family = familyNamed(opcode);
  return family == Family::Bra || family == Family::Brx;
}

// Instruction modifiers spelled like a type or a vector width (`ld.global.v4.u32`) are
// coloured as types, as they are in declarations.
bool isTypeSpelling(std::string_view spelled) {
  static const std::unordered_set<std::string_view> spellings = [] {
    std::unordered_set<std::string_view> all = {spellingOf(Modifier::V2), spellingOf(Modifier::V4),
                                                spellingOf(Modifier::V8)};
    for (const TypeInfo& type : allTypes()) all.insert(type.name);
    return all;
  }();
  return spellings.contains(spelled);
}

struct Classification {
  SemanticTokenType type;
  std::uint32_t modifiers = 0;
};

class Collector {
 public:
  Collector(std::string_view text, const LintResult& analysis, ByteRange range)
      : text_(text),
        module_(analysis.module),
        tree_(analysis.tree),
        hasModel_(!analysis.module.scopes.empty()),
        focus_(analysis.focus),
        range_(range),
        kinds_(syntaxKinds()) {}

  std::vector<SemanticToken> run() {
    TSNode root = tree_.root();
    if (ts_node_is_null(root) || range_.begin >= range_.end) return std::move(tokens_);
    classes_ = leafClasses(ts_tree_language(tree_.raw()));
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    ancestors_.clear();
    while (true) {
      TSNode node = ts_tree_cursor_current_node(&cursor);
      std::uint32_t begin = ts_node_start_byte(node);
      std::uint32_t end = ts_node_end_byte(node);
      // Nodes come in source order, so the first one past the range ends the walk.
      if (begin >= range_.end) break;
      bool descend = false;
      if (end > range_.begin) {
        TSSymbol symbol = ts_node_symbol(node);
        LeafClass leaf = symbol < classes_.size() ? classes_[symbol] : LeafClass::None;
        if (leaf != LeafClass::None) {
          leafToken(leaf, begin, end, cursor);
        } else {
          descend = true;
        }
        if (descend) {
          ancestors_.push_back(symbol);
          // Seeking skips the children (and the hidden statement chunks) that end before the
          // range without visiting them.
          bool entered = begin < range_.begin ? ts_tree_cursor_goto_first_child_for_byte(&cursor, range_.begin) >= 0
                                              : ts_tree_cursor_goto_first_child(&cursor);
          if (entered) continue;
          ancestors_.pop_back();
        }
      }
      bool moved = false;
      while (!ancestors_.empty() && !moved) {
        if (ts_tree_cursor_goto_next_sibling(&cursor)) {
          moved = true;
        } else {
          ts_tree_cursor_goto_parent(&cursor);
          ancestors_.pop_back();
        }
      }
      if (!moved) break;
    }
    ts_tree_cursor_delete(&cursor);
    return std::move(tokens_);
  }

 private:
  TSSymbol parent() const { return ancestors_.empty() ? 0 : ancestors_.back(); }
  TSSymbol grandparent() const { return ancestors_.size() < 2 ? 0 : ancestors_[ancestors_.size() - 2]; }

  std::string_view slice(std::uint32_t begin, std::uint32_t end) const {
    begin = std::min<std::uint32_t>(begin, static_cast<std::uint32_t>(text_.size()));
    end = std::min<std::uint32_t>(end, static_cast<std::uint32_t>(text_.size()));
    return text_.substr(begin, end - begin);
  }

  void leafToken(LeafClass leaf, std::uint32_t begin, std::uint32_t end, const TSTreeCursor& cursor) {
    switch (leaf) {
      case LeafClass::None: return;
      case LeafClass::Identifier:
        if (auto named = identifier(begin, end, cursor)) emit(begin, end, named->type, named->modifiers);
        return;
      case LeafClass::Opcode:
        lastOpcode_ = slice(begin, end);
        emit(begin, end, SemanticTokenType::Function, kDefaultLibraryModifier);
        return;
      case LeafClass::Modifier:
        emit(begin, end, isTypeSpelling(slice(begin, end)) ? SemanticTokenType::Type : SemanticTokenType::Modifier);
        return;
      case LeafClass::Keyword: emit(begin, end, SemanticTokenType::Keyword); return;
      case LeafClass::Type: emit(begin, end, SemanticTokenType::Type); return;
      case LeafClass::Component:
      case LeafClass::Property: emit(begin, end, SemanticTokenType::Property); return;
      case LeafClass::Label: emit(begin, end, SemanticTokenType::Label); return;
      case LeafClass::Macro: emit(begin, end, SemanticTokenType::Macro); return;
      case LeafClass::Sink: emit(begin, end, SemanticTokenType::Variable, kDefaultLibraryModifier); return;
      case LeafClass::Comment: emitPerLine(begin, end, SemanticTokenType::Comment); return;
      case LeafClass::String: emit(begin, end, SemanticTokenType::String); return;
      case LeafClass::Number: emit(begin, end, SemanticTokenType::Number); return;
      case LeafClass::Operator: emit(begin, end, SemanticTokenType::Operator); return;
      case LeafClass::AngleBracket:
        if (parent() != registerCountSymbol()) emit(begin, end, SemanticTokenType::Operator);
        return;
      case LeafClass::Colon:
        if (parent() == conditionalSymbol()) emit(begin, end, SemanticTokenType::Operator);
        return;
    }
  }

  // Symbols the shared SyntaxKinds table does not carry, resolved once per request.
  TSSymbol registerCountSymbol() {
    if (registerCount_ == 0) registerCount_ = namedSymbol("register_count");
    return registerCount_;
  }
  TSSymbol conditionalSymbol() {
    if (conditional_ == 0) conditional_ = namedSymbol("conditional_expression");
    return conditional_;
  }
  TSSymbol namedSymbol(std::string_view name) const {
    return ts_language_symbol_for_name(ts_tree_language(tree_.raw()), name.data(),
                                       static_cast<std::uint32_t>(name.size()), true);
  }

  void emit(std::uint32_t begin, std::uint32_t end, SemanticTokenType type, std::uint32_t modifiers = 0) {
    end = std::min<std::uint32_t>(end, static_cast<std::uint32_t>(text_.size()));
    if (begin >= end) return;  // MISSING nodes are zero-width.
    tokens_.push_back({begin, end, typeIndex(type), modifiers});
  }

  // A block comment may span lines; LSP tokens may not, so each line gets its own piece
  // (without its line terminator), and only the pieces overlapping the range are kept.
  void emitPerLine(std::uint32_t begin, std::uint32_t end, SemanticTokenType type) {
    std::string_view body = slice(begin, end);
    std::uint32_t lineBegin = begin;
    while (true) {
      std::size_t newline = body.find('\n', lineBegin - begin);
      std::uint32_t lineEnd = newline == std::string_view::npos ? end : begin + static_cast<std::uint32_t>(newline);
      std::uint32_t pieceEnd = lineEnd;
      if (pieceEnd > lineBegin && text_[pieceEnd - 1] == '\r') --pieceEnd;
      if (pieceEnd > range_.begin && lineBegin < range_.end) emit(lineBegin, pieceEnd, type);
      if (newline == std::string_view::npos || lineEnd + 1 >= range_.end) break;
      lineBegin = lineEnd + 1;
    }
  }

  std::optional<Classification> identifier(std::uint32_t begin, std::uint32_t end, const TSTreeCursor& cursor) {
    if (modelCovers(begin)) {
      if (const Reference* reference = referenceAt(begin)) {
        if (reference->target != kNoSymbol) return fromSymbol(reference->target, false);
        if (reference->predefined) return predefined();
        return std::nullopt;  // Unresolved: a typo stays uncoloured.
      }
      if (SymbolId declared = declarationAt(begin); declared != kNoSymbol) return fromSymbol(declared, true);
    }
    // The field costs a walk up the cursor's stack, so only names the model left open ask.
    return fromContext(slice(begin, end), begin, ts_tree_cursor_current_field_id(&cursor));
  }

  // The reference starting at `begin`. Identifiers arrive in source order, so the position
  // only moves forward after one binary search for the first.
  const Reference* referenceAt(std::uint32_t begin) {
    const std::vector<Reference>& references = module_.references;
    if (!referencesSought_) {
      nextReference_ = static_cast<std::size_t>(
          std::lower_bound(references.begin(), references.end(), begin,
                           [](const Reference& r, std::uint32_t at) { return r.range.begin < at; }) -
          references.begin());
      referencesSought_ = true;
    }
    while (nextReference_ < references.size() && references[nextReference_].range.begin < begin) ++nextReference_;
    if (nextReference_ < references.size() && references[nextReference_].range.begin == begin) {
      return &references[nextReference_];
    }
    return nullptr;
  }

  SymbolId declarationAt(std::uint32_t begin) {
    const std::vector<SymbolId>& order = module_.symbolsByPosition;
    auto startOf = [&](SymbolId id) { return module_.symbols[id].nameRange.begin; };
    if (!declarationsSought_) {
      nextDeclaration_ = static_cast<std::size_t>(
          std::lower_bound(order.begin(), order.end(), begin,
                           [&](SymbolId id, std::uint32_t at) { return startOf(id) < at; }) -
          order.begin());
      declarationsSought_ = true;
    }
    while (nextDeclaration_ < order.size() && startOf(order[nextDeclaration_]) < begin) ++nextDeclaration_;
    if (nextDeclaration_ < order.size() && startOf(order[nextDeclaration_]) == begin) return order[nextDeclaration_];
    return kNoSymbol;
  }

  Classification fromSymbol(SymbolId id, bool isDeclaration) {
    const Symbol& symbol = module_.symbols[id];
    Classification named{SemanticTokenType::Variable, isDeclaration ? kDeclarationModifier : 0u};
    switch (symbol.kind) {
      case SymbolKind::Register: break;
      case SymbolKind::Variable:
        if (symbol.spaceId == Modifier::Const) named.modifiers |= kReadonlyModifier;
        break;
      case SymbolKind::Parameter:
        named.type = SemanticTokenType::Parameter;
        // A kernel reads its parameters and cannot store to them.
        if (isKernelScope(symbol.scope)) named.modifiers |= kReadonlyModifier;
        break;
      case SymbolKind::Function:
      case SymbolKind::Prototype:
        named.type = SemanticTokenType::Function;
        if (isDeclaration && symbol.hasBody) named.modifiers |= kDefinitionModifier;
        break;
      case SymbolKind::Label: named.type = SemanticTokenType::Label; break;
    }
    return named;
  }

  bool isKernelScope(ScopeId scope) {
    if (!kernelScopesKnown_) {
      // Bounded by the number of functions, not the size of the file.
      for (const FunctionInfo& function : module_.functions) {
        if (function.symbol == kNoSymbol || !module_.symbols[function.symbol].isEntry) continue;
        for (SymbolId parameter : function.parameters) kernelScopes_.insert(module_.symbols[parameter].scope);
      }
      kernelScopesKnown_ = true;
    }
    return kernelScopes_.contains(scope);
  }

  // Every predefined name (special registers, WARP_SZ) is read-only.
  static Classification predefined() {
    return {SemanticTokenType::Variable, kReadonlyModifier | kDefaultLibraryModifier};
  }

  // A name the model says nothing about — every name when there is no model — classified
  // by where it stands, the way the highlight queries do.
  std::optional<Classification> fromContext(std::string_view name, std::uint32_t offset, TSFieldId field) {
    const SyntaxFields& fields = kinds_.fields;
    TSSymbol up = parent();
    if ((up == kinds_.functionDefinition || up == kinds_.functionDeclaration) && field == fields.name) {
      return Classification{SemanticTokenType::Function,
                            kDeclarationModifier | (up == kinds_.functionDefinition ? kDefinitionModifier : 0u)};
    }
    if (up == declaratorSymbol() && field == fields.name) {
      TSSymbol declaration = grandparent();
      if (declaration == kinds_.parameter) return Classification{SemanticTokenType::Parameter, kDeclarationModifier};
      return Classification{SemanticTokenType::Variable, kDeclarationModifier};
    }
    if (up == kinds_.label) return Classification{SemanticTokenType::Label, kDeclarationModifier};
    if (up == kinds_.targetDirective) return Classification{SemanticTokenType::EnumMember};
    if (up == kinds_.fieldInitializer && field == fields.field) return Classification{SemanticTokenType::Property};
    if (up == locAttributeSymbol()) {
      // `.loc 1 2 3, function_name $L__info_string0`: an attribute name and a debug label.
      return Classification{field == fields.name ? SemanticTokenType::Property : SemanticTokenType::Label};
    }
    if (isPredefinedName(name)) return predefined();
    if (modelCovers(offset)) return std::nullopt;  // The model would have resolved a name used here.
    if (up == kinds_.callInstruction && field == fields.callee && !name.starts_with('%')) {
      return Classification{SemanticTokenType::Function};
    }
    if (up == kinds_.callInstruction && field == fields.targets) return Classification{SemanticTokenType::Label};
    if (up == kinds_.calltargetsDirective || up == aliasSymbol()) return Classification{SemanticTokenType::Function};
    if (up == kinds_.branchtargetsDirective) return Classification{SemanticTokenType::Label};
    if (up == kinds_.instruction && isBranch(lastOpcode_) && !name.starts_with('%')) {
      return Classification{SemanticTokenType::Label};
    }
    return Classification{SemanticTokenType::Variable};
  }

  // Whether the model has resolved the names at `offset`: not without a model, nor outside
  // the one function an incremental analysis re-walked (LintResult::focus).
  bool modelCovers(std::uint32_t offset) const {
    return hasModel_ && (!focus_ || (focus_->begin <= offset && offset < focus_->end));
  }

  TSSymbol declaratorSymbol() {
    if (declarator_ == 0) declarator_ = namedSymbol("declarator");
    return declarator_;
  }
  TSSymbol locAttributeSymbol() {
    if (locAttribute_ == 0) locAttribute_ = namedSymbol("loc_attribute");
    return locAttribute_;
  }
  TSSymbol aliasSymbol() {
    if (alias_ == 0) alias_ = namedSymbol("alias_directive");
    return alias_;
  }

  std::string_view text_;
  const Module& module_;
  const SyntaxTree& tree_;
  bool hasModel_;
  std::optional<ByteRange> focus_;
  ByteRange range_;
  const SyntaxKinds& kinds_;
  std::vector<LeafClass> classes_;
  std::vector<TSSymbol> ancestors_;  // The symbols of the cursor's ancestors, root first.
  std::vector<SemanticToken> tokens_;
  std::string_view lastOpcode_;
  bool referencesSought_ = false;
  std::size_t nextReference_ = 0;
  bool declarationsSought_ = false;
  std::size_t nextDeclaration_ = 0;
  bool kernelScopesKnown_ = false;
  std::unordered_set<ScopeId> kernelScopes_;
  TSSymbol registerCount_ = 0, conditional_ = 0, declarator_ = 0, locAttribute_ = 0, alias_ = 0;
};

// Length of the UTF-8 sequence at bytes[i] and its UTF-16 size, by the rule Positions.cpp
// uses (an invalid or truncated sequence is one byte and one unit per byte), so encoded
// columns agree with positionAt.
std::pair<std::uint32_t, std::uint32_t> utf8Sequence(std::string_view bytes, std::size_t i) {
  auto lead = static_cast<unsigned char>(bytes[i]);
  std::uint32_t length = lead < 0x80 ? 1 : (lead >> 5) == 0x6 ? 2 : (lead >> 4) == 0xE ? 3 : (lead >> 3) == 0x1E ? 4 : 0;
  if (length == 0 || i + length > bytes.size()) return {1, 1};
  for (std::uint32_t k = 1; k < length; ++k) {
    if ((static_cast<unsigned char>(bytes[i + k]) & 0xC0) != 0x80) return {1, 1};
  }
  return {length, length == 4 ? 2u : 1u};
}

std::uint32_t codeUnits(std::string_view bytes, PositionEncoding encoding) {
  if (encoding == PositionEncoding::Utf8) return static_cast<std::uint32_t>(bytes.size());
  std::uint32_t units = 0;
  for (std::size_t i = 0; i < bytes.size();) {
    auto [length, width] = utf8Sequence(bytes, i);
    units += width;
    i += length;
  }
  return units;
}

}  // namespace

std::vector<SemanticToken> semanticTokens(std::string_view text, const LintResult& analysis,
                                          std::optional<ByteRange> range) {
  ByteRange bounds = range.value_or(ByteRange{0, static_cast<std::uint32_t>(text.size())});
  if (!range && text.empty()) return {};
  return Collector(text, analysis, bounds).run();
}

std::vector<std::uint32_t> encodeSemanticTokens(std::string_view text, const LineIndex& lines,
                                                const std::vector<SemanticToken>& tokens,
                                                PositionEncoding encoding) {
  std::vector<std::uint32_t> data;
  data.reserve(tokens.size() * 5);
  std::uint32_t previousLine = 0;
  std::uint32_t previousStart = 0;
  // Columns are counted from the end of the previous token on the same line, not from the
  // line start, so a long line with many tokens costs its length once.
  std::uint32_t line = 0;
  std::uint32_t countedUpTo = lines.lineCount() > 0 ? lines.lineStart(0) : 0;
  std::uint32_t countedUnits = 0;
  auto size = static_cast<std::uint32_t>(text.size());
  for (const SemanticToken& token : tokens) {
    std::uint32_t begin = std::min(token.begin, size);
    std::uint32_t end = std::clamp(token.end, begin, size);
    if (begin < countedUpTo) {
      // Out of order (the API does not produce this): restart from the token's line.
      line = lines.lineOf(begin);
      countedUpTo = lines.lineStart(line);
      countedUnits = 0;
    }
    bool newLine = false;
    while (line + 1 < lines.lineCount() && lines.lineStart(line + 1) <= begin) {
      ++line;
      newLine = true;
    }
    if (newLine) {
      countedUpTo = lines.lineStart(line);
      countedUnits = 0;
    }
    std::uint32_t start = countedUnits + codeUnits(text.substr(countedUpTo, begin - countedUpTo), encoding);
    std::uint32_t length = codeUnits(text.substr(begin, end - begin), encoding);
    countedUpTo = end;
    countedUnits = start + length;
    std::uint32_t deltaLine = line - previousLine;
    data.insert(data.end(), {deltaLine, deltaLine == 0 ? start - previousStart : start, length, token.type,
                             token.modifiers});
    previousLine = line;
    previousStart = start;
  }
  return data;
}

std::vector<SemanticTokensEdit> diffSemanticTokens(const std::vector<std::uint32_t>& previous,
                                                   const std::vector<std::uint32_t>& current) {
  if (previous == current) return {};
  std::size_t shorter = std::min(previous.size(), current.size());
  std::size_t prefix = 0;
  while (prefix < shorter && previous[prefix] == current[prefix]) ++prefix;
  // Whole tokens only: clients apply integer edits, but cutting a token in two buys nothing.
  prefix -= prefix % 5;
  std::size_t suffix = 0;
  while (suffix < shorter - prefix && previous[previous.size() - 1 - suffix] == current[current.size() - 1 - suffix]) {
    ++suffix;
  }
  suffix -= suffix % 5;
  SemanticTokensEdit edit;
  edit.start = static_cast<std::uint32_t>(prefix);
  edit.deleteCount = static_cast<std::uint32_t>(previous.size() - prefix - suffix);
  edit.data.assign(current.begin() + static_cast<std::ptrdiff_t>(prefix),
                   current.end() - static_cast<std::ptrdiff_t>(suffix));
  return {std::move(edit)};
}

}  // namespace ptx::lsp
