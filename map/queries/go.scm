; Extraction query for Go: captures are explained in map/extract_matches.py.

; a type declaration with one spec spans from `type`; a grouped one per spec
(type_declaration . (type_spec name: (type_identifier) @name type: (struct_type)) .) @def.struct
(type_declaration . (type_spec name: (type_identifier) @name type: (interface_type)) .) @def.interface
(type_declaration . (type_spec name: (type_identifier) @name) .) @def.type
(type_declaration . (type_alias name: (type_identifier) @name) .) @def.type
(type_spec name: (type_identifier) @name type: (struct_type)) @def.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @def.interface
(type_spec name: (type_identifier) @name) @def.type
(type_alias name: (type_identifier) @name) @def.type

(function_declaration name: (identifier) @name) @def.function
(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @prefix
        (pointer_type (type_identifier) @prefix)
        (generic_type type: (type_identifier) @prefix)
        (pointer_type (generic_type type: (type_identifier) @prefix))
      ]))
  name: (field_identifier) @name) @def.method
(method_elem name: (field_identifier) @name) @def.method

; (a const spec's later names carry no field name, so match any identifier child)
(source_file (const_declaration . (const_spec (identifier) @name) .) @def.constant)
(source_file (const_declaration (const_spec (identifier) @name) @def.constant))
(source_file (var_declaration . (var_spec name: (identifier) @name) .) @def.variable)
(source_file (var_declaration (var_spec name: (identifier) @name) @def.variable))

(import_spec) @import

(call_expression function: (identifier) @name) @ref.calls
(call_expression
  function: (selector_expression
    operand: (_) @qualifier
    field: (field_identifier) @name)) @ref.calls

; composite literals construct a value, as `new` does elsewhere
(composite_literal type: (type_identifier) @name) @ref.calls
(composite_literal
  type: (qualified_type package: (_) @qualifier name: (type_identifier) @name)) @ref.calls

; embedded struct fields and interfaces
(field_declaration_list
  (field_declaration !name type: (type_identifier) @name @ref.inherits))
(field_declaration_list
  (field_declaration
    !name
    type: (qualified_type package: (_) @qualifier name: (type_identifier) @name) @ref.inherits))
(interface_type (type_elem (type_identifier) @name @ref.inherits))

((type_identifier) @name @ref.references
  (#not-match? @name "^(bool|byte|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|string|uint|uint8|uint16|uint32|uint64|uintptr|any|comparable)$"))
(qualified_type package: (_) @qualifier name: (type_identifier) @name) @ref.references

(comment) @comment
