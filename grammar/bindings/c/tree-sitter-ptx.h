#ifndef TREE_SITTER_PTX_H_
#define TREE_SITTER_PTX_H_

#ifndef __cplusplus
#include <stdbool.h>
#endif

typedef struct TSLanguage TSLanguage;

#ifdef __cplusplus
extern "C" {
#endif

const TSLanguage *tree_sitter_ptx(void);

// Whether the scanner emits chunk boundaries (the hidden nodes incremental reparsing reuses)
// in parses on the calling thread; on by default. Returns the previous setting.
bool tree_sitter_ptx_set_chunk_boundaries(bool enabled);

#ifdef __cplusplus
}
#endif

#endif // TREE_SITTER_PTX_H_
