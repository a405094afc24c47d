// CudaOutline implementation: one iterative pre-order walk with a tree cursor, symbols
// classified once per language by name (aliases give several symbols one name).
#include "cuda/CudaOutline.h"

#include <algorithm>
#include <future>
#include <unordered_map>

namespace ptx::cuda {
namespace {

enum class Kind : std::uint8_t {
  Other,
  FunctionDefinition,
  Lambda,
  TemplateDeclaration,
  For,
  RangeFor,
  While,
  DoWhile,
  Call,
  Asm,
  Error,
  Name,  // identifier, field_identifier, type_identifier, namespace_identifier, operator_name, destructor_name
  QualifiedIdentifier,
  TemplateName,  // template_function, template_method, template_type
  FieldExpression,
  DependentName,
  FunctionDeclarator,
  KernelCallSyntax,
  Specifier,  // storage_class_specifier, type_qualifier: qualifier bits from their text
  AttributeSpecifier,
  Opaque,  // Literals, comments, directives without code: nothing inside matters; not entered.
  PreprocConditional,  // preproc_if, preproc_elif: its condition is not entered.
};

struct Grammar {
  std::vector<Kind> kinds;                 // By symbol.
  std::vector<std::uint16_t> tokenBits;    // By symbol: anonymous qualifier tokens (`__global__`).
  TSFieldId body = 0, declarator = 0, name = 0, field = 0, function = 0, condition = 0, captures = 0,
            templateParameters = 0;

  static const Grammar& get() {
    static const Grammar grammar;
    return grammar;
  }

