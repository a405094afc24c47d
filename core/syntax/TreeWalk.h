// TreeWalk: small helpers every reader of the syntax tree shares.
#pragma once

#include <tree_sitter/api.h>

#include "diag/Diagnostic.h"
#include "syntax/TreeChildren.h"

namespace ptx {

inline ByteRange rangeOf(TSNode node) { return {ts_node_start_byte(node), nodeEndByte(node)}; }

// Calls visit(child, fieldId) for every child of `node`, in order: the children and fields a
// TSTreeCursor gives, read directly (syntax/TreeChildren.h).
template <typename F>
void forEachChild(TSNode node, F&& visit) {
  forEachVisibleChildWhile(node, [&](TSNode child, TSFieldId field) {
    visit(child, field);
    return true;
  });
}

}  // namespace ptx
