; Code folding for PTX: function bodies and nested scopes, parameter lists, debug sections,
; initializer lists.

[
  (block)
  (parameter_list)
  (section_directive)
  (initializer_list)
] @fold
