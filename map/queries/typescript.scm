; Extraction query for TypeScript and TSX: captures are explained in map/extract_matches.py.
; Computed (`[Symbol.iterator]`) and string-named members are not symbols: their
; names do not fit a node ID.

(class_declaration name: (type_identifier) @name) @def.class
(abstract_class_declaration name: (type_identifier) @name) @def.class
(interface_declaration name: (type_identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(type_alias_declaration name: (type_identifier) @name) @def.type
(internal_module name: [(identifier) (nested_identifier)] @name) @def.namespace
(module name: [(identifier) (nested_identifier)] @name) @def.namespace

(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function
(function_signature name: (identifier) @name) @def.function

(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @def.constructor
(method_definition
  name: [(property_identifier) (private_property_identifier)] @name
  (#not-eq? @name "constructor")) @def.method
(method_signature name: [(property_identifier) (private_property_identifier)] @name) @def.method
; class fields holding functions (`handle = () => {...}`) act as methods
(public_field_definition
  name: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @def.method
(abstract_method_signature
  name: [(property_identifier) (private_property_identifier)] @name) @def.method

; module-level functions held in variables, then exported constants/variables
(program
  (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression)])) @def.function)
(export_statement
  declaration: (lexical_declaration
    (variable_declarator
      name: (identifier) @name
      value: [(arrow_function) (function_expression)])) @def.function)
(export_statement
  declaration: (lexical_declaration
    "const"
    (variable_declarator name: (identifier) @name)) @def.constant)
(export_statement
  declaration: (lexical_declaration
    "let"
    (variable_declarator name: (identifier) @name)) @def.variable)

(import_statement) @import
(export_statement source: (_)) @import
(variable_declarator
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string)))
  (#eq? @_require "require")) @import

(call_expression function: (identifier) @name) @ref.calls
(call_expression
  function: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @ref.calls
(new_expression constructor: (identifier) @name) @ref.calls
(new_expression
  constructor: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @ref.calls

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

(comment) @comment
