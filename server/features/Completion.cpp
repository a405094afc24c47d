// Completion: decides what the cursor's statement expects — from the scan of the enclosing
// function up to the cursor (CompletionScanner.h) — and lists the fitting items.
#include "features/Completion.h"

#include <algorithm>
#include <cstdio>
#include <span>
#include <unordered_set>

#include "features/CompletionScanner.h"
#include "isa/HoverDocs.h"
#include "isa/InstructionForms.h"
#include "isa/IsaReference.h"
#include "isa/ModifierDocs.h"

namespace ptx::lsp {
namespace {

using namespace completion;

// ── Vocabulary ──────────────────────────────────────────────────────────────────────────

constexpr Modifier kLinkages[] = {Modifier::Visible, Modifier::Extern, Modifier::Weak, Modifier::Common};
constexpr Modifier kVectorWidths[] = {Modifier::V2, Modifier::V4, Modifier::V8};
// Directives that may start a statement in a function body.
constexpr Modifier kBodyDirectives[] = {
    Modifier::Reg, Modifier::Local, Modifier::Shared, Modifier::Param, Modifier::Pragma, Modifier::Loc,
    Modifier::Callprototype, Modifier::Branchtargets, Modifier::Calltargets,
};
// Directives that may start a statement at module level.
constexpr Modifier kModuleDirectives[] = {
    Modifier::Version, Modifier::Target, Modifier::AddressSize, Modifier::Visible, Modifier::Extern,
    Modifier::Weak, Modifier::Common, Modifier::Entry, Modifier::Func, Modifier::Global, Modifier::Const,
    Modifier::Shared, Modifier::Tex, Modifier::File, Modifier::Section, Modifier::Alias, Modifier::Pragma,
};
// What may follow a linkage.
constexpr Modifier kLinkedDeclarations[] = {
    Modifier::Entry, Modifier::Func, Modifier::Global, Modifier::Const, Modifier::Shared, Modifier::Tex,
};
// Performance-tuning and cluster directives after a function's parameter list.
constexpr Modifier kFunctionDirectives[] = {
    Modifier::Maxntid, Modifier::Reqntid, Modifier::Minnctapersm, Modifier::Maxnctapersm, Modifier::Maxnreg,
    Modifier::Noreturn, Modifier::Reqnctapercluster, Modifier::Explicitcluster, Modifier::Maxclusterrank,
    Modifier::Blocksareclusters, Modifier::Pragma,
};

// ── Item text ───────────────────────────────────────────────────────────────────────────

// Joins pieces into one string. (Spelled out because GCC 12 reports a false -Wrestrict
// on `"literal" + std::string` at -O3.)
template <typename... Pieces>
std::string concat(const Pieces&... pieces) {
  std::string out;
  (out.append(std::string_view(pieces)), ...);
  return out;
}

// The first sentence of a summary, for a one-line detail.
std::string firstSentence(std::string_view summary) {
  std::size_t end = summary.find(". ");
  if (end != std::string_view::npos) summary = summary.substr(0, end + 1);
  return std::string(summary);
}

// `.v2`, `.v4` or `.v8`.
std::string_view vectorSpelling(std::uint32_t width) {
  for (Modifier vector : kVectorWidths) {
    if (infoOf(vector).vectorWidth == width) return spellingOf(vector);
  }
  return {};
}

std::string typeDetail(const Decl& decl) {
  std::string out;
  if (decl.vectorWidth != 0) {
    out += vectorSpelling(decl.vectorWidth);
    out += ' ';
  }
  out += decl.type;
  return out;
}

std::string stateSpaceMarkdown(const StateSpaceInfo& info, std::string_view spelled) {
  std::string out = "**";
  out += spelled;
  out += "** — state space\n\n";
  out += info.summary;
  out += '\n';
  return out;
}

// ── Static item lists ───────────────────────────────────────────────────────────────────

CompletionItem makeItem(std::string_view label, CompletionKind kind, std::string detail, std::string documentation,
                        std::string sortText) {
  CompletionItem item;
  item.label = std::string(label);
  item.kind = kind;
  item.detail = std::move(detail);
  item.documentation = std::move(documentation);
  item.insertText = item.label;
  item.sortText = std::move(sortText);
  return item;
}

const std::vector<CompletionItem>& opcodeItems() {
  static const std::vector<CompletionItem> items = [] {
    std::vector<CompletionItem> out;
    for (const OpcodeInfo& info : allOpcodes()) {
      out.push_back(makeItem(info.name, CompletionKind::Opcode, firstSentence(info.summary),
                             instructionSummary(info.name).value_or(""), concat("1", info.name)));
    }
    return out;
  }();
  return items;
}

CompletionItem directiveItem(std::string_view name, std::string_view rank) {
  const DirectiveInfo* info = findDirective(name);
  return makeItem(name, CompletionKind::Directive, info != nullptr ? firstSentence(info->summary) : "directive",
                  hoverMarkdown(name).value_or(""), concat(rank, name));
}

const std::vector<CompletionItem>& specialRegisterItems() {
  static const std::vector<CompletionItem> items = [] {
    std::vector<CompletionItem> out;
    for (const SpecialRegisterInfo& info : allSpecialRegisters()) {
      // A numbered family (`%envreg0..%envreg31`) is offered as its first member.
      std::string_view name = info.name.substr(0, info.name.find(".."));
      // The type's first word (".v4.u32" of ".v4.u32 with .x .y .z components ...").
      std::string detail(info.name.find("..") != std::string_view::npos ? info.name
                                                                         : info.type.substr(0, info.type.find(' ')));
      out.push_back(makeItem(name, CompletionKind::SpecialRegister, std::move(detail),
                             hoverMarkdown(name).value_or(""), concat("5", name)));
    }
    return out;
  }();
  return items;
}

// ── Building the answer ─────────────────────────────────────────────────────────────────

// Which declared names an operand position takes.
struct ValueFilter {
  bool registers = true;
  bool specialRegisters = false;
  bool variables = false;  // Variables, and parameters outside `.reg`.
  std::string_view expectedType;  // Registers that fit it rank first.
  OperandRelax relax = OperandRelax::Strict;
  bool onlyFitting = false;  // Leave out registers that do not fit expectedType.
};

class Completer {
 public:
  Completer(std::string_view text, const LintResult& analysis, std::uint32_t cursor)
      : text_(text), analysis_(analysis), cursor_(cursor) {}

