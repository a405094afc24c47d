// WorkspaceSymbols: kernels, functions and module-scope variables across several documents,
// fuzzy-matched against a query the way clangd does it: the query's characters must appear
// in the name in order, case-insensitively, and an exact match ranks above a prefix match,
// which ranks above a substring, which ranks above a scattered subsequence.
//
// The documents are plain (uri, module) pairs, so the caller decides where the modules come
// from: open documents today, files of the workspace folder later.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "features/DocumentSymbols.h"
#include "model/Module.h"

namespace ptx::lsp {

struct WorkspaceDocument {
  std::string uri;
  const Module* module = nullptr;  // Not owned; null documents are skipped.
};

struct WorkspaceSymbolMatch {
  std::string name;
  OutlineKind kind;    // Kernel, Function or Variable.
  std::string detail;  // ".entry", ".func", ".global .u32", ...
  std::string uri;     // The document's, as given.
  ByteRange range;           // The whole declaration, in that document's text.
  ByteRange selectionRange;  // The name.
};

// The symbols whose names match `query`, best first (ties: shorter names, then by uri and
// position), at most `limit` of them (0: no limit). An empty query matches every symbol, in
// document and source order. A function's prototype is left out when the same document
// defines it.
std::vector<WorkspaceSymbolMatch> workspaceSymbols(std::span<const WorkspaceDocument> documents, std::string_view query,
                                                   std::size_t limit);

}  // namespace ptx::lsp
