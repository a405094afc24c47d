// TreeChildren: a node's visible children, read straight from tree-sitter 0.20's tree.
//
// Why: the model is built by visiting every statement's and every operand's children. Through
// the public TSTreeCursor each step costs about 400 instructions on PTX, whose operand lists
// are hidden repetition nodes the cursor enters and leaves one step at a time, re-deriving
// positions and alias tables and allocating its stack; a field id costs another walk up that
// stack. Reading the subtree arrays directly, as the cursor itself does, costs a few dozen.
//
// What: forEachVisibleChild(node, visit) calls visit(child, fieldId) for exactly the nodes
// and field ids that ts_tree_cursor_goto_first_child / goto_next_sibling /
// current_node / current_field_id give, in the same order (hidden nodes are entered, their
// fields inherited the way the cursor inherits them). tests/core/tree_children_test.cpp
// checks that equality node by node over the corpus, garbage and truncated inputs included.
//
// The layout below is tree-sitter 0.20.7's (lib/src/subtree.h, Debian 12's libtree-sitter,
// which the project links statically, see cmake/Dependencies.cmake). SyntaxTree.cpp already
// depends on the same version's internals to join chunked parses; both are guarded by the
// version assertion there and here.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <cstring>

namespace ptx {

namespace tree_layout {

static_assert(TREE_SITTER_LANGUAGE_VERSION == 14 && TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION == 13,
              "TreeChildren reads tree-sitter 0.20's subtree layout; check it for this version");

// A subtree is one 64-bit word: either a pointer to its heap data (bit 0 clear) or, for small
// leaves, the leaf itself packed inline (bit 0 set). Inline bytes, little-endian: 0 flags
// (is_inline, visible, named, extra, has_changes, is_missing, is_keyword), 1 symbol,
// 2-3 parse state, 4 padding columns, 5 padding rows (low nibble), 6 padding bytes, 7 size bytes.
// Heap data: padding {bytes, row, column} at 4, size at 16, child_count (16 bits) at 36,
// flags at 42 (visible bit 0, named 1, extra 2), visible_child_count at 48, production_id
// (16 bits) at 66; a node's children are the array of subtrees just before its heap data.
struct Length {
  std::uint32_t bytes = 0;
  std::uint32_t row = 0;
  std::uint32_t column = 0;

  void add(const Length& other) {
    bytes += other.bytes;
    if (other.row > 0) {
      row += other.row;
      column = other.column;
    } else {
      column += other.column;
    }
  }
};

class Subtree {
 public:
  explicit Subtree(std::uint64_t raw) : raw_(raw) {}

  bool isInline() const { return (raw_ & 1u) != 0; }
  bool visible() const { return isInline() ? (raw_ >> 1 & 1u) != 0 : (heapByte(42) & 1u) != 0; }
  bool extra() const { return isInline() ? (raw_ >> 3 & 1u) != 0 : (heapByte(42) & 4u) != 0; }
  std::uint32_t childCount() const { return isInline() ? 0 : heap<std::uint16_t>(36); }
  std::uint32_t visibleChildCount() const { return childCount() == 0 ? 0 : heap<std::uint32_t>(48); }
  std::uint16_t productionId() const { return heap<std::uint16_t>(66); }
  const std::uint64_t* children() const {
    return reinterpret_cast<const std::uint64_t*>(pointer()) - heap<std::uint16_t>(36);
  }
  Length padding() const {
    if (!isInline()) return heapLength(4);
    return {static_cast<std::uint32_t>(raw_ >> 48 & 0xFF), static_cast<std::uint32_t>(raw_ >> 40 & 0x0F),
            static_cast<std::uint32_t>(raw_ >> 32 & 0xFF)};
  }
  Length size() const {
    if (!isInline()) return heapLength(16);
    auto bytes = static_cast<std::uint32_t>(raw_ >> 56);
    return {bytes, 0, bytes};
  }

 private:
  const unsigned char* pointer() const { return reinterpret_cast<const unsigned char*>(raw_); }
  unsigned char heapByte(int offset) const { return pointer()[offset]; }
  template <typename T>
  T heap(int offset) const {
    T value;
    std::memcpy(&value, pointer() + offset, sizeof value);
    return value;
  }
  Length heapLength(int offset) const {
    return {heap<std::uint32_t>(offset), heap<std::uint32_t>(offset + 4), heap<std::uint32_t>(offset + 8)};
  }

