; Generated from grammar/queries/locals.scm by clients/nvim/sync-queries.py: edit that file
; and rerun the script. Regex predicates are rewritten for Neovim's very-magic regexes.
; Scopes, definitions and references for PTX.
;
; Functions are scopes so that their parameters stay local; `{ }` blocks nest inside them, as
; PTX scopes register declarations and labels to the enclosing block. Capture names are the
; ones tree-sitter's highlighter (and Neovim) read: @local.scope, @local.definition,
; @local.reference.

; ── Scopes ───────────────────────────────────────────────────────────────────────────────

[
  (function_definition)
  (function_declaration)
  (callprototype_directive)
  (block)
] @local.scope

; ── Definitions ──────────────────────────────────────────────────────────────────────────

(parameter
  declarator: (declarator
    name: (identifier) @local.definition))

(variable_declaration
  declarator: (declarator
    name: (identifier) @local.definition))

(label
  name: (identifier) @local.definition)

; ── References ───────────────────────────────────────────────────────────────────────────

(identifier) @local.reference