 private:
  Grammar() {
    const TSLanguage* language = cudaLanguage();
    static const std::unordered_map<std::string_view, Kind> kNamed = {
        {"function_definition", Kind::FunctionDefinition},
        {"lambda_expression", Kind::Lambda},
        {"template_declaration", Kind::TemplateDeclaration},
        {"for_statement", Kind::For},
        {"for_range_loop", Kind::RangeFor},
        {"while_statement", Kind::While},
        {"do_statement", Kind::DoWhile},
        {"call_expression", Kind::Call},
        {"gnu_asm_expression", Kind::Asm},
        {"identifier", Kind::Name},
        {"field_identifier", Kind::Name},
        {"type_identifier", Kind::Name},
        {"namespace_identifier", Kind::Name},
        {"operator_name", Kind::Name},
        {"destructor_name", Kind::Name},
        {"qualified_identifier", Kind::QualifiedIdentifier},
        {"template_function", Kind::TemplateName},
        {"template_method", Kind::TemplateName},
        {"template_type", Kind::TemplateName},
        {"field_expression", Kind::FieldExpression},
        {"dependent_name", Kind::DependentName},
        {"function_declarator", Kind::FunctionDeclarator},
        {"kernel_call_syntax", Kind::KernelCallSyntax},
        {"storage_class_specifier", Kind::Specifier},
        {"type_qualifier", Kind::Specifier},
        {"attribute_specifier", Kind::AttributeSpecifier},
        {"string_literal", Kind::Opaque},
        {"raw_string_literal", Kind::Opaque},
        {"char_literal", Kind::Opaque},
        {"number_literal", Kind::Opaque},
        {"comment", Kind::Opaque},
        {"preproc_def", Kind::Opaque},
        {"preproc_function_def", Kind::Opaque},
        {"preproc_call", Kind::Opaque},
        {"preproc_include", Kind::Opaque},
        {"preproc_if", Kind::PreprocConditional},
        {"preproc_elif", Kind::PreprocConditional},
        // Compile-time only: calls there run in the compiler (a constexpr function, a default
        // template argument), not on the device; and parameter lists, whose default arguments
        // the callers evaluate.
        {"template_parameter_list", Kind::Opaque},
        {"template_argument_list", Kind::Opaque},
        {"static_assert_declaration", Kind::Opaque},
        {"sizeof_expression", Kind::Opaque},
        {"alignof_expression", Kind::Opaque},
        {"decltype", Kind::Opaque},
        {"type_descriptor", Kind::Opaque},
        {"parameter_list", Kind::Opaque},
    };
    std::uint32_t count = ts_language_symbol_count(language);
    kinds.assign(count, Kind::Other);
    tokenBits.assign(count, 0);
    for (TSSymbol symbol = 0; symbol < count; ++symbol) {
      std::string_view spelled = ts_language_symbol_name(language, symbol);
      TSSymbolType type = ts_language_symbol_type(language, symbol);
      if (type == TSSymbolTypeRegular) {
        if (auto it = kNamed.find(spelled); it != kNamed.end()) kinds[symbol] = it->second;
      } else if (type == TSSymbolTypeAnonymous) {
        tokenBits[symbol] = qualifierBitsOfWord(spelled);
      }
    }
    auto fieldId = [&](std::string_view fieldName) {
      return ts_language_field_id_for_name(language, fieldName.data(), static_cast<std::uint32_t>(fieldName.size()));
    };
    body = fieldId("body");
    declarator = fieldId("declarator");
    name = fieldId("name");
    field = fieldId("field");
    function = fieldId("function");
    condition = fieldId("condition");
    captures = fieldId("captures");
    templateParameters = fieldId("template_parameters");
  }
};

ByteRange rangeOf(TSNode node) { return {ts_node_start_byte(node), ts_node_end_byte(node)}; }

std::string_view textOf(std::string_view text, TSNode node) {
  std::uint32_t begin = std::min<std::uint32_t>(ts_node_start_byte(node), static_cast<std::uint32_t>(text.size()));
  std::uint32_t end = std::min<std::uint32_t>(ts_node_end_byte(node), static_cast<std::uint32_t>(text.size()));
  return text.substr(begin, end - begin);
}

// tree-sitter's ERROR symbol (ts_builtin_sym_error), outside the language's own symbols.
constexpr TSSymbol kErrorSymbol = static_cast<TSSymbol>(-1);

Kind kindOf(const Grammar& grammar, TSNode node) {
  TSSymbol symbol = ts_node_symbol(node);
  if (symbol == kErrorSymbol) return Kind::Error;
  return symbol < grammar.kinds.size() ? grammar.kinds[symbol] : Kind::Other;
}

// The last identifier of a name or callee expression, template arguments stripped.
TSNode lastIdentifier(const Grammar& grammar, TSNode node) {
  for (int step = 0; step < 64 && !ts_node_is_null(node); ++step) {
    switch (kindOf(grammar, node)) {
      case Kind::Name:
        return node;
      case Kind::QualifiedIdentifier:
      case Kind::TemplateName:
        node = ts_node_child_by_field_id(node, grammar.name);
        break;
      case Kind::FieldExpression:
        node = ts_node_child_by_field_id(node, grammar.field);
        break;
      case Kind::DependentName:
        node = ts_node_named_child(node, 0);
        break;
      default:
        return TSNode{};
    }
  }
  return TSNode{};
}

// The declarator naming a function definition: through pointer, reference, attributed and
// parenthesized declarators down to the function_declarator's own declarator.
TSNode functionNameNode(const Grammar& grammar, TSNode definition) {
  TSNode node = ts_node_child_by_field_id(definition, grammar.declarator);
  for (int step = 0; step < 64 && !ts_node_is_null(node); ++step) {
    if (kindOf(grammar, node) == Kind::FunctionDeclarator) return ts_node_child_by_field_id(node, grammar.declarator);
    TSNode inner = ts_node_child_by_field_id(node, grammar.declarator);
    node = ts_node_is_null(inner) ? ts_node_named_child(node, 0) : inner;
  }
  return TSNode{};
}

std::uint16_t attributeBits(std::string_view text) {
  std::uint16_t bits = 0;
  if (text.find("always_inline") != std::string_view::npos) bits |= kQualForceInline;
  if (text.find("noinline") != std::string_view::npos) bits |= kQualNoinline;
  return bits;
}

// Qualifier words inside an ERROR node (the grammar failed on them; `[&] __device__ (...)`
// without the parser's view): its leaves, read as words.
std::uint16_t errorBits(std::string_view text, TSNode error) {
  std::uint16_t bits = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(error);
  std::uint32_t depth = 0;
  while (true) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    if (ts_node_child_count(node) == 0) bits |= qualifierBitsOfWord(textOf(text, node));
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      ++depth;
      continue;
    }
    bool moved = false;
    while (depth > 0 && !(moved = ts_tree_cursor_goto_next_sibling(&cursor))) {
      ts_tree_cursor_goto_parent(&cursor);
      --depth;
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
  return bits;
}

void applyBits(CudaFunction& function, std::uint16_t bits) {
  function.isKernel |= (bits & kQualGlobal) != 0;
  function.isDevice |= (bits & kQualDevice) != 0;
  function.isHost |= (bits & kQualHost) != 0;
  function.isForceInline |= (bits & kQualForceInline) != 0;
  function.isInline |= (bits & kQualInline) != 0;
  function.isNoinline |= (bits & kQualNoinline) != 0;
  function.isConstexpr |= (bits & kQualConstexpr) != 0;
  function.isStatic |= (bits & kQualStatic) != 0;
}

// The parser's view changes inside [begin, end) that stood for qualifiers.
template <typename F>
void forEachQualifierChange(std::span<const ViewChange> changes, std::uint32_t begin, std::uint32_t end, F&& visit) {
  auto it = std::lower_bound(changes.begin(), changes.end(), begin,
                             [](const ViewChange& change, std::uint32_t offset) { return change.range.begin < offset; });
  for (; it != changes.end() && it->range.begin < end; ++it) {
    if (it->kind == ViewKind::QualifierMacro || it->kind == ViewKind::LambdaQualifier) visit(*it);
  }
}

class OutlineWalker {
 public:
  OutlineWalker(const CudaSyntaxTree& tree, std::string_view text)
      : grammar_(Grammar::get()), text_(text), changes_(tree.viewChanges()) {}

