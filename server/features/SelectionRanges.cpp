// SelectionRanges: a walk up the tree from the smallest node at the offset.
#include "features/SelectionRanges.h"

namespace ptx::lsp {

std::vector<ByteRange> selectionChain(const SyntaxTree& tree, std::uint32_t offset) {
  std::vector<ByteRange> chain;
  TSNode root = tree.root();
  if (!ts_node_is_null(root)) {
    TSNode node = ts_node_descendant_for_byte_range(root, offset, offset);
    for (; !ts_node_is_null(node); node = ts_node_parent(node)) {
      ByteRange range{ts_node_start_byte(node), ts_node_end_byte(node)};
      // A node as wide as its child adds no step.
      if (chain.empty() || chain.back().begin != range.begin || chain.back().end != range.end) chain.push_back(range);
    }
  }
  if (chain.empty()) chain.push_back({offset, offset});
  return chain;
}

}  // namespace ptx::lsp
