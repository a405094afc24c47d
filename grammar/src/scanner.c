// External scanner for tree-sitter-ptx: the modulo operator.
//
// ptxas lexes `%` followed by an identifier character as the start of a name (`%r2`, `%3`),
// whatever the context. Tree-sitter's context-aware lexer would instead return the `%`
// operator wherever an operator is expected, turning the missing comma in `mad %r5 %r2, ...`
// into `%r5 % r2`. This scanner returns `%` only when no identifier character follows it.
// It keeps no state.
#include "tree_sitter/parser.h"

#include <stdbool.h>

enum TokenType { MODULO_OPERATOR };

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

bool tree_sitter_ptx_external_scanner_scan(void *payload, TSLexer *lexer,
                                           const bool *valid_symbols) {
  (void)payload;
  if (!valid_symbols[MODULO_OPERATOR]) return false;
  while (lexer->lookahead == ' ' || lexer->lookahead == '\t' || lexer->lookahead == '\r' ||
         lexer->lookahead == '\n' || lexer->lookahead == '\f' || lexer->lookahead == '\v') {
    lexer->advance(lexer, true);
  }
  if (lexer->lookahead != '%') return false;
  lexer->advance(lexer, false);
  lexer->mark_end(lexer);
  if (is_identifier_char(lexer->lookahead)) return false;
  lexer->result_symbol = MODULO_OPERATOR;
  return true;
}