  // `textBegin`: where the parsed bytes begin (the root node starts at its first token, after
  // any qualifier macro the view blanked).
  CudaOutline run(TSNode root, std::uint32_t textBegin) {
    if (ts_node_is_null(root)) return std::move(outline_);
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    // Per depth: where the gap before the current node starts (the previous sibling's end, or
    // the parent's start), and what entering the node pushed.
    std::vector<std::uint32_t> gapStart{std::min(textBegin, ts_node_start_byte(root))};
    // Per depth: the parent's kind (a preprocessor conditional's condition is no code).
    std::vector<Kind> parents{Kind::Other};
    bool descend = true;  // Into the current node.
    auto visit = [&](TSNode next) {
      bool condition = parents.back() == Kind::PreprocConditional &&
                       ts_tree_cursor_current_field_id(&cursor) == grammar_.condition;
      descend = !condition && kindOf(grammar_, next) != Kind::Opaque;
      return condition ? Pushed::Nothing : enter(next, gapStart.back());
    };
    std::vector<Pushed> pushed{visit(root)};
    TSNode node = root;
    while (true) {
      if (descend && ts_tree_cursor_goto_first_child(&cursor)) {
        gapStart.push_back(gapStart.size() == 1 ? gapStart.front() : ts_node_start_byte(node));
        parents.push_back(kindOf(grammar_, node));
        node = ts_tree_cursor_current_node(&cursor);
        pushed.push_back(visit(node));
        continue;
      }
      bool done = false;
      while (true) {
        exit(pushed.back());
        pushed.pop_back();
        gapStart.back() = ts_node_end_byte(node);
        if (ts_tree_cursor_goto_next_sibling(&cursor)) {
          node = ts_tree_cursor_current_node(&cursor);
          pushed.push_back(visit(node));
          break;
        }
        if (!ts_tree_cursor_goto_parent(&cursor)) {
          done = true;
          break;
        }
        parents.pop_back();
        gapStart.pop_back();
        node = ts_tree_cursor_current_node(&cursor);
      }
      if (done) break;
    }
    ts_tree_cursor_delete(&cursor);
    return std::move(outline_);
  }

 private:
  enum class Pushed : std::uint8_t { Nothing, Function, Loop, Template };

  std::int32_t currentFunction() const { return functionStack_.empty() ? kNoIndex : functionStack_.back(); }

  // The innermost open loop, and the innermost open loop of the current function.
  std::int32_t outerLoop() const { return loopStack_.empty() ? kNoIndex : loopStack_.back(); }
  std::int32_t sameFunctionLoop() const {
    std::int32_t loop = outerLoop();
    return loop != kNoIndex && outline_.loops[loop].function == currentFunction() ? loop : kNoIndex;
  }