  std::uint64_t raw_;
};

// What the walk needs of a language: its alias sequences and field maps (tree_sitter/parser.h's
// TSLanguage, read in TreeChildren.cpp).
struct FieldMapEntry {
  TSFieldId field;
  std::uint8_t childIndex;
  bool inherited;
};

struct LanguageTables {
  const TSSymbol* aliasSequences = nullptr;
  std::uint32_t maxAliasSequenceLength = 0;
  const std::uint16_t* fieldMapSlices = nullptr;  // {index, length} per production
  const FieldMapEntry* fieldMapEntries = nullptr;
  bool hasFields = false;
  // The field of each child, by production and structural child index (production *
  // maxAliasSequenceLength + index): the first non-inherited entry of the production's field
  // map for that child, as the cursor finds it, or 0. Read from the field maps once.
  const TSFieldId* childFields = nullptr;
};

const LanguageTables& tablesOf(const TSLanguage* language);

inline std::uint64_t subtreeAt(const void* id) {
  std::uint64_t raw;
  std::memcpy(&raw, id, sizeof raw);
  return raw;
}

// Visits the children of `parent` (heap data, at least one child), entering hidden nodes.
// Returns false when visit asked to stop.
template <typename Visit>
bool visitChildren(const TSTree* tree, const LanguageTables& tables, Subtree parent, Length position,
                   TSFieldId inheritedField, Visit& visit) {
  const std::uint32_t count = parent.childCount();
  const std::uint64_t* children = parent.children();
  const std::uint16_t production = parent.productionId();
  const std::size_t row = std::size_t{production} * tables.maxAliasSequenceLength;
  const TSSymbol* aliases = production != 0 ? tables.aliasSequences + row : nullptr;
  const TSFieldId* fields = production != 0 && tables.hasFields ? tables.childFields + row : nullptr;
  std::uint32_t structuralIndex = 0;
  for (std::uint32_t i = 0; i < count; ++i) {
    Subtree child(children[i]);
    if (i > 0) position.add(child.padding());
    bool visible = child.visible();
    const bool extra = child.extra();
    TSSymbol alias = 0;
    TSFieldId field = 0;
    if (!extra) {
      // Only productions with an alias sequence number their children (the cursor's rule);
      // production 0 has neither aliases nor fields.
      if (aliases != nullptr) {
        alias = aliases[structuralIndex];
        visible = visible || alias != 0;
        if (fields != nullptr) field = fields[structuralIndex];
        ++structuralIndex;
      }
      if (field == 0) field = inheritedField;
    }
    if (visible) {
      TSNode node{{position.bytes, position.row, position.column, alias}, &children[i], tree};
      if (!visit(node, field)) return false;
    } else if (child.visibleChildCount() > 0) {
      if (!visitChildren(tree, tables, child, position, field, visit)) return false;
    }
    position.add(child.size());
  }
  return true;
}

}  // namespace tree_layout

// Calls visit(child, fieldId) for each visible child of `node` in order; visit returns true to
// go on, false to stop. Same children and fields as the TSTreeCursor walk (see above).
template <typename Visit>
void forEachVisibleChildWhile(TSNode node, Visit&& visit) {
  if (node.id == nullptr) return;
  tree_layout::Subtree self(tree_layout::subtreeAt(node.id));
  if (self.childCount() == 0) return;
  const tree_layout::LanguageTables& tables = tree_layout::tablesOf(ts_tree_language(node.tree));
  tree_layout::Length position{node.context[0], node.context[1], node.context[2]};
  tree_layout::visitChildren(node.tree, tables, self, position, 0, visit);
}

// ts_node_end_byte without the call: the node's start plus its subtree's size.
inline std::uint32_t nodeEndByte(TSNode node) {
  if (node.id == nullptr) return 0;
  return node.context[0] + tree_layout::Subtree(tree_layout::subtreeAt(node.id)).size().bytes;
}

// The first visible child of `node` with field `field`, or a null node: ts_node_child_by_field_id's
// answer. Like it, only fields the node's own production names count (an ERROR node names none,
// though the cursor finds fields inside the hidden nodes it holds).
inline TSNode childWithField(TSNode node, TSFieldId field) {
  TSNode found{};
  if (node.id == nullptr) return found;
  tree_layout::Subtree self(tree_layout::subtreeAt(node.id));
  if (self.childCount() == 0) return found;
  const tree_layout::LanguageTables& tables = tree_layout::tablesOf(ts_tree_language(node.tree));
  if (!tables.hasFields) return found;
  const std::uint16_t production = self.productionId();
  const tree_layout::FieldMapEntry* entry = tables.fieldMapEntries + tables.fieldMapSlices[2 * production];
  const tree_layout::FieldMapEntry* end = entry + tables.fieldMapSlices[2 * production + 1];
  while (entry < end && entry->field != field) ++entry;
  if (entry == end) return found;
  forEachVisibleChildWhile(node, [&](TSNode child, TSFieldId childField) {
    if (childField != field) return true;
    found = child;
    return false;
  });
  return found;
}

}  // namespace ptx
