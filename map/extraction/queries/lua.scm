; Extraction query for Lua: captures are explained in map/extraction/extract_matches.py.
; A table given at the top of a file (`local M = {}`) is a module; `function M.f()`
; is its function M.f, and `function M:f()` (with an implicit `self`) its method.

(chunk
  (variable_declaration
    (assignment_statement
      (variable_list . name: (identifier) @name .)
      (expression_list . value: (table_constructor) .))) @def.module)
(chunk
  (assignment_statement
    (variable_list . name: (identifier) @name .)
    (expression_list . value: (table_constructor) .)) @def.module)
(function_declaration name: (identifier) @name) @def.function
(function_declaration
  name: (dot_index_expression table: (_) @prefix field: (identifier) @name)) @def.function
(function_declaration
  name: (method_index_expression table: (_) @prefix method: (identifier) @name)) @def.method
(assignment_statement
  (variable_list . name: (identifier) @name .)
  (expression_list . value: (function_definition) .)) @def.function
(assignment_statement
  (variable_list . name: (dot_index_expression table: (_) @prefix field: (identifier) @name) .)
  (expression_list . value: (function_definition) .)) @def.function

; `local m = require("a.b")`, `require "a.b"`
(function_call
  name: (identifier) @_require
  arguments: [(arguments . (string)) (string)]
  (#eq? @_require "require")) @import

((function_call name: (identifier) @name) @ref.calls
  (#not-eq? @name "require"))
(function_call
  name: (dot_index_expression table: (_) @qualifier field: (identifier) @name)) @ref.calls
(function_call
  name: (method_index_expression table: (_) @qualifier method: (identifier) @name)) @ref.calls

; local names: parameters and loop variables are unknown
(parameters name: (identifier) @name) @assign.other
(for_generic_clause (variable_list name: (identifier) @name)) @assign.other
(for_numeric_clause name: (identifier) @name) @assign.other

(comment) @comment
