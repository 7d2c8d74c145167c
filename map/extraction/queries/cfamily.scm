; Extraction patterns C and C++ share (after each one's own query): captures are
; explained in map/extraction/extract_matches.py.

; functions taken as values (a function pointer): passed, assigned, returned, in an
; initializer, cast, chosen by `?:`, or with their address taken
([(argument_list (identifier) @name)
  (conditional_expression consequence: (identifier) @name)
  (conditional_expression alternative: (identifier) @name)
  (init_declarator value: (identifier) @name)
  (initializer_list (identifier) @name)
  (initializer_pair value: (identifier) @name)
  (assignment_expression right: (identifier) @name)
  (return_statement (identifier) @name)
  (pointer_expression argument: (identifier) @name)
  (cast_expression value: (identifier) @name)]) @ref.values

; parameters and locals: names nothing of ours (a function pointer parameter `cb`)
(parameter_declaration
  declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)
    (function_declarator declarator: (parenthesized_declarator (pointer_declarator declarator: (identifier) @name)))
  ]) @assign.other
(declaration
  declarator: [
    (identifier) @name
    (pointer_declarator declarator: (identifier) @name)
    (array_declarator declarator: (identifier) @name)
    (init_declarator
      declarator: [
        (identifier) @name
        (pointer_declarator declarator: (identifier) @name)
        (array_declarator declarator: (identifier) @name)
      ])
  ]) @assign.other