  Pushed enter(TSNode node, std::uint32_t gapStart) {
    switch (kindOf(grammar_, node)) {
      case Kind::FunctionDefinition:
        return enterFunction(node, gapStart);
      case Kind::Lambda:
        return enterLambda(node);
      case Kind::TemplateDeclaration:
        ++templateDepth_;
        return Pushed::Template;
      case Kind::For:
        return enterLoop(node, CudaLoopKind::For);
      case Kind::RangeFor:
        return enterLoop(node, CudaLoopKind::RangeFor);
      case Kind::While:
        return enterLoop(node, CudaLoopKind::While);
      case Kind::DoWhile:
        return enterLoop(node, CudaLoopKind::DoWhile);
      case Kind::Call:
        addCall(node);
        return Pushed::Nothing;
      case Kind::Asm:
        outline_.asms.push_back({rangeOf(node), currentFunction(), sameFunctionLoop()});
        return Pushed::Nothing;
      default:
        return Pushed::Nothing;
    }
  }

  void exit(Pushed pushed) {
    switch (pushed) {
      case Pushed::Function:
        functionStack_.pop_back();
        break;
      case Pushed::Loop:
        loopStack_.pop_back();
        break;
      case Pushed::Template:
        --templateDepth_;
        break;
      case Pushed::Nothing:
        break;
    }
  }

  CudaFunction newFunction(TSNode node, TSNode body) {
    CudaFunction function;
    function.range = rangeOf(node);
    function.body = rangeOf(body);
    function.parent = currentFunction();
    function.isTemplate =
        templateDepth_ > 0 || (function.parent != kNoIndex && outline_.functions[function.parent].isTemplate);
    return function;
  }

  Pushed push(CudaFunction function) {
    functionStack_.push_back(static_cast<std::int32_t>(outline_.functions.size()));
    outline_.functions.push_back(std::move(function));
    return Pushed::Function;
  }

  Pushed enterFunction(TSNode node, std::uint32_t gapStart) {
    TSNode body = ts_node_child_by_field_id(node, grammar_.body);
    if (ts_node_is_null(body)) return Pushed::Nothing;  // `= default`, `= delete`.
    CudaFunction function = newFunction(node, body);
    // The specifiers: the definition's children before its declarator.
    TSNode declarator = ts_node_child_by_field_id(node, grammar_.declarator);
    std::uint32_t headEnd = ts_node_is_null(declarator) ? ts_node_start_byte(body) : ts_node_start_byte(declarator);
    std::uint16_t bits = 0;
    TSTreeCursor cursor = ts_tree_cursor_new(node);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        if (ts_node_start_byte(child) >= headEnd) break;
        TSSymbol symbol = ts_node_symbol(child);
        if (symbol < grammar_.tokenBits.size()) bits |= grammar_.tokenBits[symbol];
        switch (kindOf(grammar_, child)) {
          case Kind::Specifier:
            bits |= qualifierBitsOfWord(textOf(text_, child));
            break;
          case Kind::AttributeSpecifier:
            bits |= attributeBits(textOf(text_, child));
            break;
          case Kind::Error:
            bits |= errorBits(text_, child);
            break;
          default:
            break;
        }
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    // Qualifier macros the view blanked in front of the declarator (some before the node).
    forEachQualifierChange(changes_, gapStart, headEnd, [&](const ViewChange& change) {
      bits |= change.qualifiers;
      if (change.kind == ViewKind::QualifierMacro) {
        function.range.begin = std::min(function.range.begin, change.range.begin);
      }
    });
    applyBits(function, bits);
    TSNode name = functionNameNode(grammar_, node);
    if (!ts_node_is_null(name)) {
      function.name = std::string(textOf(text_, name));
      function.nameRange = rangeOf(name);
      TSNode simple = lastIdentifier(grammar_, name);
      if (!ts_node_is_null(simple)) function.simpleName = std::string(textOf(text_, simple));
    }
    return push(std::move(function));
  }

