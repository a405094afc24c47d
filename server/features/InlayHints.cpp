// InlayHints: the model's instructions in the range, found by binary search, with calls read
// from their tree nodes (the model does not record call operands).
#include "features/InlayHints.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <unordered_map>

#include "syntax/SyntaxKinds.h"
#include "syntax/TreeWalk.h"

namespace ptx::lsp {
namespace {

std::string_view slice(std::string_view text, ByteRange range) {
  range.end = std::min<std::uint32_t>(range.end, static_cast<std::uint32_t>(text.size()));
  range.begin = std::min(range.begin, range.end);
  return text.substr(range.begin, range.end - range.begin);
}

// Whether a type holds bits or integers (.b32, .u16, .s64), and whether it is floating-point
// (.f32, .f16x2, .bf16, .e4m3 ...), from the type's own facts.
bool isBitsOrInteger(Modifier type) {
  TypeClass named = infoOf(type).typeClass;
  return named == TypeClass::Bits || named == TypeClass::Unsigned || named == TypeClass::Signed;
}
bool isFloat(Modifier type) { return infoOf(type).typeClass == TypeClass::Float; }

// The parameter names of a signature, by position; empty where a parameter is unnamed or `_`.
struct Signature {
  std::vector<std::string_view> returns;
  std::vector<std::string_view> parameters;
};

// Whether a hint would only repeat the argument: the names agree once case, `_` and `%` are
// ignored and the parameter's name may carry a prefix (nvcc passes `retval0` for
// `func_retval0`).
bool repeatsArgument(std::string_view parameter, std::string_view argument) {
  auto normalize = [](std::string_view name) {
    std::string out;
    for (char c : name) {
      if (c != '_' && c != '%') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return out;
  };
  std::string p = normalize(parameter);
  std::string a = normalize(argument);
  return !a.empty() && p.ends_with(a);
}

class HintCollector {
 public:
  HintCollector(std::string_view text, const LintResult& analysis, ByteRange range)
      : text_(text), analysis_(analysis), module_(analysis.module), range_(range), kinds_(syntaxKinds()) {}

  std::vector<InlayHint> run() {
    const std::vector<InstructionSite>& sites = module_.instructions;
    // Sites are in source order and do not overlap, so their ends are sorted too.
    auto first = std::lower_bound(sites.begin(), sites.end(), range_.begin,
                                  [](const InstructionSite& site, std::uint32_t at) { return site.statement.end < at; });
    for (auto site = first; site != sites.end() && site->statement.begin <= range_.end; ++site) {
      if (site->inDamagedCode) continue;
      if (site->isCall) {
        callHints(*site);
      } else {
        typeHints(*site);
      }
    }
    std::stable_sort(hints_.begin(), hints_.end(),
                     [](const InlayHint& a, const InlayHint& b) { return a.offset < b.offset; });
    return std::move(hints_);
  }

 private:
  void add(std::uint32_t offset, std::string label, InlayHintKind kind, bool paddingRight) {
    if (offset < range_.begin || offset > range_.end) return;
    hints_.push_back({offset, std::move(label), kind, false, paddingRight});
  }

  // ── Call parameter names ─────────────────────────────────────────────────────────────

  void callHints(const InstructionSite& site) {
    TSNode root = analysis_.tree.root();
    if (ts_node_is_null(root)) return;
    if (argumentsField_ == 0) {
      // Fields the shared SyntaxKinds table does not carry.
      const TSLanguage* language = ts_tree_language(analysis_.tree.raw());
      argumentsField_ = ts_language_field_id_for_name(language, "arguments", 9);
      argumentField_ = ts_language_field_id_for_name(language, "argument", 8);
    }
    TSNode call = ts_node_descendant_for_byte_range(root, site.statement.begin, site.statement.end);
    if (ts_node_is_null(call) || ts_node_symbol(call) != kinds_.callInstruction) return;
    const SyntaxFields& fields = kinds_.fields;
    TSNode callee{};
    std::vector<TSNode> returns;
    std::vector<TSNode> arguments;
    forEachChild(call, [&](TSNode part, TSFieldId field) {
      if (field == fields.callee) callee = part;
      if (field == fields.returns) {
        forEachChild(part, [&](TSNode value, TSFieldId valueField) {
          if (valueField == fields.value) returns.push_back(value);
        });
      }
      if (field == argumentsField_) {
        forEachChild(part, [&](TSNode argument, TSFieldId argumentField) {
          if (argumentField == argumentField_) arguments.push_back(argument);
        });
      }
    });
    if (ts_node_is_null(callee)) return;
    // Indirect calls (through a register and a `.callprototype`) are left out: prototypes
    // almost always name their parameters `_`.
    SymbolId target = module_.symbolAt(ts_node_start_byte(callee));
    if (target == kNoSymbol || module_.symbols[target].kind != SymbolKind::Function) return;
    const Signature* signature = signatureOf(module_.symbols[target].name);
    if (signature == nullptr) return;
    std::string_view calleeName = module_.symbols[target].name;
    nameHints(returns, signature->returns, calleeName);
    nameHints(arguments, signature->parameters, calleeName);
  }

  void nameHints(const std::vector<TSNode>& values, const std::vector<std::string_view>& names,
                 std::string_view calleeName) {
    for (std::size_t i = 0; i < values.size() && i < names.size(); ++i) {
      std::string_view name = names[i];
      // Compilers name parameters after their function (`_Z3addii_param_0`,
      // `__cudaparmf1_strcmp`): such a name says no more than the argument's position.
      if (!calleeName.empty() && name.find(calleeName) != std::string_view::npos) continue;
      if (name.empty() || name == "_") continue;
      ByteRange value = rangeOf(values[i]);
      if (repeatsArgument(name, slice(text_, value))) continue;
      add(value.begin, std::string(name) + ":", InlayHintKind::Parameter, true);
    }
  }

  // The signature of the function named `name`, read from its definition when it has one (a
  // prototype may leave its parameters unnamed). Computed once per function per request.
  const Signature* signatureOf(std::string_view name) {
    if (!functionsIndexed_) {
      // Bounded by the number of functions, not the size of the file.
      for (const FunctionInfo& function : module_.functions) {
        if (function.symbol == kNoSymbol) continue;
        const Symbol& symbol = module_.symbols[function.symbol];
        auto [entry, inserted] = bestDeclaration_.try_emplace(symbol.name, function.symbol);
        if (!inserted && symbol.hasBody && !module_.symbols[entry->second].hasBody) entry->second = function.symbol;
      }
      functionsIndexed_ = true;
    }
    auto best = bestDeclaration_.find(name);
    if (best == bestDeclaration_.end()) return nullptr;
    auto cached = signatures_.find(best->second);
    if (cached != signatures_.end()) return cached->second ? &*cached->second : nullptr;
    std::optional<Signature> signature = readSignature(module_.symbols[best->second].declarationRange);
    auto [entry, inserted] = signatures_.emplace(best->second, std::move(signature));
    return entry->second ? &*entry->second : nullptr;
  }

  std::optional<Signature> readSignature(ByteRange declaration) const {
    TSNode root = analysis_.tree.root();
    TSNode node = ts_node_descendant_for_byte_range(root, declaration.begin, declaration.end);
    if (ts_node_is_null(node)) return std::nullopt;
    TSSymbol symbol = ts_node_symbol(node);
    if (symbol != kinds_.functionDefinition && symbol != kinds_.functionDeclaration) return std::nullopt;
    const SyntaxFields& fields = kinds_.fields;
    Signature signature;
    forEachChild(node, [&](TSNode part, TSFieldId field) {
      if (field != fields.returns && field != fields.parameters) return;
      std::vector<std::string_view>& names = field == fields.returns ? signature.returns : signature.parameters;
      forEachChild(part, [&](TSNode parameter, TSFieldId) {
        if (ts_node_symbol(parameter) != kinds_.parameter) return;
        TSNode declarator = ts_node_child_by_field_id(parameter, fields.declarator);
        TSNode name = ts_node_is_null(declarator) ? TSNode{} : ts_node_child_by_field_id(declarator, fields.name);
        bool named = !ts_node_is_null(name) && ts_node_symbol(name) == kinds_.identifier;
        names.push_back(named ? slice(text_, rangeOf(name)) : std::string_view{});
      });
    });
    return signature;
  }

  // ── Reinterpreted register types ─────────────────────────────────────────────────────

  // Only a register declared floating-point is worth a hint: `.b` registers are untyped bit
  // containers (recent LLVM declares every float register `.b32`), and `.s`/`.u` registers
  // under a float type are an operand type error that the ISA rules report.
  void typeHints(const InstructionSite& site) {
    bool bitsOrIntegers = false, floats = false;  // What the instruction's type modifiers read.
    for (Modifier modifier : module_.factsOf(site).modifiers) {
      bitsOrIntegers = bitsOrIntegers || isBitsOrInteger(modifier);
      floats = floats || isFloat(modifier);
    }
    if (!bitsOrIntegers || floats) return;
    auto hintFloatRegister = [&](const InstructionOperand& operand) {
      if (operand.shape != OperandShape::Register || operand.symbol == kNoSymbol) return;
      const Symbol& reg = module_.symbols[operand.symbol];
      if (isFloat(reg.typeId)) add(operand.range.end, ": " + reg.type, InlayHintKind::Type, false);
    };
    for (std::uint32_t i = 0; i < site.operandCount; ++i) {
      const InstructionOperand& operand = module_.operands[site.firstOperand + i];
      if (operand.shape == OperandShape::Vector) {
        for (std::uint32_t k = 0; k < operand.elementCount; ++k) {
          hintFloatRegister(module_.operands[operand.firstElement + k]);
        }
      } else {
        hintFloatRegister(operand);
      }
    }
  }

  std::string_view text_;
  const LintResult& analysis_;
  const Module& module_;
  ByteRange range_;
  const SyntaxKinds& kinds_;
  std::vector<InlayHint> hints_;
  TSFieldId argumentsField_ = 0;
  TSFieldId argumentField_ = 0;
  bool functionsIndexed_ = false;
  std::unordered_map<std::string_view, SymbolId> bestDeclaration_;
  std::unordered_map<SymbolId, std::optional<Signature>> signatures_;
};

}  // namespace

std::vector<InlayHint> inlayHints(std::string_view text, const LintResult& analysis, ByteRange range) {
  if (analysis.module.scopes.empty()) return {};
  return HintCollector(text, analysis, range).run();
}

}  // namespace ptx::lsp