  std::vector<CompletionItem> run();

 private:
  void add(CompletionItem item) {
    item.replace = replace_;
    items_.push_back(std::move(item));
  }
  void addAll(const std::vector<CompletionItem>& items) {
    for (const CompletionItem& item : items) add(item);
  }
  void addKeyword(std::string_view label, CompletionKind kind, std::string detail, std::string_view rank) {
    add(makeItem(label, kind, std::move(detail), hoverMarkdown(label).value_or(""),
                 concat(rank, label)));
  }

  void statementStart(bool guarded);
  void moduleStatement(std::size_t first);
  void declaration(std::size_t spaceIndex);
  void functionHeader(std::size_t keywordIndex);
  void instruction(std::size_t opcodeIndex);
  void modifiers(const InstructionFamily& family, std::span<const std::string_view> typed);
  void operands(const InstructionFamily* family, std::span<const std::string_view> typed, std::uint32_t index,
                bool inAddress);
  void callOperands(bool inParentheses);
  void components(std::string_view registerName);
  void values(const ValueFilter& filter);
  void labels();
  void functions(std::string_view rank);

  // Module-level declarations from the model (before the scan start) and from the scan.
  std::vector<Decl> visibleDecls() const;

  std::string_view text_;
  const LintResult& analysis_;
  std::uint32_t cursor_;
  std::uint32_t start_ = 0;
  std::optional<Scanner> scan_;
  ByteRange replace_;
  std::string_view word_;
  std::vector<CompletionItem> items_;
};

std::vector<CompletionItem> Completer::run() {
  const Module& module = analysis_.module;
  // Without a model, module-level names come from the text itself (but never from more
  // than 16 MiB of it: such texts are not analyzed at all).
  start_ = module.scopes.empty() && text_.size() <= (std::size_t{16} << 20) ? 0 : scanStart(text_, cursor_);
  scan_.emplace(text_, start_, cursor_);
  Scanner& scan = *scan_;
  scan.runToCursor();
  if (scan.inert() || scan.inSection()) return {};
  const Token& word = scan.word();
  replace_ = ByteRange{word.kind == TokenKind::End ? cursor_ : word.begin, cursor_};
  word_ = text_.substr(replace_.begin, replace_.end - replace_.begin);
  if (word.kind == TokenKind::Number || word.kind == TokenKind::String) return {};

  const std::vector<Token>& statement = scan.statement();
  std::size_t i = 0;
  bool guarded = false;
  if (!statement.empty() && scan.slice(statement[0]) == "@") {
    // `@p`, `@!p`: a predicate is being typed, or the guard is complete.
    i = 1;
    if (i < statement.size() && scan.slice(statement[i]) == "!") ++i;
    if (i == statement.size()) {
      ValueFilter predicates;
      predicates.expectedType = spellingOf(Modifier::Pred);
      predicates.onlyFitting = true;
      values(predicates);
      return std::move(items_);
    }
    ++i;
    guarded = true;
  }
  if (i == statement.size()) {
    statementStart(guarded);
    return std::move(items_);
  }
  const Token& first = statement[i];
  if (first.kind == TokenKind::Word) {
    instruction(i);
  } else if (first.kind == TokenKind::Dotted && !guarded) {
    moduleStatement(i);
  }
  return std::move(items_);
}

void Completer::statementStart(bool guarded) {
  bool dotted = word_.starts_with('.');
  if (word_.starts_with('%')) return;
  if (scan_->inFunction()) {
    if (!dotted) addAll(opcodeItems());
    if (guarded) return;
    for (Modifier directive : kBodyDirectives) add(directiveItem(spellingOf(directive), "2"));
    return;
  }
  if (guarded) return;
  for (Modifier directive : kModuleDirectives) add(directiveItem(spellingOf(directive), "1"));
}

void Completer::moduleStatement(std::size_t first) {
  const std::vector<Token>& statement = scan_->statement();
  // Skip linkage words; what follows decides.
  std::size_t i = first;
  while (i < statement.size() && statement[i].kind == TokenKind::Dotted && isLinkage(statement[i].modifier)) ++i;
  if (i == statement.size()) {
    if (!word_.empty() && !word_.starts_with('.')) return;
    for (Modifier declaration : kLinkedDeclarations) add(directiveItem(spellingOf(declaration), "1"));
    for (Modifier linkage : kLinkages) {
      bool typed = std::any_of(statement.begin(), statement.end(),
                               [&](const Token& token) { return token.modifier == linkage; });
      if (!typed) add(directiveItem(spellingOf(linkage), "2"));
    }
    return;
  }
  Modifier head = statement[i].modifier;
  if (isDeclarationSpace(head)) {
    declaration(i);
  } else if (isFunctionKeyword(head)) {
    functionHeader(i);
  } else if (head == Modifier::Branchtargets) {
    scan_->collectLaterLabels();
    labels();
  } else if (head == Modifier::Calltargets) {
    functions("1");
  }
}

// After `.reg`, `.global .align 4`, ...: types, vector widths and alignment until a type
// is given; the name comes after that.
void Completer::declaration(std::size_t spaceIndex) {
  if (!word_.empty() && !word_.starts_with('.')) return;
  const std::vector<Token>& statement = scan_->statement();
  Modifier space = statement[spaceIndex].modifier;
  bool hasType = false;
  bool hasVector = false;
  bool hasAlign = false;
  for (std::size_t j = spaceIndex + 1; j < statement.size(); ++j) {
    std::string_view spelled = scan_->slice(statement[j]);
    if (statement[j].kind == TokenKind::Word) return;  // Past the type, at the names.
    hasType = hasType || (statement[j].kind == TokenKind::Dotted && findType(spelled) != nullptr);
    hasVector = hasVector || isVectorWidth(statement[j].modifier);
    hasAlign = hasAlign || statement[j].modifier == Modifier::Align;
  }
  if (hasType) {
    std::string_view ptr = spellingOf(Modifier::Ptr);
    if (space == Modifier::Param) {
      add(makeItem(ptr, CompletionKind::Keyword, "pointer attributes", hoverMarkdown(ptr).value_or(""), concat("1", ptr)));
    }
    return;
  }
  for (const TypeInfo& type : allTypes()) {
    add(makeItem(type.name, CompletionKind::Type, type.sizeBits != 0 ? concat(std::to_string(type.sizeBits), " bits") : "type",
                 hoverMarkdown(type.name).value_or(""), concat("1", type.name)));
  }
  if (!hasVector) {
    for (Modifier vector : kVectorWidths) {
      std::string_view width = spellingOf(vector);
      add(makeItem(width, CompletionKind::Keyword, "vector", std::string(describeModifier(vector)),
                   concat("2", width)));
    }
  }
  if (!hasAlign && space != Modifier::Reg) {
    addKeyword(spellingOf(Modifier::Align), CompletionKind::Keyword, "alignment in bytes", "3");
  }
}

// `.entry name(.param .u64 p, ...)` and what may follow the parameter list.
void Completer::functionHeader(std::size_t keywordIndex) {
  if (!word_.empty() && !word_.starts_with('.')) return;
  const std::vector<Token>& statement = scan_->statement();
  bool isEntry = statement[keywordIndex].modifier == Modifier::Entry;
  int depth = 0;
  std::size_t parameterStart = 0;
  bool named = false;
  for (std::size_t j = keywordIndex + 1; j < statement.size(); ++j) {
    std::string_view spelled = scan_->slice(statement[j]);
    if (spelled == "(" && ++depth == 1) parameterStart = j + 1;
    if (spelled == ")") depth = std::max(depth - 1, 0);
    if (spelled == "," && depth == 1) parameterStart = j + 1;
    if (statement[j].kind == TokenKind::Word && depth == 0) named = true;
  }
  if (depth > 0) {
    // In a parameter: its state space first, then as in a declaration.
    for (std::size_t j = parameterStart; j < statement.size(); ++j) {
      if (statement[j].modifier == Modifier::Param || statement[j].modifier == Modifier::Reg) {
        declaration(j);
        return;
      }
    }
    addKeyword(spellingOf(Modifier::Param), CompletionKind::Directive, "parameter", "1");
    if (!isEntry) addKeyword(spellingOf(Modifier::Reg), CompletionKind::Directive, "register parameter", "2");
    return;
  }
  if (!named) return;
  for (Modifier directive : kFunctionDirectives) add(directiveItem(spellingOf(directive), "1"));
}

void Completer::instruction(std::size_t opcodeIndex) {
  const std::vector<Token>& statement = scan_->statement();
  const Token& opcode = statement[opcodeIndex];
  std::string_view name = scan_->slice(opcode);
  // The modifiers are the dotted words glued to the opcode.
  std::vector<std::string_view> typed;
  std::size_t j = opcodeIndex + 1;
  std::uint32_t chainEnd = opcode.end;
  for (; j < statement.size() && statement[j].kind == TokenKind::Dotted && statement[j].begin == chainEnd; ++j) {
    typed.push_back(scan_->slice(statement[j]));
    chainEnd = statement[j].end;
  }
  const InstructionFamily* family = findInstructionFamily(name);
  bool wordGlued = replace_.begin == chainEnd && scan_->word().kind != TokenKind::End;
  if (j == statement.size() && wordGlued) {
    if (word_.starts_with('.') && family != nullptr) modifiers(*family, typed);
    return;
  }
  // `%tid.` — a component of the special register just before.
  if (word_.starts_with('.') && j < statement.size() && statement.back().end == replace_.begin &&
      statement.back().kind == TokenKind::Word) {
    components(scan_->slice(statement.back()));
    return;
  }
  if (word_.starts_with('.')) return;
  // The operand index counts top-level commas; brackets, braces and parentheses nest.
  std::uint32_t index = 0;
  int depth = 0;
  int brackets = 0;
  bool inParentheses = false;
  for (std::size_t k = j; k < statement.size(); ++k) {
    if (statement[k].kind != TokenKind::Punct) continue;
    char c = text_[statement[k].begin];
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') depth = std::max(depth - 1, 0);
    if (c == '[') ++brackets;
    if (c == ']') brackets = std::max(brackets - 1, 0);
    if (c == '(') inParentheses = true;
    if (c == ')') inParentheses = false;
    if (c == ',' && depth == 0) ++index;
  }
  if (familyNamed(name) == Family::Call) {
    callOperands(inParentheses);
    return;
  }
  operands(family, typed, index, brackets > 0);
}

void Completer::modifiers(const InstructionFamily& family, std::span<const std::string_view> typed) {
  struct Candidate {
    std::string_view value;
    const FormElement* element = nullptr;
    std::uint32_t score = 0;
  };
  std::vector<Candidate> candidates;
  for (const PartialFormMatch& match : matchFormsPartially(family, typed)) {
    const std::vector<FormElement>& elements = match.form->elements;
    std::size_t lastFilled = 0;
    bool anyFilled = false;
    for (std::size_t e = 0; e < elements.size(); ++e) {
      if (match.filled[e]) {
        lastFilled = e;
        anyFilled = true;
      }
    }
    for (std::size_t e = 0; e < elements.size(); ++e) {
      if (match.filled[e]) continue;
      // Template order first: elements after the last typed one, nearest first.
      bool ahead = !anyFilled || e > lastFilled;
      std::uint32_t distance = static_cast<std::uint32_t>(ahead ? e - (anyFilled ? lastFilled + 1 : 0) : 100 + e);
      for (std::size_t v = 0; v < elements[e].values.size(); ++v) {
        std::string_view value = elements[e].values[v];
        if (std::find(typed.begin(), typed.end(), value) != typed.end()) continue;
        std::uint32_t score = distance * 1000 + static_cast<std::uint32_t>(std::min<std::size_t>(v, 999));
        auto known = std::find_if(candidates.begin(), candidates.end(),
                                  [&](const Candidate& candidate) { return candidate.value == value; });
        if (known == candidates.end()) {
          candidates.push_back(Candidate{value, &elements[e], score});
        } else if (score < known->score) {
          known->score = score;
          known->element = &elements[e];
        }
      }
    }
  }
  for (const Candidate& candidate : candidates) {
    const FormElement& element = *candidate.element;
    CompletionItem item;
    item.label = std::string(candidate.value);
    item.insertText = item.label;
    char rank[16];
    std::snprintf(rank, sizeof rank, "%06u", candidate.score);
    item.sortText = rank;
    bool group = element.values.size() > 1 || element.spelling != candidate.value;
    std::string_view space = candidate.value.substr(0, candidate.value.find("::"));
    if (const TypeInfo* type = findType(candidate.value)) {
      item.kind = CompletionKind::Type;
      item.detail = group ? concat("type ", element.spelling) : "type";
      if (type->sizeBits != 0) item.detail += concat(", ", std::to_string(type->sizeBits), " bits");
      item.documentation = hoverMarkdown(candidate.value).value_or("");
    } else if (const StateSpaceInfo* info = findStateSpace(space)) {
      item.kind = CompletionKind::Modifier;
      item.detail = group ? concat("state space ", element.spelling) : "state space";
      item.documentation = stateSpaceMarkdown(*info, candidate.value);
    } else {
      item.kind = CompletionKind::Modifier;
      item.detail = group ? concat("modifier ", element.spelling) : "modifier";
      std::string_view summary = describeModifier(modifierNamed(candidate.value), familyNamed(family.name));
      if (!summary.empty()) {
        item.documentation = concat("**", item.label, "** — ", item.detail, "\n\n", summary, "\n");
      }
    }
    add(std::move(item));
  }
}

void Completer::operands(const InstructionFamily* family, std::span<const std::string_view> typed,
                         std::uint32_t index, bool inAddress) {
  if (inAddress) {
    ValueFilter addressable;
    addressable.variables = true;
    values(addressable);
    return;
  }
  std::uint16_t kinds = family == nullptr ? std::uint16_t{0xFFFF} : std::uint16_t{0};
  std::string_view expectedType;
  OperandRelax relax = OperandRelax::Strict;
  if (family != nullptr) {
    std::vector<PartialFormMatch> matches = matchFormsPartially(*family, typed);
    for (const PartialFormMatch& match : matches) {
      if (index < match.form->operands.size()) kinds |= match.form->operands[index].kinds;
    }
    // A modifier no form takes (a typo) says nothing about the operands: take every form.
    if (matches.empty()) {
      for (const InstructionForm& form : family->forms) {
        if (index < form.operands.size()) kinds |= form.operands[index].kinds;
      }
    }
    // With a complete spelling, the first form's type for this operand ranks the registers.
    std::vector<FormMatch> complete = matchForms(*family, typed);
    if (!complete.empty() && index < complete.front().form->operands.size()) {
      const OperandSpec& spec = complete.front().form->operands[index];
      relax = spec.relax;
      if (spec.typeRule == OperandTypeRule::Element && spec.typeIndex < complete.front().types.size()) {
        expectedType = complete.front().types[spec.typeIndex];
      } else if (spec.typeRule == OperandTypeRule::Fixed) {
        expectedType = spec.fixedType;
      }
    }
  }
  if (kinds == 0) return;  // The instruction takes no more operands.
  if ((kinds & kOperandLabel) != 0) {
    scan_->collectLaterLabels();
    labels();
  }
  constexpr std::uint16_t kPredicates = kOperandPredicate | kOperandNegatedPredicate | kOperandPredicatePair;
  constexpr std::uint16_t kValues =
      kOperandRegister | kOperandValuePredicatePair | kOperandVector | kOperandAny | kPredicates;
  bool predicatesOnly = (kinds & kValues & ~kPredicates) == 0 && (kinds & kPredicates) != 0;
  ValueFilter filter;
  filter.registers = (kinds & kValues) != 0;
  filter.specialRegisters = (kinds & (kOperandRegister | kOperandAny)) != 0;
  filter.variables = (kinds & (kOperandSymbol | kOperandAny)) != 0;
  filter.expectedType = predicatesOnly ? spellingOf(Modifier::Pred) : expectedType;
  filter.relax = relax;
  filter.onlyFitting = predicatesOnly;
  if (filter.registers || filter.variables) values(filter);
}

void Completer::callOperands(bool inParentheses) {
  if (inParentheses) {
    ValueFilter addressable;
    addressable.variables = true;
    values(addressable);
    return;
  }
  functions("0");
  values(ValueFilter{});
}

void Completer::components(std::string_view registerName) {
  for (std::string_view component : specialRegisterComponents(registerName)) {
    add(makeItem(component, CompletionKind::SpecialRegister, concat(registerName, component),
                 hoverMarkdown(registerName).value_or(""), concat("0", component)));
  }
}

std::vector<Decl> Completer::visibleDecls() const {
  std::vector<Decl> out;
  const Module& module = analysis_.module;
  if (start_ != 0 && !module.scopes.empty()) {
    for (SymbolId id : module.scopes[0].symbols) {
      if (id >= module.symbols.size()) continue;
      const Symbol& symbol = module.symbols[id];
      if (symbol.nameRange.begin >= start_) continue;  // The scan has seen it.
      Decl decl;
      decl.name = symbol.name;
      decl.space = symbol.space();
      decl.spaceId = symbol.spaceId;
      decl.type = symbol.type;
      decl.vectorWidth = symbol.vectorWidth;
      decl.rangeCount = symbol.rangeCount;
      decl.isEntry = symbol.isEntry;
      if (symbol.kind == SymbolKind::Function) {
        decl.kind = CompletionKind::Function;
      } else if (symbol.kind == SymbolKind::Variable) {
        decl.kind = CompletionKind::Variable;
      } else {
        continue;
      }
      out.push_back(decl);
    }
  }
  out.insert(out.end(), scan_->decls().begin(), scan_->decls().end());
  return out;
}

// Registers (a `%r<N>` range as its prefix), parameters and variables in scope, innermost
// first when names repeat; registers that fit `expectedType` rank first.
void Completer::values(const ValueFilter& filter) {
  std::vector<Decl> decls = visibleDecls();
  std::unordered_set<std::string_view> seen;
  for (auto it = decls.rbegin(); it != decls.rend(); ++it) {
    const Decl& decl = *it;
    bool isRegister = decl.kind == CompletionKind::Register || (decl.kind == CompletionKind::Parameter && decl.spaceId == Modifier::Reg);
    if (decl.kind == CompletionKind::Function || decl.kind == CompletionKind::Label) continue;
    if (isRegister ? !filter.registers : !filter.variables) continue;
    bool fits = registerTypeFits(filter.expectedType, decl.type, filter.relax);
    if (isRegister && filter.onlyFitting && !fits) continue;
    if (!seen.insert(decl.name).second) continue;
    CompletionItem item;
    item.label = std::string(decl.name);
    item.insertText = item.label;
    item.kind = isRegister ? CompletionKind::Register : decl.kind;
    std::string detail = typeDetail(decl);
    if (decl.rangeCount != 0) {
      detail += ' ';
      detail += decl.name;
      detail += '<';
      detail += std::to_string(decl.rangeCount);
      detail += '>';
    }
    item.detail = isRegister && decl.kind != CompletionKind::Parameter ? detail
                                                                         : concat(decl.space, " ", detail);
    if (isRegister) {
      item.sortText = concat(fits ? "1" : "3", item.label);
    } else {
      item.sortText = concat(decl.kind == CompletionKind::Parameter ? "2" : "4", item.label);
    }
    add(std::move(item));
  }
  if (filter.specialRegisters) addAll(specialRegisterItems());
}

void Completer::labels() {
  std::unordered_set<std::string_view> seen;
  for (const Decl& label : scan_->labels()) {
    if (!seen.insert(label.name).second) continue;
    add(makeItem(label.name, CompletionKind::Label, "label", "", concat("0", label.name)));
  }
}

void Completer::functions(std::string_view rank) {
  std::unordered_set<std::string_view> seen;
  for (const Decl& decl : visibleDecls()) {
    if (decl.kind != CompletionKind::Function || !seen.insert(decl.name).second) continue;
    add(makeItem(decl.name, CompletionKind::Function, std::string(spellingOf(decl.isEntry ? Modifier::Entry : Modifier::Func)), "",
                 concat(rank, decl.name)));
  }
}

}  // namespace

std::vector<CompletionItem> completeAt(std::string_view text, const LintResult& analysis, std::uint32_t offset) {
  if (text.size() >= UINT32_MAX) return {};
  return Completer(text, analysis, clampOffset(text, offset)).run();
}

std::optional<InstructionAtCursor> instructionAtCursor(std::string_view text, std::uint32_t offset) {
  if (text.size() >= UINT32_MAX) return std::nullopt;
  std::uint32_t cursor = clampOffset(text, offset);
  Scanner scan(text, scanStart(text, cursor), cursor);
  scan.runToCursor();
  if (scan.inert()) return std::nullopt;
  const std::vector<Token>& statement = scan.statement();
  std::size_t i = 0;
  if (!statement.empty() && scan.slice(statement[0]) == "@") {
    i = 1;
    if (i < statement.size() && scan.slice(statement[i]) == "!") ++i;
    ++i;  // The predicate.
  }
  if (i >= statement.size() || statement[i].kind != TokenKind::Word) return std::nullopt;
  InstructionAtCursor out;
  out.opcode = scan.slice(statement[i]);
  out.opcodeRange = ByteRange{statement[i].begin, statement[i].end};
  std::uint32_t chainEnd = statement[i].end;
  std::size_t j = i + 1;
  for (; j < statement.size() && statement[j].kind == TokenKind::Dotted && statement[j].begin == chainEnd; ++j) {
    out.modifiers.push_back(scan.slice(statement[j]));
    chainEnd = statement[j].end;
  }
  const Token& word = scan.word();
  // Still in the spelling (`add.s3|`): no operands yet.
  if (j == statement.size() && word.kind != TokenKind::End && word.begin == chainEnd) return out;
  if (j == statement.size() && cursor == chainEnd) return out;
  out.inOperands = true;
  int depth = 0;
  int brackets = 0;
  for (std::size_t k = j; k < statement.size(); ++k) {
    if (statement[k].kind != TokenKind::Punct) continue;
    char c = text[statement[k].begin];
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') depth = std::max(depth - 1, 0);
    if (c == '[') ++brackets;
    if (c == ']') brackets = std::max(brackets - 1, 0);
    if (c == ',' && depth == 0) ++out.operandIndex;
  }
  out.inAddress = brackets > 0;
  return out;
}

}  // namespace ptx::lsp
