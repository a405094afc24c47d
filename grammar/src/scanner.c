// External scanner for tree-sitter-ptx.
//
// 1. The modulo operator. ptxas lexes `%` followed by an identifier character as the start
//    of a name (`%r2`, `%3`), whatever the context. Tree-sitter's context-aware lexer would
//    instead return the `%` operator wherever an operator is expected, turning the missing
//    comma in `mad %r5 %r2, ...` into `%r5 % r2`. `%` is returned only when no identifier
//    character follows it.
// 2. Chunk boundaries: zero-width tokens at statement starts inside blocks, chosen by a hash
//    of the next statement's first bytes (content-defined, so an edit moves no boundary but
//    its own). The grammar groups statements between boundaries into hidden chunks, which
//    incremental reparsing reuses whole (see `block` in grammar.js).
//
// The scanner keeps no state, so serialization is empty. A parse that will never be reparsed
// (a batch lint's) may turn chunk boundaries off for its thread: the visible tree is the same,
// with fewer hidden nodes, and the scanner no longer hashes every statement's first bytes.
// The CUDA asm fragments and ptxlint's texts are parsed so.
#include "tree_sitter/parser.h"

#include <stdbool.h>
#include <stdint.h>

enum TokenType {
  MODULO_OPERATOR,
  CHUNK_BOUNDARY_1,
  CHUNK_BOUNDARY_2,
  CHUNK_BOUNDARY_3,
  ERROR_SENTINEL,
};

// The next statement's bytes that decide whether a boundary precedes it: its first token and
// at most this many bytes after it. Tree-sitter records how far a token's lexing looked past
// its end; from 16 bytes on, the token no longer fits in the tree's 8-byte inline form and
// becomes an 80-byte heap node. Reading further would make every statement's first token
// (its opcode, label or directive) such a node: 12 MB of a 10 MB file's tree.
enum { kHashedAfterFirstToken = 14 };

static _Thread_local bool chunk_boundaries = true;

// Declared in bindings/c/tree-sitter-ptx.h.
bool tree_sitter_ptx_set_chunk_boundaries(bool enabled) {
  bool previous = chunk_boundaries;
  chunk_boundaries = enabled;
  return previous;
}

void *tree_sitter_ptx_external_scanner_create(void) { return NULL; }
void tree_sitter_ptx_external_scanner_destroy(void *payload) { (void)payload; }

unsigned tree_sitter_ptx_external_scanner_serialize(void *payload, char *buffer) {
  (void)payload;
  (void)buffer;
  return 0;
}

void tree_sitter_ptx_external_scanner_deserialize(void *payload, const char *buffer,
                                                  unsigned length) {
  (void)payload;
  (void)buffer;
  (void)length;
}

static bool is_identifier_char(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
         c == '_' || c == '$';
}

static bool is_space(int32_t c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

// Whether `c` can begin a statement (label, instruction, guard, directive, block, comment).
static bool starts_statement(int32_t c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
         c == '%' || c == '@' || c == '.' || c == '{' || c == '/';
}

static bool scan_chunk_boundary(TSLexer *lexer, const bool *valid_symbols, bool after_newline) {
  // Boundaries sit only at line starts: a statement's continuation (`.loc 1 2 3, ...`) is
  // never split from it.
  if (!after_newline || lexer->eof(lexer) || !starts_statement(lexer->lookahead)) return false;
  // The token is empty: it ends where the statement starts, before the hashed bytes.
  lexer->mark_end(lexer);
  uint32_t hash = 2166136261u;  // FNV-1a.
  // The first token: a name or a directive (`.loc`) runs over identifier characters; `@`, `{`
  // and the rest are one byte as far as this count goes (a longer token only looks back less).
  bool in_first_token = true;
  int limit = 1 + kHashedAfterFirstToken;
  for (int i = 0; i < limit && !lexer->eof(lexer) && lexer->lookahead != '\n'; ++i) {
    if (i > 0 && in_first_token && !is_identifier_char(lexer->lookahead)) in_first_token = false;
    if (in_first_token) limit = i + 1 + kHashedAfterFirstToken;
    hash = (hash ^ (uint32_t)(lexer->lookahead & 0xFF)) * 16777619u;
    lexer->advance(lexer, false);
  }
  hash ^= hash >> 15;
  if ((hash & 0xFFF) == 0 && valid_symbols[CHUNK_BOUNDARY_3]) {
    lexer->result_symbol = CHUNK_BOUNDARY_3;
  } else if ((hash & 0xFF) == 0 && valid_symbols[CHUNK_BOUNDARY_2]) {
    lexer->result_symbol = CHUNK_BOUNDARY_2;
  } else if ((hash & 0xF) == 0 && valid_symbols[CHUNK_BOUNDARY_1]) {
    lexer->result_symbol = CHUNK_BOUNDARY_1;
  } else {
    return false;
  }
  return true;
}

bool tree_sitter_ptx_external_scanner_scan(void *payload, TSLexer *lexer,
                                           const bool *valid_symbols) {
  (void)payload;
  // During error recovery every symbol is valid; zero-width boundaries there could loop.
  if (valid_symbols[ERROR_SENTINEL]) return false;
  bool want_modulo = valid_symbols[MODULO_OPERATOR];
  bool want_boundary = chunk_boundaries && (valid_symbols[CHUNK_BOUNDARY_1] || valid_symbols[CHUNK_BOUNDARY_2] ||
                                            valid_symbols[CHUNK_BOUNDARY_3]);
  if (!want_modulo && !want_boundary) return false;
  bool after_newline = false;
  while (is_space(lexer->lookahead)) {
    after_newline = after_newline || lexer->lookahead == '\n';
    lexer->advance(lexer, true);
  }
  if (want_modulo && lexer->lookahead == '%') {
    lexer->advance(lexer, false);
    lexer->mark_end(lexer);
    if (is_identifier_char(lexer->lookahead)) return false;
    lexer->result_symbol = MODULO_OPERATOR;
    return true;
  }
  if (want_boundary) return scan_chunk_boundary(lexer, valid_symbols, after_newline);
  return false;
}
