; Extraction query for PHP: captures are explained in map/extraction/extract_matches.py.
; Attributes (`#[Entity]`) sit inside a declaration's node, so ranges include them.
; A namespace is not part of a node ID (as Java's package is not): `namespace A;`
; and `namespace A { }` give the same IDs.

(class_declaration name: (name) @name) @def.class
(interface_declaration name: (name) @name) @def.interface
(trait_declaration name: (name) @name) @def.interface
(enum_declaration name: (name) @name) @def.enum
(function_definition name: (name) @name) @def.function
(method_declaration name: (name) @name) @def.method
(declaration_list (const_declaration (const_element (name) @name)) @def.constant)
(program (const_declaration (const_element (name) @name)) @def.constant)
(namespace_definition body: (compound_statement (const_declaration (const_element (name) @name)) @def.constant))
(property_declaration (property_element name: (variable_name (name) @name))) @def.field
(enum_case name: (name) @name) @def.constant

(namespace_use_declaration) @import
(namespace_definition name: (namespace_name) @import)
(require_expression) @import
(require_once_expression) @import
(include_expression) @import
(include_once_expression) @import

(function_call_expression function: (name) @name) @ref.calls
(function_call_expression
  function: (qualified_name prefix: (_)? @qualifier (name) @name)) @ref.calls
(member_call_expression object: (_) @qualifier name: (name) @name) @ref.calls
(nullsafe_member_call_expression object: (_) @qualifier name: (name) @name) @ref.calls
(scoped_call_expression scope: (_) @qualifier name: (name) @name) @ref.calls
((object_creation_expression (name) @name) @ref.calls
  (#not-match? @name "^(parent)$"))
(object_creation_expression (qualified_name prefix: (_)? @qualifier (name) @name)) @ref.calls

(base_clause (name) @name @ref.inherits)
(base_clause (qualified_name prefix: (_)? @qualifier (name) @name) @ref.inherits)
(class_interface_clause (name) @name @ref.inherits)
(class_interface_clause (qualified_name prefix: (_)? @qualifier (name) @name) @ref.inherits)
(use_declaration (name) @name @ref.inherits)
(use_declaration (qualified_name prefix: (_)? @qualifier (name) @name) @ref.inherits)

(attribute (name) @name @ref.references)
((named_type (name) @name @ref.references)
  (#not-match? @name "^(static|self|parent)$"))
(named_type (qualified_name prefix: (_)? @qualifier (name) @name) @ref.references)
(class_constant_access_expression . (name) @name @ref.references)

; typed parameters hold an instance of their type: `Store $store` (`?Store`, `Store|null`)
(simple_parameter
  type: [(named_type [(name) (qualified_name)] @value)
        (optional_type (named_type [(name) (qualified_name)] @value))
        (union_type . (named_type (name) @value) . (primitive_type) .)
        (union_type . (primitive_type) . (named_type (name) @value) .)]
  name: (variable_name) @name) @assign.type
(property_promotion_parameter
  type: [(named_type [(name) (qualified_name)] @value)
        (optional_type (named_type [(name) (qualified_name)] @value))
        (union_type . (named_type (name) @value) . (primitive_type) .)
        (union_type . (primitive_type) . (named_type (name) @value) .)]
  name: (variable_name) @name) @assign.type
(assignment_expression
  left: (variable_name) @name
  right: (object_creation_expression [(name) (qualified_name)] @value)) @assign.call
; a call's result: `$r = $this->make()`, `$r = Router::create()` (what the call returns)
(assignment_expression
  left: (variable_name) @name
  right: [(member_call_expression) (nullsafe_member_call_expression)
          (scoped_call_expression) (function_call_expression)] @value) @assign.alias
; what a function or method returns, when it declares a class: `function make(): Results`
[(function_definition return_type: [(named_type [(name) (qualified_name)] @value)
                                    (optional_type (named_type [(name) (qualified_name)] @value))
                                    (union_type . (named_type (name) @value) . (primitive_type) .)
                                    (union_type . (primitive_type) . (named_type (name) @value) .)] @name)
 (method_declaration return_type: [(named_type [(name) (qualified_name)] @value)
                                   (optional_type (named_type [(name) (qualified_name)] @value))
                                   (union_type . (named_type (name) @value) . (primitive_type) .)
                                   (union_type . (primitive_type) . (named_type (name) @value) .)] @name)] @assign.returns
; what an object holds in a property: its declared type (`private Results $res;`, a
; promoted constructor parameter), or a new object given it in a method
(property_declaration
  type: [(named_type [(name) (qualified_name)] @value)
        (optional_type (named_type [(name) (qualified_name)] @value))
        (union_type . (named_type (name) @value) . (primitive_type) .)
        (union_type . (primitive_type) . (named_type (name) @value) .)]
  (property_element name: (variable_name (name) @name))) @assign.type
(property_promotion_parameter
  type: [(named_type [(name) (qualified_name)] @value)
        (optional_type (named_type [(name) (qualified_name)] @value))
        (union_type . (named_type (name) @value) . (primitive_type) .)
        (union_type . (primitive_type) . (named_type (name) @value) .)]
  name: (variable_name (name) @name)) @attr.type
(assignment_expression
  left: (member_access_expression object: (variable_name (name) @_self) name: (name) @name)
  right: (object_creation_expression [(name) (qualified_name)] @value)
  (#eq? @_self "this")) @attr.call
; `$this->x instanceof Router`: what the receiver may hold in the function, when its
; declared type is a library's (map.model.NARROWED)
(binary_expression left: (_) @name "instanceof" right: [(name) (qualified_name)] @value) @assign.narrow
; `foreach ($this->writers as $w)`, `as $k => $w`: one of what the container holds
(foreach_statement . (_) @each . [(variable_name) @name (pair (_) (variable_name) @name)]) @assign.type
; a docblock's classes: its param and var tags (map.extraction.docblocks)
(declaration_list
  (comment) @value . [(method_declaration) (property_declaration)] @name) @assign.doc
(program (comment) @value . (function_definition) @name) @assign.doc
(compound_statement (comment) @value . (function_definition) @name) @assign.doc
(simple_parameter name: (variable_name) @name) @assign.other
(assignment_expression left: (variable_name) @name) @assign.other

(comment) @comment
