// TreeChildren: the language tables the direct child walk reads (see TreeChildren.h).
// The generated parsers' header defines TSLanguage (ABI 14), the struct the runtime reads. It
// comes first: tree-sitter 0.20's api.h does not declare TSStateId, which it needs.
#include "tree_sitter/parser.h"

#include <cstddef>

#include "syntax/TreeChildren.h"

namespace ptx::tree_layout {

static_assert(sizeof(FieldMapEntry) == sizeof(TSFieldMapEntry) &&
              offsetof(TSFieldMapEntry, child_index) == offsetof(FieldMapEntry, childIndex) &&
              offsetof(TSFieldMapEntry, inherited) == offsetof(FieldMapEntry, inherited));
static_assert(sizeof(TSFieldMapSlice) == 2 * sizeof(std::uint16_t) && offsetof(TSFieldMapSlice, length) == 2);

const LanguageTables& tablesOf(const TSLanguage* language) {
  // Two languages exist (PTX and CUDA); the tables are a few pointers, so each thread keeps
  // the last one it read.
  thread_local const TSLanguage* cachedLanguage = nullptr;
  thread_local LanguageTables cached;
  if (language != cachedLanguage) {
    cached.aliasSequences = language->alias_sequences;
    cached.maxAliasSequenceLength = language->max_alias_sequence_length;
    cached.hasFields = language->field_count > 0;
    cached.fieldMapSlices = reinterpret_cast<const std::uint16_t*>(language->field_map_slices);
    cached.fieldMapEntries = reinterpret_cast<const FieldMapEntry*>(language->field_map_entries);
    cachedLanguage = language;
  }
  return cached;
}

}  // namespace ptx::tree_layout
