; Extraction query for TypeScript and TSX, before the patterns shared with JavaScript
; (ecmascript.scm): captures are explained in map/extraction/extract_matches.py.
; Computed (`[Symbol.iterator]`) and string-named members are not symbols: their
; names do not fit a node ID.

(class_declaration name: (type_identifier) @name) @def.class
(abstract_class_declaration name: (type_identifier) @name) @def.class
(interface_declaration name: (type_identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(type_alias_declaration name: (type_identifier) @name) @def.type
(internal_module name: [(identifier) (nested_identifier)] @name) @def.namespace
(module name: [(identifier) (nested_identifier)] @name) @def.namespace

(function_signature name: (identifier) @name) @def.function
(method_signature name: [(property_identifier) (private_property_identifier)] @name) @def.method
; class fields holding functions (`handle = () => {...}`) act as methods
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression)]) @def.method
(abstract_method_signature
  name: [(property_identifier) (private_property_identifier)] @name) @def.method

; `export = create`: the file's default export (see ecmascript.scm's)
(export_statement "=") @import

(decorator (identifier) @name @ref.references)
(decorator (member_expression object: (_) @qualifier property: (property_identifier) @name) @ref.references)

(extends_clause value: (identifier) @name @ref.inherits)
(extends_clause
  value: (member_expression object: (_) @qualifier property: (property_identifier) @name) @ref.inherits)
(implements_clause (type_identifier) @name @ref.inherits)
(implements_clause
  (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name) @ref.inherits)
(extends_type_clause type: (type_identifier) @name @ref.inherits)
(extends_type_clause
  type: (nested_type_identifier module: (_) @qualifier name: (type_identifier) @name) @ref.inherits)

(type_identifier) @name @ref.references
(nested_type_identifier module: (_) @qualifier name: (type_identifier) @name) @ref.references
(type_parameter name: (type_identifier) @skip)

; `await f<T>(x)` parses as a call of `await f`: the call is f's
(call_expression function: (await_expression (identifier) @name) (type_arguments)) @ref.calls
(call_expression
  function: (await_expression (member_expression object: (_) @qualifier property: (property_identifier) @name))
  (type_arguments)) @ref.calls

; parameters are locals (see ecmascript.scm's)
(required_parameter pattern: (identifier) @name) @assign.other
(optional_parameter pattern: (identifier) @name) @assign.other
(required_parameter pattern: (rest_pattern (identifier) @name)) @assign.other

; a name annotated with a type (a class, an interface, a type alias; `Store<T>`: Store)
; holds an instance of it (map.linking.values); a field is the class's, a
; constructor's parameter property (`private options: Options`) its instances' (first:
; the parameter's own match below is then not kept)
(required_parameter
  (accessibility_modifier)
  pattern: (identifier) @name
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @value)) @attr.type
(required_parameter
  pattern: (identifier) @name
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @value)) @assign.type
(optional_parameter
  pattern: (identifier) @name
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @value)) @assign.type
(variable_declarator
  name: (identifier) @name
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @value)) @assign.type
(public_field_definition
  name: (property_identifier) @name
  type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @value)) @assign.type
; what a function returns, annotated (@name: the annotation, inside the function)
(function_declaration
  return_type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @value) @name) @assign.returns
(method_definition
  return_type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @value) @name) @assign.returns
(method_signature
  return_type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @value) @name) @assign.returns
; an arrow function's only where it is a symbol's own (not a local's inside one)
(program
  (lexical_declaration
    (variable_declarator
      value: (arrow_function
        return_type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @value) @name))) @assign.returns)
(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      value: (arrow_function
        return_type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @value) @name))) @assign.returns)
(public_field_definition
  value: (arrow_function
    return_type: (type_annotation [(type_identifier) (nested_type_identifier) (generic_type)] @value) @name)) @assign.returns

; a property holding a function (`unmount: () => void`) is a method of its interface
(property_signature
  name: (property_identifier) @name
  type: (type_annotation (function_type))) @def.method
; an object literal a function returns, annotated to return a type, or that a name
; annotated with a type is given (or given `as` one), implements that type: its
; members override the type's (map.graph.overrides)
(function_declaration
  return_type: (type_annotation [(type_identifier) @name (generic_type name: (type_identifier) @name)])
  body: (statement_block (return_statement (object)))) @ref.inherits
(program
  (lexical_declaration
    (variable_declarator
      value: (arrow_function
        return_type: (type_annotation [(type_identifier) @name (generic_type name: (type_identifier) @name)])
        body: [(statement_block (return_statement (object))) (parenthesized_expression (object))]))) @ref.inherits)
(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      value: (arrow_function
        return_type: (type_annotation [(type_identifier) @name (generic_type name: (type_identifier) @name)])
        body: [(statement_block (return_statement (object))) (parenthesized_expression (object))]))) @ref.inherits)
(method_definition
  return_type: (type_annotation [(type_identifier) @name (generic_type name: (type_identifier) @name)])
  body: (statement_block (return_statement (object)))) @ref.inherits
(variable_declarator
  type: (type_annotation [(type_identifier) @name (generic_type name: (type_identifier) @name)])
  value: (object)) @ref.inherits
(variable_declarator
  value: (as_expression
    (object)
    [(type_identifier) @name (generic_type name: (type_identifier) @name)])) @ref.inherits
; a type alias naming another type (`type Store = INTERNAL_Store`) has its members
(type_alias_declaration
  value: [(type_identifier) @name (generic_type name: (type_identifier) @name)]) @ref.inherits
