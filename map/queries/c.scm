; Extraction query for C: captures are explained in map/extract_matches.py.

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator
      declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @def.function
; prototypes
(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  ]) @def.function

(struct_specifier name: (type_identifier) @name body: (_)) @def.struct
(union_specifier name: (type_identifier) @name body: (_)) @def.struct
(enum_specifier name: (type_identifier) @name body: (_)) @def.enum
(type_definition declarator: (type_identifier) @name) @def.type
; object-like macros with a value (not include guards)
(preproc_def name: (identifier) @name value: (_)) @def.constant
(preproc_function_def name: (identifier) @name) @def.function

(preproc_include) @import

(call_expression function: (identifier) @name) @ref.calls
(call_expression
  function: (field_expression argument: (_) @qualifier field: (field_identifier) @name)) @ref.calls

(type_identifier) @name @ref.references

; functions taken as values (a function pointer): passed, assigned, returned, in an
; initializer, cast, or with their address taken
([(argument_list (identifier) @name)
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

(comment) @comment
