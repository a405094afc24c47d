// SEM004 undeclared-function
//
// What it does: reports a `call` whose callee is neither a function declared earlier in the
// module nor a register holding a function address.
//
// Why is this bad: ptxas needs the callee's prototype before the call ("Call to 'f' requires
// call prototype"); a function defined further down the file is not enough.
//
// Example:
//     call foo;              // foo is defined after this kernel
//
// Use instead:
//     .func foo();           // prototype at the top of the module
//     ...
//     call foo;
//
// Fix: when the function is defined later, copy its signature as a prototype in front of
// the function that makes the call.
//
// References: PTX ISA §7.1 (function declarations and definitions).
#include <algorithm>
#include <string>

#include "RuleContext.h"
#include "syntax/SyntaxKinds.h"

namespace ptx {
namespace {

// The signature of a function definition (linkage, kind, returns, name, parameters) as
// written, without its header directives and body; empty when the tree does not have it.
std::string_view signatureOf(const RuleContext& context, const Symbol& function) {
  TSNode root = context.tree.root();
  if (ts_node_is_null(root)) return {};
  const SyntaxKinds& kinds = syntaxKinds();
  TSNode node = ts_node_descendant_for_byte_range(root, function.nameRange.begin, function.nameRange.end);
  while (!ts_node_is_null(node) && ts_node_symbol(node) != kinds.functionDefinition) node = ts_node_parent(node);
  if (ts_node_is_null(node) || ts_node_has_error(node)) return {};
  std::uint32_t end = function.nameRange.end;
  TSNode parameters = ts_node_child_by_field_id(node, kinds.fields.parameters);
  if (!ts_node_is_null(parameters)) end = std::max(end, ts_node_end_byte(parameters));
  std::uint32_t begin = ts_node_start_byte(node);
  return context.text.substr(begin, end - begin);
}

// Inserts `.func ... name(...);` on its own lines before the function holding `offset`.
void attachPrototype(const RuleContext& context, const Symbol& function, std::uint32_t offset) {
  std::string_view signature = signatureOf(context, function);
  if (signature.empty()) return;
  const Module& module = context.module;
  for (const FunctionInfo& caller : module.functions) {
    if (caller.symbol == kNoSymbol || caller.bodyScope == kNoScope) continue;
    ByteRange range = module.scopes[caller.bodyScope].range;
    if (!(range.begin <= offset && offset < range.end)) continue;
    std::string prototype(signature);
    prototype += ";\n\n";
    context.attachFix(concat({"Declare '", function.name, "' before its use"}), {{{range.begin, range.begin}, std::move(prototype)}},
                      /*isPreferred=*/true);
    return;
  }
}

}  // namespace

void checkUndeclaredFunction(const RuleContext& context) {
  const Module& module = context.module;
  for (const Reference& reference : module.references) {
    if (reference.role != ReferenceRole::Callee || reference.target != kNoSymbol ||
        reference.inDamagedCode) {
      continue;
    }
    std::string_view name = context.textOf(reference.range);
    std::string message = "call to undeclared function '" + std::string(name) + "'";
    std::vector<RelatedInformation> related;
    const Symbol* later = nullptr;
    for (const Symbol& symbol : module.symbols) {
      if (symbol.kind == SymbolKind::Function && symbol.name == name) {
        message += "; it is defined later, so declare a prototype before the call";
        std::string note(1, '\'');
        note += name;
        note += "' is defined here";
        related.push_back({symbol.nameRange, std::move(note)});
        if (symbol.hasBody) later = &symbol;
        break;
      }
    }
    context.report("SEM004", reference.range, std::move(message), std::move(related));
    if (later != nullptr) attachPrototype(context, *later, reference.range.begin);
  }
}

}  // namespace ptx
