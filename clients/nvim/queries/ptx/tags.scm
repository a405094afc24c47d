; Generated from grammar/queries/tags.scm by clients/nvim/sync-queries.py: edit that file
; and rerun the script. Regex predicates are rewritten for Neovim's very-magic regexes.
; Tags for code navigation: kernels and functions as definitions, direct calls as references.

; Kernels (`.entry`) and device functions (`.func`) with a body.
(function_definition
  name: (identifier) @name) @definition.function

; Prototypes (`.extern .func f(...);`) also name a function.
(function_declaration
  name: (identifier) @name) @definition.function

; Direct calls; a callee held in a register (`call %rd1, ...`) names no function.
(call_instruction
  callee: (identifier) @name
  (#not-match? @name "^\\%")) @reference.call

; Candidate callees listed for an indirect call (`tbl: .calltargets f, g;`).
(calltargets_directive
  target: (identifier) @name @reference.call)
