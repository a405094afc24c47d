// Folding: one iterative walk of the tree.
#include "features/Folding.h"

#include <string_view>

namespace ptx::lsp {

std::vector<FoldingRegion> foldingRegions(const SyntaxTree& tree, const LineIndex& lines) {
  std::vector<FoldingRegion> regions;
  TSNode root = tree.root();
  if (ts_node_is_null(root)) return regions;
  FoldingRegion comments;
  bool inComments = false;
  auto flushComments = [&] {
    if (inComments && comments.endLine > comments.startLine) regions.push_back(comments);
    inComments = false;
  };
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  std::uint32_t depth = 0;
  while (true) {
    TSNode node = ts_tree_cursor_current_node(&cursor);
    std::string_view type = ts_node_type(node);
    std::uint32_t first = lines.lineOf(ts_node_start_byte(node));
    std::uint32_t last = lines.lineOf(ts_node_end_byte(node) > 0 ? ts_node_end_byte(node) - 1 : 0);
    bool descend = true;
    if (type == "comment") {
      descend = false;
      if (inComments && first == comments.endLine + 1) {
        comments.endLine = last;
      } else {
        flushComments();
        comments = {first, last, true};
        inComments = true;
      }
    } else if (depth > 0 && ts_node_is_named(node)) {
      flushComments();
      if ((type == "block" || type == "parameter_list" || type == "initializer_list") && last > first) {
        regions.push_back({first, last, false});
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) {
      ++depth;
      continue;
    }
    bool moved = false;
    while (depth > 0 && !moved) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) {
        moved = true;
      } else {
        ts_tree_cursor_goto_parent(&cursor);
        --depth;
      }
    }
    if (!moved) break;
  }
  flushComments();
  ts_tree_cursor_delete(&cursor);
  return regions;
}

}  // namespace ptx::lsp
