; Extraction query for Go: captures are explained in map/extraction/extract_matches.py.

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

; what a local holds, so a call on it reaches its type's method: a parameter, a
; receiver, `var x T` and a struct field are instances of their type (a type of
; another shape, a func or a map, holds something unknown); `x := T{}`, `x := &T{}`
; and `x := f()` hold what is built or returned, `f := obj.Method` names it (the
; first name of `x, err := ...` takes the first value); other locals are unknown
(parameter_declaration name: (identifier) @name type: (_) @value) @assign.type
(var_spec name: (identifier) @name type: (_) @value) @assign.type
(field_declaration
  name: (field_identifier) @name
  type: [
    (type_identifier) @value
    (qualified_type) @value
    (pointer_type [(type_identifier) (qualified_type)] @value)
    (slice_type) @value
    (map_type) @value
  ]) @assign.type
(short_var_declaration
  left: (expression_list . (identifier) @name)
  right: (expression_list . (_) @value)) @assign.value
(var_spec
  name: (identifier) @name
  value: (expression_list .
    [
      (composite_literal type: [(type_identifier) (qualified_type)] @value)
      (unary_expression operand: (composite_literal type: [(type_identifier) (qualified_type)] @value))
      (call_expression function: [(identifier) (selector_expression)] @value)
    ] .)) @assign.call
(variadic_parameter_declaration name: (identifier) @name) @assign.other
(var_spec name: (identifier) @name !type) @assign.other
(short_var_declaration left: (expression_list (_) . (identifier) @name)) @assign.other
(range_clause left: (expression_list (identifier) @name)) @assign.other
; a range's value variable holds one of what the ranged value holds (a slice's element,
; a map's value)
(range_clause left: (expression_list (_) . (identifier) @name) right: (_) @each) @assign.type
(type_switch_statement alias: (expression_list (identifier) @name)) @assign.other
; what a function returns (its first result)
([(function_declaration result: [(type_identifier) (qualified_type) (pointer_type) (generic_type) (slice_type) (map_type)] @value @name)
  (method_declaration result: [(type_identifier) (qualified_type) (pointer_type) (generic_type) (slice_type) (map_type)] @value @name)
  (function_declaration result: (parameter_list . (parameter_declaration type: (_) @value)) @name)
  (method_declaration result: (parameter_list . (parameter_declaration type: (_) @value)) @name)
 ]) @assign.returns

(call_expression function: (identifier) @name) @ref.calls
(call_expression
  function: (selector_expression
    operand: (_) @qualifier
    field: (field_identifier) @name)) @ref.calls

; composite literals construct a value, as `new` does elsewhere
(composite_literal type: (type_identifier) @name) @ref.calls
(composite_literal
  type: (qualified_type package: (_) @qualifier name: (type_identifier) @name)) @ref.calls

; functions and methods taken as values (a method value `obj.Method`, a callback):
; passed, assigned, returned or put in a literal
([(argument_list [(identifier) @name @ref.values (selector_expression operand: (_) @qualifier field: (field_identifier) @name) @ref.values])
  (short_var_declaration right: (expression_list [(identifier) @name @ref.values (selector_expression operand: (_) @qualifier field: (field_identifier) @name) @ref.values]))
  (assignment_statement right: (expression_list [(identifier) @name @ref.values (selector_expression operand: (_) @qualifier field: (field_identifier) @name) @ref.values]))
  (var_spec value: (expression_list [(identifier) @name @ref.values (selector_expression operand: (_) @qualifier field: (field_identifier) @name) @ref.values]))
  (return_statement (expression_list [(identifier) @name @ref.values (selector_expression operand: (_) @qualifier field: (field_identifier) @name) @ref.values]))
  (keyed_element value: (literal_element [(identifier) @name @ref.values (selector_expression operand: (_) @qualifier field: (field_identifier) @name) @ref.values]))
  (literal_value (literal_element [(identifier) @name @ref.values (selector_expression operand: (_) @qualifier field: (field_identifier) @name) @ref.values]))])

; embedded struct fields (`Base`, `*Base`, `pkg.Base`) and interfaces
(field_declaration_list
  (field_declaration !name type: [(type_identifier) @name (pointer_type (type_identifier) @name)] @ref.inherits))
(field_declaration_list
  (field_declaration
    !name
    type: [
      (qualified_type package: (_) @qualifier name: (type_identifier) @name)
      (pointer_type (qualified_type package: (_) @qualifier name: (type_identifier) @name))
    ] @ref.inherits))
(interface_type (type_elem (type_identifier) @name @ref.inherits))

((type_identifier) @name @ref.references
  (#not-match? @name "^(bool|byte|complex64|complex128|error|float32|float64|int|int8|int16|int32|int64|rune|string|uint|uint8|uint16|uint32|uint64|uintptr|any|comparable)$"))
(qualified_type package: (_) @qualifier name: (type_identifier) @name) @ref.references

(comment) @comment
