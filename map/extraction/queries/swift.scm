; Extraction query for Swift: captures are explained in map/extraction/extract_matches.py.
; Attributes sit inside a declaration's modifiers, so ranges include them. An
; extension qualifies its members by the type it extends (a container, as a Rust
; `impl`): `extension Session { func twice() }` gives Session.twice.

(class_declaration "class" name: (type_identifier) @name) @def.class
(class_declaration "actor" name: (type_identifier) @name) @def.class
(class_declaration "struct" name: (type_identifier) @name) @def.struct
(class_declaration "enum" name: (type_identifier) @name) @def.enum
(class_declaration "extension" name: (user_type (type_identifier) @name)) @container
(protocol_declaration name: (type_identifier) @name) @def.interface
(typealias_declaration name: (type_identifier) @name) @def.type
(function_declaration name: (simple_identifier) @name) @def.function
(protocol_function_declaration name: (simple_identifier) @name) @def.method
(init_declaration "init" @name) @def.constructor
(class_body (property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @def.property)
(protocol_body
  (protocol_property_declaration
    name: (pattern bound_identifier: (simple_identifier) @name)) @def.property)
(source_file
  (property_declaration
    (value_binding_pattern "let")
    name: (pattern bound_identifier: (simple_identifier) @name)) @def.constant)

(import_declaration) @import

(call_expression . (simple_identifier) @name) @ref.calls
(call_expression
  . (navigation_expression
    target: _ @qualifier
    suffix: (navigation_suffix suffix: (simple_identifier) @name))) @ref.calls

(inheritance_specifier inherits_from: (user_type (type_identifier) @name) @ref.inherits)

(attribute (user_type (type_identifier) @name) @ref.references)
(user_type (type_identifier) @name @ref.references)
(type_parameter (type_identifier) @skip)

; typed parameters and properties hold an instance of their type
(parameter name: (simple_identifier) @name (user_type (type_identifier) @value)) @assign.type
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @name)
  (type_annotation (user_type (type_identifier) @value))) @assign.type
(property_declaration
  name: (pattern bound_identifier: (simple_identifier) @name)
  value: (call_expression . (simple_identifier) @value)) @assign.call
(parameter name: (simple_identifier) @name) @assign.other
(property_declaration name: (pattern bound_identifier: (simple_identifier) @name)) @assign.other

(comment) @comment
(multiline_comment) @comment
