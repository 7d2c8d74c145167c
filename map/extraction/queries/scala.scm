; Extraction query for Scala: captures are explained in map/extraction/extract_matches.py.
; Annotations sit inside a definition's node, so ranges include them. A class and
; its companion object in one file share a name: the object is `Name~2`.

(class_definition name: (identifier) @name) @def.class
(object_definition name: (identifier) @name) @def.class
(trait_definition name: (identifier) @name) @def.interface
(enum_definition name: (identifier) @name) @def.enum
(type_definition name: (type_identifier) @name) @def.type
(function_definition name: (identifier) @name) @def.function
(function_declaration name: (identifier) @name) @def.function
(given_definition name: (identifier) @name) @def.variable
(template_body (val_definition pattern: (identifier) @name) @def.property)
(template_body (var_definition pattern: (identifier) @name) @def.property)
(template_body (val_declaration name: (identifier) @name) @def.property)
(compilation_unit (val_definition pattern: (identifier) @name) @def.constant)

(import_declaration) @import

(call_expression function: (identifier) @name) @ref.calls
(call_expression function: (generic_function function: (identifier) @name)) @ref.calls
(call_expression
  function: (field_expression value: (_) @qualifier field: (identifier) @name)) @ref.calls
(call_expression
  function: (generic_function
    function: (field_expression value: (_) @qualifier field: (identifier) @name))) @ref.calls
(instance_expression . (type_identifier) @name) @ref.calls
(instance_expression . (generic_type type: (type_identifier) @name)) @ref.calls

; (only the first of several `type:` children answers to the field name)
(extends_clause (type_identifier) @name @ref.inherits)
(extends_clause (generic_type type: (type_identifier) @name) @ref.inherits)

(annotation name: (type_identifier) @name @ref.references)
(type_identifier) @name @ref.references
(type_parameters name: (identifier) @skip)

; typed parameters hold an instance of their type; a value built with `new`
(parameter name: (identifier) @name type: (type_identifier) @value) @assign.type
(class_parameter name: (identifier) @name type: (type_identifier) @value) @assign.type
(val_definition pattern: (identifier) @name type: (type_identifier) @value) @assign.type
(val_definition
  pattern: (identifier) @name
  value: (instance_expression . (type_identifier) @value)) @assign.call
(parameter name: (identifier) @name) @assign.other
(val_definition pattern: (identifier) @name) @assign.other
(var_definition pattern: (identifier) @name) @assign.other

(comment) @comment
(block_comment) @comment
