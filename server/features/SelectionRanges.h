// SelectionRanges: the ranges "expand selection" steps through from a position — the word,
// its operand, the statement, the block, the function and the file — for
// `textDocument/selectionRange`.
#pragma once

#include <cstdint>
#include <vector>

#include "diag/Diagnostic.h"
#include "syntax/SyntaxTree.h"

namespace ptx::lsp {

// The distinct ranges of the syntax nodes enclosing `offset`, innermost first; the empty
// range at `offset` alone when the tree has no node there.
std::vector<ByteRange> selectionChain(const SyntaxTree& tree, std::uint32_t offset);

}  // namespace ptx::lsp
