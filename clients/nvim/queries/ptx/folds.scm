; Generated from grammar/queries/folds.scm by clients/nvim/sync-queries.py: edit that file
; and rerun the script. Regex predicates are rewritten for Neovim's very-magic regexes.
; Code folding for PTX: function bodies and nested scopes, parameter lists, debug sections,
; initializer lists.

[
  (block)
  (parameter_list)
  (section_directive)
  (initializer_list)
] @fold
