; Syntax highlighting for PTX.
;
; Capture names follow the common Neovim / Helix / Zed vocabulary. Patterns run from general
; to specific: when several patterns capture the same node, the later one wins (tree-sitter
; CLI, Neovim). Special registers and numbered register families are matched with
; `#any-of?` and with `#match?` patterns in Rust regex syntax. Neovim reads `#match?` as a
; "very magic" Vim regex, where `%` is an operator: clients/nvim ships escaped copies of these
; files (clients/nvim/sync-queries.py; a test checks they are current).

; ── Identifiers (most general first) ─────────────────────────────────────────────────────

(identifier) @variable

(sink) @variable.builtin

; Predefined special registers (PTX ISA §10).
((identifier) @variable.builtin
  (#any-of? @variable.builtin
    "%tid" "%ntid" "%laneid" "%warpid" "%nwarpid" "%ctaid" "%nctaid" "%smid" "%nsmid"
    "%gridid" "%is_explicit_cluster" "%clusterid" "%nclusterid" "%cluster_ctaid"
    "%cluster_nctaid" "%cluster_ctarank" "%cluster_nctarank" "%lanemask_eq" "%lanemask_le"
    "%lanemask_lt" "%lanemask_ge" "%lanemask_gt" "%clock" "%clock_hi" "%clock64"
    "%globaltimer" "%globaltimer_lo" "%globaltimer_hi" "%reserved_smem_offset_begin"
    "%reserved_smem_offset_end" "%reserved_smem_offset_cap" "%total_smem_size"
    "%aggr_smem_size" "%dynamic_smem_size" "%current_graph_exec"))

((identifier) @variable.builtin
  (#match? @variable.builtin "^%envreg[0-9][0-9]*$"))

((identifier) @variable.builtin
  (#match? @variable.builtin "^%pm[0-7]$"))

((identifier) @variable.builtin
  (#match? @variable.builtin "^%pm[0-7]_64$"))

((identifier) @variable.builtin
  (#match? @variable.builtin "^%reserved_smem_offset_[0-9][0-9]*$"))

((identifier) @constant.builtin
  (#eq? @constant.builtin "WARP_SZ"))

(component) @property

(field_initializer
  field: (identifier) @property)

(loc_attribute
  name: (identifier) @property)

(target_directive
  target: (identifier) @constant)

; ── Functions, parameters and labels ─────────────────────────────────────────────────────

(function_definition
  name: (identifier) @function)

(function_declaration
  name: (identifier) @function)

(alias_directive
  alias: (identifier) @function
  aliasee: (identifier) @function)

(call_instruction
  callee: (identifier) @function
  (#not-match? @function "^%"))

(calltargets_directive
  target: (identifier) @function)

(parameter
  declarator: (declarator
    name: (identifier) @variable.parameter))

(label
  name: (identifier) @label)

(branchtargets_directive
  target: (identifier) @label)

(call_instruction
  targets: (identifier) @label)

(loc_attribute
  value: (identifier) @label)

(section_name) @label

; ── Instructions ─────────────────────────────────────────────────────────────────────────

(opcode) @function.builtin

; Branch targets: `bra L;`, `brx.idx %r, table;`. The opcode is captured under its own
; highlight name (not a `@_` name) and this pattern follows `(opcode) @function.builtin`: in
; the tree-sitter CLI a later capture of the same node replaces the earlier match, and with it
; every other capture of that match.
(instruction
  opcode: (opcode) @function.builtin
  operand: (identifier) @label
  (#any-of? @function.builtin "bra" "brx")
  (#not-match? @label "^%"))

(modifier) @attribute

(attribute_name) @attribute

"generic" @function.builtin

(guard
  "@" @punctuation.special)

; ── Directives and declarations ──────────────────────────────────────────────────────────

[
  ".version"
  ".target"
  ".address_size"
  ".file"
  ".loc"
  ".pragma"
  ".alias"
  ".section"
  ".callprototype"
  ".calltargets"
  ".branchtargets"
  ".maxntid"
  ".reqntid"
  ".minnctapersm"
  ".maxnctapersm"
  ".maxnreg"
  ".noreturn"
  ".reqnctapercluster"
  ".explicitcluster"
  ".maxclusterrank"
  ".blocksareclusters"
  ".abi_preserve"
  ".abi_preserve_control"
] @keyword.directive

(directive_name) @keyword.directive

(function_kind) @keyword.function

(state_space) @keyword.storage

(linkage) @keyword.modifier

[
  ".align"
  ".ptr"
  ".attribute"
] @keyword.modifier

(type) @type.builtin

(vector_width) @type.builtin

; ── Literals, comments, preprocessor ─────────────────────────────────────────────────────

(integer_literal) @number

[
  (float_literal)
  (hex_float_literal)
] @number.float

(string_literal) @string

(comment) @comment

[
  (preprocessor_line)
  (dwarf_line)
] @preproc

; ── Operators and punctuation ────────────────────────────────────────────────────────────

[
  "+"
  "-"
  "*"
  "/"
  "%"
  "<<"
  ">>"
  "<"
  ">"
  "<="
  ">="
  "=="
  "!="
  "&"
  "^"
  "|"
  "&&"
  "||"
  "!"
  "~"
  "="
  "?"
] @operator

(conditional_expression
  ":" @operator)

[
  "("
  ")"
  "["
  "]"
  "{"
  "}"
] @punctuation.bracket

(register_count
  [
    "<"
    ">"
  ] @punctuation.bracket)

[
  ","
  ";"
] @punctuation.delimiter

(label
  ":" @punctuation.delimiter)
