// TreeChildren: the language tables the direct child walk reads (see TreeChildren.h).
// The generated parsers' header defines TSLanguage (ABI 14), the struct the runtime reads. It
// comes first: tree-sitter 0.20's api.h does not declare TSStateId, which it needs.
#include "tree_sitter/parser.h"

#include <cstddef>
#include <vector>

#include "syntax/TreeChildren.h"

namespace ptx::tree_layout {

static_assert(sizeof(FieldMapEntry) == sizeof(TSFieldMapEntry) &&
              offsetof(TSFieldMapEntry, child_index) == offsetof(FieldMapEntry, childIndex) &&
              offsetof(TSFieldMapEntry, inherited) == offsetof(FieldMapEntry, inherited));
static_assert(sizeof(TSFieldMapSlice) == 2 * sizeof(std::uint16_t) && offsetof(TSFieldMapSlice, length) == 2);

namespace {

struct CachedTables {
  const TSLanguage* language = nullptr;
  LanguageTables tables;
  std::vector<TSFieldId> childFields;
};

void readTables(const TSLanguage* language, CachedTables& cached) {
  LanguageTables& tables = cached.tables;
  tables.aliasSequences = language->alias_sequences;
  tables.maxAliasSequenceLength = language->max_alias_sequence_length;
  tables.hasFields = language->field_count > 0;
  tables.fieldMapSlices = reinterpret_cast<const std::uint16_t*>(language->field_map_slices);
  tables.fieldMapEntries = reinterpret_cast<const FieldMapEntry*>(language->field_map_entries);
  // Children past the longest production cannot occur; the table covers every production.
  const std::size_t width = language->max_alias_sequence_length;
  cached.childFields.assign(std::size_t{language->production_id_count} * width, 0);
  if (tables.hasFields) {
    for (std::uint32_t production = 1; production < language->production_id_count; ++production) {
      const TSFieldMapSlice& slice = language->field_map_slices[production];
      // Walking the entries backwards leaves the first one for each child, as the cursor's
      // forward scan finds it.
      for (std::uint32_t k = slice.length; k-- > 0;) {
        const TSFieldMapEntry& entry = language->field_map_entries[slice.index + k];
        if (!entry.inherited && entry.child_index < width) {
          cached.childFields[production * width + entry.child_index] = entry.field_id;
        }
      }
    }
  }
  tables.childFields = cached.childFields.data();
  cached.language = language;
}

}  // namespace

const LanguageTables& tablesOf(const TSLanguage* language) {
  // Two languages exist (PTX and CUDA). Each thread reads a language's tables once and keeps
  // them; a CUDA file's analysis alternates between the two.
  thread_local CachedTables cache[4];
  thread_local std::size_t next = 0;
  for (CachedTables& entry : cache) {
    if (entry.language == language) return entry.tables;
  }
  CachedTables& entry = cache[next];
  next = (next + 1) % std::size(cache);
  readTables(language, entry);
  return entry.tables;
}

}  // namespace ptx::tree_layout
