; Extraction query for Rust: captures are explained in map/extraction/extract_matches.py.
; An `impl` qualifies its functions by the implemented type (a container).

(struct_item name: (type_identifier) @name) @def.struct
(union_item name: (type_identifier) @name) @def.struct
(enum_item name: (type_identifier) @name) @def.enum
(trait_item name: (type_identifier) @name) @def.interface
(type_item name: (type_identifier) @name) @def.type
(mod_item name: (identifier) @name) @def.module
(function_item name: (identifier) @name) @def.function
(function_signature_item name: (identifier) @name) @def.function
(macro_definition name: (identifier) @name) @def.function
(const_item name: (identifier) @name) @def.constant
(static_item name: (identifier) @name) @def.variable
(impl_item type: (_) @name) @container

(use_declaration) @import
(extern_crate_declaration) @import

(call_expression function: (identifier) @name) @ref.calls
(call_expression
  function: (field_expression value: (_) @qualifier field: (field_identifier) @name)) @ref.calls
(call_expression
  function: (scoped_identifier path: (_) @qualifier name: (identifier) @name)) @ref.calls
(call_expression function: (generic_function function: (identifier) @name)) @ref.calls
(call_expression
  function: (generic_function
    function: (scoped_identifier path: (_) @qualifier name: (identifier) @name))) @ref.calls
(call_expression
  function: (generic_function
    function: (field_expression value: (_) @qualifier field: (field_identifier) @name))) @ref.calls
(macro_invocation macro: (identifier) @name) @ref.calls
(struct_expression name: (type_identifier) @name) @ref.calls
(struct_expression
  name: (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name)) @ref.calls

(impl_item trait: (type_identifier) @name @ref.inherits)
(impl_item trait: (generic_type type: (type_identifier) @name) @ref.inherits)
(impl_item
  trait: (scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name) @ref.inherits)
(trait_item bounds: (trait_bounds (type_identifier) @name @ref.inherits))

((type_identifier) @name @ref.references
  (#not-eq? @name "Self"))
(scoped_type_identifier path: (_) @qualifier name: (type_identifier) @name) @ref.references
(type_parameter name: (type_identifier) @skip)

; typed parameters, locals and struct fields hold an instance of their type (`c: &Config`,
; `items: HashMap<..>`: std's, not ours); `let c = Config::new()` a Config
(parameter pattern: (identifier) @name type: (_) @value) @assign.type
(let_declaration pattern: (identifier) @name type: (_) @value) @assign.type
(let_declaration
  pattern: (identifier) @name
  value: (call_expression
    function: (scoped_identifier path: (_) @value name: (identifier) @_made))
  (#match? @_made "^(new|default|from|with_[a-z_]+)$")) @assign.call
(field_declaration name: (field_identifier) @name type: (_) @value) @assign.type
(parameter pattern: (identifier) @name) @assign.other
(let_declaration pattern: (identifier) @name) @assign.other
(closure_parameters (identifier) @name) @assign.other

(line_comment) @comment
(block_comment) @comment
