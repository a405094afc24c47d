// DocumentSymbols: walks the model's functions and scopes.
#include "features/DocumentSymbols.h"

#include <algorithm>

namespace ptx::lsp {
namespace {

std::string detailOf(const Symbol& symbol) {
  std::string detail(symbol.space());
  if (!symbol.type.empty()) {
    if (!detail.empty()) detail += ' ';
    detail += symbol.type;
  }
  if (symbol.rangeCount != 0) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, a false positive) on "<" + string.
    detail += " <";
    detail += std::to_string(symbol.rangeCount);
    detail += '>';
  }
  return detail;
}

OutlineItem itemOf(const Symbol& symbol, OutlineKind kind) {
  std::string name = symbol.name;
  if (symbol.rangeCount != 0) {
    name += '<';
    name += std::to_string(symbol.rangeCount);
    name += '>';
  }
  return {std::move(name), detailOf(symbol), kind, symbol.declarationRange, symbol.nameRange, {}};
}

// Every scope whose chain of parents reaches `root`.
bool within(const Module& module, ScopeId scope, ScopeId root) {
  for (ScopeId s = scope; s != kNoScope; s = module.scopes[s].parent) {
    if (s == root) return true;
  }
  return false;
}

}  // namespace

std::vector<OutlineItem> documentOutline(const Module& module) {
  std::vector<OutlineItem> items;
  if (module.scopes.empty()) return items;
  for (SymbolId id : module.scopes[0].symbols) {
    const Symbol& symbol = module.symbols[id];
    if (symbol.kind == SymbolKind::Variable) items.push_back(itemOf(symbol, OutlineKind::Variable));
  }
  for (const FunctionInfo& function : module.functions) {
    if (function.symbol == kNoSymbol) continue;
    const Symbol& symbol = module.symbols[function.symbol];
    // A prototype followed by its definition: list the definition only.
    if (!symbol.hasBody && std::any_of(module.functions.begin(), module.functions.end(), [&](const FunctionInfo& f) {
          return f.symbol != kNoSymbol && module.symbols[f.symbol].hasBody && module.symbols[f.symbol].name == symbol.name;
        })) {
      continue;
    }
    OutlineItem item = itemOf(symbol, symbol.isEntry ? OutlineKind::Kernel : OutlineKind::Function);
    item.detail = std::string(spellingOf(symbol.isEntry ? Modifier::Entry : Modifier::Func));
    for (SymbolId parameter : function.returns) item.children.push_back(itemOf(module.symbols[parameter], OutlineKind::Parameter));
    for (SymbolId parameter : function.parameters) item.children.push_back(itemOf(module.symbols[parameter], OutlineKind::Parameter));
    if (function.bodyScope != kNoScope) {
      for (ScopeId scope = 0; scope < module.scopes.size(); ++scope) {
        if (!within(module, scope, function.bodyScope)) continue;
        for (SymbolId id : module.scopes[scope].symbols) {
          const Symbol& local = module.symbols[id];
          if (local.kind == SymbolKind::Parameter) continue;  // Listed above.
          item.children.push_back(itemOf(local, local.kind == SymbolKind::Register ? OutlineKind::Register : OutlineKind::Variable));
        }
        for (SymbolId id : module.scopes[scope].labels) item.children.push_back(itemOf(module.symbols[id], OutlineKind::Label));
      }
      std::sort(item.children.begin(), item.children.end(),
                [](const OutlineItem& a, const OutlineItem& b) { return a.selectionRange.begin < b.selectionRange.begin; });
    }
    items.push_back(std::move(item));
  }
  std::sort(items.begin(), items.end(),
            [](const OutlineItem& a, const OutlineItem& b) { return a.range.begin < b.range.begin; });
  return items;
}

}  // namespace ptx::lsp
