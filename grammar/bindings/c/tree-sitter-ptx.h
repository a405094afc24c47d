#ifndef TREE_SITTER_PTX_H_
#define TREE_SITTER_PTX_H_

typedef struct TSLanguage TSLanguage;

#ifdef __cplusplus
extern "C" {
#endif

const TSLanguage *tree_sitter_ptx(void);

// Whether the scanner emits chunk boundaries (the hidden nodes incremental reparsing reuses)
// in parses on the calling thread; on by default. Returns the previous setting.
#ifdef __cplusplus
bool tree_sitter_ptx_set_chunk_boundaries(bool enabled);
#else
#include <stdbool.h>
bool tree_sitter_ptx_set_chunk_boundaries(bool enabled);
#endif

#ifdef __cplusplus
}
#endif

#endif // TREE_SITTER_PTX_H_