  Pushed enterLambda(TSNode node) {
    TSNode body = ts_node_child_by_field_id(node, grammar_.body);
    if (ts_node_is_null(body)) return Pushed::Nothing;
    CudaFunction function = newFunction(node, body);
    function.isLambda = true;
    if (!ts_node_is_null(ts_node_child_by_field_id(node, grammar_.templateParameters))) function.isTemplate = true;
    // `__device__` after the captures: blanked by the view, or an ERROR child without it.
    TSNode captures = ts_node_child_by_field_id(node, grammar_.captures);
    std::uint32_t from = ts_node_is_null(captures) ? ts_node_start_byte(node) : ts_node_end_byte(captures);
    std::uint16_t bits = 0;
    forEachQualifierChange(changes_, from, ts_node_start_byte(body),
                           [&](const ViewChange& change) { bits |= change.qualifiers; });
    TSTreeCursor cursor = ts_tree_cursor_new(node);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        if (kindOf(grammar_, child) == Kind::Error) bits |= errorBits(text_, child);
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    applyBits(function, bits);
    return push(std::move(function));
  }

  Pushed enterLoop(TSNode node, CudaLoopKind kind) {
    CudaLoop loop;
    loop.kind = kind;
    loop.range = rangeOf(node);
    TSNode body = ts_node_child_by_field_id(node, grammar_.body);
    if (!ts_node_is_null(body)) loop.body = rangeOf(body);
    TSNode condition = ts_node_child_by_field_id(node, grammar_.condition);
    if (!ts_node_is_null(condition) && kind != CudaLoopKind::RangeFor) loop.condition = conditionRange(condition);
    if (loop.condition.end < loop.condition.begin) loop.condition = {};
    loop.function = currentFunction();
    loop.parent = sameFunctionLoop();
    loop.outer = outerLoop();
    loopStack_.push_back(static_cast<std::int32_t>(outline_.loops.size()));
    outline_.loops.push_back(loop);
    return Pushed::Loop;
  }

  // A while's condition_clause and a do's parenthesized_expression hold their parentheses.
  ByteRange conditionRange(TSNode condition) {
    std::uint32_t count = ts_node_child_count(condition);
    if (count >= 2) {
      TSNode open = ts_node_child(condition, 0);
      TSNode close = ts_node_child(condition, count - 1);
      if (!ts_node_is_named(open) && textOf(text_, open) == "(" && !ts_node_is_named(close) &&
          textOf(text_, close) == ")") {
        return {ts_node_end_byte(open), ts_node_start_byte(close)};
      }
    }
    return rangeOf(condition);
  }

  void addCall(TSNode node) {
    TSNode callee = ts_node_child_by_field_id(node, grammar_.function);
    if (ts_node_is_null(callee)) return;
    TSNode name = lastIdentifier(grammar_, callee);
    if (ts_node_is_null(name)) return;
    CudaCall call;
    call.callee = std::string(textOf(text_, name));
    call.range = rangeOf(node);
    call.calleeRange = rangeOf(callee);
    call.function = currentFunction();
    std::uint32_t count = ts_node_named_child_count(node);
    for (std::uint32_t k = 0; k < count && !call.isKernelLaunch; ++k) {
      call.isKernelLaunch = kindOf(grammar_, ts_node_named_child(node, k)) == Kind::KernelCallSyntax;
    }
    outline_.calls.push_back(std::move(call));
  }

