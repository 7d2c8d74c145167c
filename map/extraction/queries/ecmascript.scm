; Patterns JavaScript, TypeScript and TSX share (their grammars name these nodes
; alike), appended to each one's own query: see map/extraction/languages.py. Captures are
; explained in map/extraction/extract_matches.py.

(function_declaration name: (identifier) @name) @def.function
(generator_function_declaration name: (identifier) @name) @def.function

(method_definition
  name: (property_identifier) @name
  (#eq? @name "constructor")) @def.constructor
(method_definition
  name: [(property_identifier) (private_property_identifier)] @name
  (#not-eq? @name "constructor")) @def.method

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
; what the file exports under another name: its default export, `export {a as b}`
(export_statement "default") @import
(export_statement (export_clause) !source) @import
((expression_statement
  (assignment_expression
    left: (member_expression object: (identifier) @_module property: (property_identifier) @_exports)
    right: (identifier)))
  (#eq? @_module "module")
  (#eq? @_exports "exports")) @import
(variable_declarator
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string)))
  (#eq? @_require "require")) @import

(call_expression function: (identifier) @name) @ref.calls
(call_expression
  function: (member_expression
    object: (_) @qualifier
    property: [(property_identifier) (private_property_identifier)] @name)) @ref.calls
(new_expression constructor: (identifier) @name) @ref.calls
(new_expression
  constructor: (member_expression
    object: (_) @qualifier
    property: (property_identifier) @name)) @ref.calls

(comment) @comment

; a local given a call's result or a new instance (map.linking.values), and an
; attribute given one in a method (`this.tree = new Tree()`)
(variable_declarator
  name: (identifier) @name
  value: (call_expression function: [(identifier) (member_expression)] @value)) @assign.call
(variable_declarator
  name: (identifier) @name
  value: (new_expression constructor: [(identifier) (member_expression)] @value)) @assign.call
(assignment_expression
  left: (member_expression object: (this) property: (property_identifier) @name)
  right: (new_expression constructor: [(identifier) (member_expression)] @value)) @attr.call

; local names (unknown values): they hide what they shadow in their block
; (map/extraction/block_locals.py keeps a callback's apart from the file's)
(variable_declarator name: (identifier) @name) @assign.other
(variable_declarator name: (array_pattern (identifier) @name)) @assign.other
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @name)) @assign.other
(variable_declarator name: (object_pattern (pair_pattern value: (identifier) @name))) @assign.other
(arrow_function parameter: (identifier) @name) @assign.other
(for_in_statement left: (identifier) @name) @assign.other
(catch_clause parameter: (identifier) @name) @assign.other
