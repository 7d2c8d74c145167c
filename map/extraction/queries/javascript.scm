; Extraction query for JavaScript (and JSX), before the patterns shared with TypeScript
; (ecmascript.scm): captures are explained in map/extraction/extract_matches.py.

(class_declaration name: (identifier) @name) @def.class

; class fields holding functions (`handle = () => {...}`) act as methods
(field_definition
  property: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @def.method

(class_heritage (identifier) @name @ref.inherits)
(class_heritage
  (member_expression object: (_) @qualifier property: (property_identifier) @name) @ref.inherits)

((jsx_opening_element name: (identifier) @name @ref.calls)
  (#match? @name "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @name @ref.calls)
  (#match? @name "^[A-Z]"))

; parameters are locals (see ecmascript.scm's)
(formal_parameters (identifier) @name) @assign.other
(formal_parameters (assignment_pattern left: (identifier) @name)) @assign.other
(formal_parameters (rest_pattern (identifier) @name)) @assign.other