  const Grammar& grammar_;
  std::string_view text_;
  std::span<const ViewChange> changes_;
  CudaOutline outline_;
  std::vector<std::int32_t> functionStack_;
  std::vector<std::int32_t> loopStack_;
  int templateDepth_ = 0;
};

}  // namespace

std::int32_t CudaOutline::enclosingFunction(std::uint32_t offset) const {
  auto after = std::upper_bound(functions.begin(), functions.end(), offset,
                                [](std::uint32_t o, const CudaFunction& f) { return o < f.range.begin; });
  auto index = static_cast<std::int32_t>(after - functions.begin()) - 1;
  // Ranges nest, so the innermost one holding the offset encloses the last one starting
  // before it (or is it).
  while (index != kNoIndex && offset >= functions[index].range.end) index = functions[index].parent;
  return index;
}

std::vector<std::int32_t> CudaOutline::enclosingLoops(std::uint32_t offset) const {
  std::vector<std::int32_t> result;
  std::int32_t function = enclosingFunction(offset);
  auto after = std::upper_bound(loops.begin(), loops.end(), offset,
                                [](std::uint32_t o, const CudaLoop& l) { return o < l.range.begin; });
  auto index = static_cast<std::int32_t>(after - loops.begin()) - 1;
  for (; index != kNoIndex; index = loops[index].outer) {
    const CudaLoop& loop = loops[index];
    if (offset < loop.range.end && loop.function == function) result.push_back(index);
  }
  return result;
}

CudaOutline outlineOf(const CudaSyntaxTree& tree, std::string_view text) {
  return OutlineWalker(tree, text).run(tree.root(), 0);
}

namespace {

// Appends an outline of the text after `into`'s (its indices shifted past `into`'s lists).
void append(CudaOutline& into, CudaOutline&& next) {
  const auto functions = static_cast<std::int32_t>(into.functions.size());
  const auto loops = static_cast<std::int32_t>(into.loops.size());
  auto shift = [](std::int32_t& index, std::int32_t by) {
    if (index != kNoIndex) index += by;
  };
  for (CudaFunction& function : next.functions) {
    shift(function.parent, functions);
    into.functions.push_back(std::move(function));
  }
  for (CudaLoop& loop : next.loops) {
    shift(loop.function, functions);
    shift(loop.parent, loops);
    shift(loop.outer, loops);
    into.loops.push_back(loop);
  }
  for (CudaCall& call : next.calls) {
    shift(call.function, functions);
    into.calls.push_back(std::move(call));
  }
  for (CudaAsm& statement : next.asms) {
    shift(statement.function, functions);
    shift(statement.loop, loops);
    into.asms.push_back(statement);
  }
}

}  // namespace

CudaOutline outlineOfText(std::string_view text, unsigned threads, std::size_t minPieceBytes) {
  const std::size_t count =
      std::max<std::size_t>(1, std::min<std::size_t>(threads, text.size() / std::max<std::size_t>(1, minPieceBytes)));
  CudaTextPieces pieces(text, count);
  auto outlinePiece = [&](std::size_t k) {
    CudaSyntaxTree tree = pieces.parse(k);
    return OutlineWalker(tree, text).run(tree.root(), pieces.extent(k).begin);
  };
  // This thread takes the first piece; the others run beside it.
  std::vector<std::future<CudaOutline>> others;
  for (std::size_t k = 1; k < pieces.size(); ++k) others.push_back(std::async(std::launch::async, outlinePiece, k));
  CudaOutline outline = outlinePiece(0);
  for (auto& other : others) append(outline, other.get());
  return outline;
}

std::vector<std::int32_t> kernelsOf(const CudaOutline& outline) {
  std::vector<std::int32_t> kernels;
  for (std::size_t k = 0; k < outline.functions.size(); ++k) {
    if (outline.functions[k].isKernel) kernels.push_back(static_cast<std::int32_t>(k));
  }
  return kernels;
}

std::vector<bool> reachableFrom(const CudaOutline& outline, std::span<const std::int32_t> roots) {
  const std::size_t count = outline.functions.size();
  std::unordered_map<std::string_view, std::vector<std::int32_t>> byName;
  for (std::size_t k = 0; k < count; ++k) {
    const std::string& name = outline.functions[k].simpleName;
    if (!name.empty()) byName[name].push_back(static_cast<std::int32_t>(k));
  }
  // Edges: a function to the functions its calls name, and to the functions defined inside it.
  std::vector<std::vector<std::int32_t>> edges(count);
  for (const CudaCall& call : outline.calls) {
    if (call.function == kNoIndex) continue;
    if (auto it = byName.find(call.callee); it != byName.end()) {
      auto& out = edges[call.function];
      out.insert(out.end(), it->second.begin(), it->second.end());
    }
  }
  for (std::size_t k = 0; k < count; ++k) {
    if (outline.functions[k].parent != kNoIndex) edges[outline.functions[k].parent].push_back(static_cast<std::int32_t>(k));
  }
  std::vector<bool> reached(count, false);
  std::vector<std::int32_t> work;
  for (std::int32_t root : roots) {
    if (root >= 0 && static_cast<std::size_t>(root) < count && !reached[root]) {
      reached[root] = true;
      work.push_back(root);
    }
  }
  while (!work.empty()) {
    std::int32_t next = work.back();
    work.pop_back();
    for (std::int32_t target : edges[next]) {
      if (!reached[target]) {
        reached[target] = true;
        work.push_back(target);
      }
    }
  }
  return reached;
}

}  // namespace ptx::cuda
