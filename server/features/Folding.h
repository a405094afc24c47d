// Folding: the foldable regions of a document — function bodies and nested blocks,
// parameter lists, multi-line initializers and runs of comment lines.
#pragma once

#include <cstdint>
#include <vector>

#include "syntax/SyntaxTree.h"
#include "text/LineIndex.h"

namespace ptx::lsp {

struct FoldingRegion {
  std::uint32_t startLine = 0;  // 0-based.
  std::uint32_t endLine = 0;
  bool isComment = false;
};

std::vector<FoldingRegion> foldingRegions(const SyntaxTree& tree, const LineIndex& lines);

}  // namespace ptx::lsp
