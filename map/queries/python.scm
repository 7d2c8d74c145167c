; Extraction query for Python: captures are explained in map/extract_matches.py.

(class_definition name: (identifier) @name) @def.class

(function_definition name: (identifier) @name) @def.function

; module-level constants: UPPER_CASE assignments
(module
  (expression_statement
    (assignment left: (identifier) @name) @def.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

(import_statement) @import
(import_from_statement) @import

(call function: (identifier) @name) @ref.calls
(call
  function: (attribute
    object: (_) @qualifier
    attribute: (identifier) @name)) @ref.calls

(class_definition
  superclasses: (argument_list (identifier) @name @ref.inherits))
(class_definition
  superclasses: (argument_list
    (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.inherits))

; names in annotations
(typed_parameter type: (type) @ref.types)
(typed_default_parameter type: (type) @ref.types)
(function_definition return_type: (type) @ref.types)
(assignment type: (type) @ref.types)

; exception classes caught (not the `as` name)
(except_clause value: [(identifier) (attribute) (tuple)] @ref.types)
(except_clause value: (as_pattern . (_) @ref.types))

(decorator (identifier) @name @ref.references)
(decorator (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)

(comment) @comment
