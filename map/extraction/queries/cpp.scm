; Extraction query for C++: captures are explained in map/extraction/extract_matches.py.
; A qualified name (`Shape::area`, `a::b`) is split: its scope qualifies the symbol.

(function_definition
  declarator: [
    (function_declarator declarator: [(identifier) (field_identifier) (operator_name) (destructor_name) (qualified_identifier)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (field_identifier) (operator_name) (qualified_identifier)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (field_identifier) (operator_name) (qualified_identifier)] @name))
  ]) @def.function
; prototypes and in-class method declarations
(declaration
  declarator: [
    (function_declarator declarator: [(identifier) (qualified_identifier) (destructor_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: [(identifier) (qualified_identifier)] @name))
    (reference_declarator (function_declarator declarator: [(identifier) (qualified_identifier)] @name))
  ]) @def.function
(field_declaration
  declarator: [
    (function_declarator declarator: [(field_identifier) (operator_name) (destructor_name)] @name)
    (pointer_declarator declarator: (function_declarator declarator: (field_identifier) @name))
    (reference_declarator (function_declarator declarator: (field_identifier) @name))
  ]) @def.method

(namespace_definition name: (_) @name) @def.namespace
(class_specifier name: (_) @name body: (_)) @def.class
(struct_specifier name: (_) @name body: (_)) @def.struct
(union_specifier name: (_) @name body: (_)) @def.struct
(enum_specifier name: (_) @name body: (_)) @def.enum
(type_definition declarator: (type_identifier) @name) @def.type
(alias_declaration name: (type_identifier) @name) @def.type
; object-like macros with a value (not include guards)
(preproc_def name: (identifier) @name value: (_)) @def.constant
(preproc_function_def name: (identifier) @name) @def.function

(preproc_include) @import

(call_expression function: (identifier) @name) @ref.calls
(call_expression function: (template_function name: (identifier) @name)) @ref.calls
; a global name called past the class's members (`::gzclose(fp)` in a method): a bare name
(call_expression function: (qualified_identifier !scope name: (identifier) @name)) @ref.calls
(call_expression
  function: (qualified_identifier
    scope: (_) @qualifier
    name: [(identifier) (template_function name: (identifier))] @name)) @ref.calls
(call_expression
  function: (field_expression argument: (_) @qualifier field: (field_identifier) @name)) @ref.calls
(new_expression type: (type_identifier) @name) @ref.calls
(new_expression
  type: (qualified_identifier scope: (_) @qualifier name: (type_identifier) @name)) @ref.calls

(base_class_clause (type_identifier) @name @ref.inherits)
(base_class_clause (template_type name: (type_identifier) @name) @ref.inherits)
(base_class_clause
  (qualified_identifier
    scope: (_) @qualifier
    name: [(type_identifier) (template_type name: (type_identifier))] @name) @ref.inherits)

(type_identifier) @name @ref.references
(qualified_identifier scope: (_) @qualifier name: (type_identifier) @name) @ref.references
(qualified_identifier
  scope: (_) @qualifier
  name: (template_type name: (type_identifier) @name)) @ref.references
(type_parameter_declaration (type_identifier) @skip)

(comment) @comment
