; Extraction query for Ruby: captures are explained in map/extraction/extract_matches.py.
; A method is a function until map.extraction.extract finds it in a class; `def self.x` alike.

(class name: [(constant) (scope_resolution)] @name) @def.class
(module name: [(constant) (scope_resolution)] @name) @def.module
(method name: (_) @name) @def.function
(singleton_method name: (_) @name) @def.function
(alias name: (identifier) @name) @def.function

; constants given at the top of a file, a module or a class: `MAX = 10`
((program (assignment left: (constant) @name) @def.constant))
(body_statement (assignment left: (constant) @name) @def.constant)

(call
  method: (identifier) @_require
  arguments: (argument_list . (string))
  (#match? @_require "^(require|require_relative|load)$")) @import

; calls, with or without a receiver; `include`/`extend`/`prepend` mix a module in
(call
  method: (identifier) @_mixin
  arguments: (argument_list
    [(constant) @name
     (scope_resolution scope: (_) @qualifier name: (constant) @name)] @ref.inherits)
  (#match? @_mixin "^(include|extend|prepend)$"))
(call
  !receiver
  method: (identifier) @name
  (#not-match? @name "^(require|require_relative|load|include|extend|prepend)$")) @ref.calls
(call
  receiver: (_) @qualifier
  method: [(identifier) (constant)] @name
  (#not-eq? @name "new")) @ref.calls
; `Token.new` builds a Token: a call of the class
(call receiver: (constant) @name method: (identifier) @_new (#eq? @_new "new")) @ref.calls
(call
  receiver: (scope_resolution scope: (_) @qualifier name: (constant) @name)
  method: (identifier) @_new
  (#eq? @_new "new")) @ref.calls

; a method called without arguments or parentheses (`warn "up" if ping`): a bare name
; in a value's place, a use of the method unless a local of that name holds it
(body_statement (identifier) @name @ref.values)
(parenthesized_statements (identifier) @name @ref.values)
(_ condition: (identifier) @name) @ref.values
(binary left: (identifier) @name) @ref.values
(binary right: (identifier) @name) @ref.values
(unary operand: (identifier) @name) @ref.values
(argument_list (identifier) @name @ref.values)
(assignment right: (identifier) @name) @ref.values
(operator_assignment right: (identifier) @name) @ref.values

(superclass (constant) @name @ref.inherits)
(superclass (scope_resolution scope: (_) @qualifier name: (constant) @name) @ref.inherits)

(constant) @name @ref.references
(scope_resolution scope: (_) @qualifier name: (constant) @name) @ref.references

; local names: parameters, block parameters, plain assignments (unknown values)
(method_parameters (identifier) @name) @assign.other
(block_parameters (identifier) @name) @assign.other
(optional_parameter name: (identifier) @name) @assign.other
(keyword_parameter name: (identifier) @name) @assign.other
(assignment
  left: (identifier) @name
  right: (call receiver: (constant) @value method: (identifier) @_new)
  (#eq? @_new "new")) @assign.call
(assignment left: (identifier) @name) @assign.other

(comment) @comment
