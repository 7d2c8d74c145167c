; Extraction query for Kotlin: captures are explained in map/extraction/extract_matches.py.
; Annotations sit inside a declaration's modifiers, so ranges include them. A
; companion object's members belong to its class (`Session.open()`); an extension
; function is qualified by the type it extends (`fun Session.twice()`: Session.twice).

(class_declaration "interface" name: (identifier) @name) @def.interface
(class_declaration
  (modifiers (class_modifier) @_enum)
  name: (identifier) @name
  (#eq? @_enum "enum")) @def.enum
(class_declaration name: (identifier) @name) @def.class
(object_declaration name: (identifier) @name) @def.class
(type_alias type: (identifier) @name) @def.type
(function_declaration
  . (user_type (identifier) @prefix) . "."
  name: (identifier) @name) @def.method
(function_declaration name: (identifier) @name) @def.function
(secondary_constructor) @name @def.constructor
(source_file
  (property_declaration
    (modifiers (property_modifier) @_const)
    (variable_declaration (identifier) @name)
    (#eq? @_const "const")) @def.constant)
(class_body (property_declaration (variable_declaration (identifier) @name)) @def.property)

(import) @import

(call_expression . (identifier) @name) @ref.calls
(call_expression
  . (navigation_expression (_) @qualifier . (identifier) @name .)) @ref.calls

(delegation_specifier (constructor_invocation (user_type (identifier) @name)) @ref.inherits)
(delegation_specifier (user_type (identifier) @name) @ref.inherits)

(annotation (user_type (identifier) @name) @ref.references)
(annotation (constructor_invocation (user_type (identifier) @name)) @ref.references)
(user_type (identifier) @name @ref.references)
(type_parameter (identifier) @skip)

; typed parameters and properties hold an instance of their type
(parameter (identifier) @name . (user_type (identifier) @value)) @assign.type
(class_parameter (identifier) @name . (user_type (identifier) @value)) @assign.type
(property_declaration
  (variable_declaration (identifier) @name)
  (call_expression . (identifier) @value)) @assign.call
(parameter (identifier) @name) @assign.other
(property_declaration (variable_declaration (identifier) @name)) @assign.other

(line_comment) @comment
(block_comment) @comment
