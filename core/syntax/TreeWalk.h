// TreeWalk: small helpers every reader of the syntax tree shares.
#pragma once

#include <tree_sitter/api.h>

#include "diag/Diagnostic.h"

namespace ptx {

inline ByteRange rangeOf(TSNode node) { return {ts_node_start_byte(node), ts_node_end_byte(node)}; }

// Calls visit(child, fieldId) for every child of `node`, in order.
template <typename F>
void forEachChild(TSNode node, F&& visit) {
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  if (ts_tree_cursor_goto_first_child(&cursor)) {
    do {
      visit(ts_tree_cursor_current_node(&cursor), ts_tree_cursor_current_field_id(&cursor));
    } while (ts_tree_cursor_goto_next_sibling(&cursor));
  }
  ts_tree_cursor_delete(&cursor);
}

}  // namespace ptx
