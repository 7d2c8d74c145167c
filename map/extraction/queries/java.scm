; Extraction query for Java: captures are explained in map/extraction/extract_matches.py.
; Annotations sit inside a declaration's modifiers, so ranges include them.

(class_declaration name: (identifier) @name) @def.class
(record_declaration name: (identifier) @name) @def.class
(interface_declaration name: (identifier) @name) @def.interface
(annotation_type_declaration name: (identifier) @name) @def.interface
(enum_declaration name: (identifier) @name) @def.enum
(method_declaration name: (identifier) @name) @def.method
(constructor_declaration name: (identifier) @name) @def.constructor
(field_declaration
  (modifiers "static" "final")
  declarator: (variable_declarator name: (identifier) @name)) @def.constant

(import_declaration) @import

(method_invocation !object name: (identifier) @name) @ref.calls
(method_invocation object: (_) @qualifier name: (identifier) @name) @ref.calls
(object_creation_expression type: (type_identifier) @name) @ref.calls
(object_creation_expression type: (generic_type (type_identifier) @name)) @ref.calls
(object_creation_expression
  type: (scoped_type_identifier (_) @qualifier . (type_identifier) @name .)) @ref.calls

(marker_annotation name: (identifier) @name @ref.references)
(annotation name: (identifier) @name @ref.references)

(superclass (type_identifier) @name @ref.inherits)
(superclass (generic_type (type_identifier) @name) @ref.inherits)
(superclass (scoped_type_identifier (_) @qualifier . (type_identifier) @name .) @ref.inherits)
(type_list (type_identifier) @name @ref.inherits)
(type_list (generic_type (type_identifier) @name) @ref.inherits)
(type_list (scoped_type_identifier (_) @qualifier . (type_identifier) @name .) @ref.inherits)

(type_identifier) @name @ref.references
(scoped_type_identifier (_) @qualifier . (type_identifier) @name .) @ref.references
(type_parameter (type_identifier) @skip)

; typed parameters, locals and fields hold an instance of their type: `Store store`,
; `List<String> xs` (java.util's: not ours); `var c = new Cache()` a Cache
(formal_parameter type: (_) @value name: (identifier) @name) @assign.type
(local_variable_declaration
  type: (_) @value
  declarator: (variable_declarator name: (identifier) @name)
  (#not-eq? @value "var")) @assign.type
(local_variable_declaration
  declarator: (variable_declarator
    name: (identifier) @name
    value: (object_creation_expression type: (_) @value))) @assign.call
(field_declaration type: (_) @value declarator: (variable_declarator name: (identifier) @name)) @assign.type
(enhanced_for_statement type: (_) @value name: (identifier) @name (#not-eq? @value "var")) @assign.type
(formal_parameter name: (identifier) @name) @assign.other
(catch_formal_parameter name: (identifier) @name) @assign.other
(enhanced_for_statement name: (identifier) @name) @assign.other
(lambda_expression parameters: (identifier) @name) @assign.other
(inferred_parameters (identifier) @name) @assign.other
(variable_declarator name: (identifier) @name) @assign.other

(line_comment) @comment
(block_comment) @comment
