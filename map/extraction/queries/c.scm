; Extraction query for C: captures are explained in map/extraction/extract_matches.py.

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator
      declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @def.function
; a function a macro defines, as the parser reads `START_TEST(test_x) {` after a function's
; `}` (else: map.extraction.c_forms.macro_made)
(function_definition
  type: (type_identifier)
  declarator: (parenthesized_declarator (identifier) @name)) @def.function
; prototypes
(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  ]) @def.function
; a parenthesized name keeps a macro of its name from expanding: `int (lua_gettop) (lua_State *L);`
(declaration
  declarator: [
    (function_declarator declarator: (parenthesized_declarator (identifier) @name))
    (pointer_declarator
      declarator: (function_declarator declarator: (parenthesized_declarator (identifier) @name)))
  ]) @def.function
; ... as the parser reads it after a type macro (`LUA_API void (lua_rotate) (...)`)
(declaration
  declarator: (function_declarator
    declarator: (function_declarator
      parameters: (parameter_list . (parameter_declaration type: (type_identifier) @name !declarator) .)))) @def.function

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

(comment) @comment
