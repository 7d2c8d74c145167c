; Extraction query for C#: captures are explained in map/extraction/extract_matches.py.
; Attributes sit inside a declaration's node, so ranges include them. A namespace
; is not part of a node ID (as Java's package is not): block and file-scoped
; namespaces give the same IDs.

(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(struct_declaration name: (identifier) @name) @def.struct
(interface_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(delegate_declaration name: (identifier) @name) @def.type
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.constructor
(destructor_declaration name: (identifier) @name) @def.method
(property_declaration name: (identifier) @name) @def.property
(event_declaration name: (identifier) @name) @def.property
(field_declaration
  (modifier) @_const
  (variable_declaration (variable_declarator name: (identifier) @name))
  (#eq? @_const "const")) @def.constant
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @def.field
(event_field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @def.field

(using_directive) @import

(invocation_expression function: (identifier) @name) @ref.calls
(invocation_expression function: (generic_name (identifier) @name)) @ref.calls
(invocation_expression
  function: (member_access_expression
    expression: _ @qualifier
    name: [(identifier) @name (generic_name (identifier) @name)])) @ref.calls
(object_creation_expression type: (identifier) @name) @ref.calls
(object_creation_expression type: (generic_name (identifier) @name)) @ref.calls
(object_creation_expression
  type: (qualified_name qualifier: (_) @qualifier name: (identifier) @name)) @ref.calls

(base_list (identifier) @name @ref.inherits)
(base_list (generic_name (identifier) @name) @ref.inherits)
(base_list (qualified_name qualifier: (_) @qualifier name: (identifier) @name) @ref.inherits)
(base_list (primary_constructor_base_type type: (identifier) @name) @ref.inherits)

(attribute name: (identifier) @name @ref.references)
(parameter type: (identifier) @name @ref.references)
(variable_declaration type: (identifier) @name @ref.references)
(property_declaration type: (identifier) @name @ref.references)
(method_declaration returns: (identifier) @name @ref.references)
(type_argument_list (identifier) @name @ref.references)
(type_parameter name: (identifier) @skip)

; typed parameters and locals hold an instance of their type: `Store store`
(parameter type: (identifier) @value name: (identifier) @name) @assign.type
(variable_declaration
  type: (identifier) @value
  (variable_declarator name: (identifier) @name)) @assign.type
(variable_declaration
  (variable_declarator
    name: (identifier) @name
    (object_creation_expression type: (identifier) @value))) @assign.call
(parameter name: (identifier) @name) @assign.other
(variable_declarator name: (identifier) @name) @assign.other

(comment) @comment
