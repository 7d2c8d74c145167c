; Extraction query for Python: captures are explained in map/extraction/extract_matches.py.

(class_definition name: (identifier) @name) @def.class

(function_definition name: (identifier) @name) @def.function

; module-level constants: UPPER_CASE assignments
(module
  (expression_statement
    (assignment left: (identifier) @name) @def.constant)
  (#match? @name "^_*[A-Z][A-Z0-9_]*$"))

; local names given a class instance or another name: `app = Flask()`, `f = mod.func`
; (an annotation, below, wins over the value)
(assignment
  left: (identifier) @name
  right: (call function: [(identifier) (attribute)] @value)) @assign.call
(assignment left: (identifier) @name right: [(identifier) (attribute)] @value) @assign.alias
; any other local name (a parameter, a loop variable, another value) is unknown, and
; hides the imports and module names it shadows
(assignment left: (identifier) @name) @assign.other
(parameters (identifier) @name) @assign.other
(default_parameter name: (identifier) @name) @assign.other
(parameters (list_splat_pattern (identifier) @name)) @assign.other
(parameters (dictionary_splat_pattern (identifier) @name)) @assign.other
(for_statement left: (identifier) @name) @assign.other
; a loop variable holds one of what its iterable holds (`for line in lines`, a comprehension's)
(for_statement left: (identifier) @name right: (_) @each) @assign.type
(for_in_clause left: (identifier) @name right: (_) @each) @assign.type
(as_pattern alias: (as_pattern_target (identifier) @name)) @assign.other
; an annotated name or parameter holds an instance of its (plain) type: `app: Flask`
(assignment left: (identifier) @name type: (type [(identifier) (attribute)] @value)) @assign.type
(typed_parameter (identifier) @name type: (type [(identifier) (attribute)] @value)) @assign.type
(typed_default_parameter
  name: (identifier) @name type: (type [(identifier) (attribute)] @value)) @assign.type

; the same, annotated with a forward reference (a string naming a plain type): `options: "ConsoleOptions"`
(assignment
  left: (identifier) @name type: (type (string (string_content) @value))
  (#match? @value "^[A-Za-z_][A-Za-z0-9_.]*$")) @assign.type
(typed_parameter
  (identifier) @name type: (type (string (string_content) @value))
  (#match? @value "^[A-Za-z_][A-Za-z0-9_.]*$")) @assign.type
(typed_default_parameter
  name: (identifier) @name type: (type (string (string_content) @value))
  (#match? @value "^[A-Za-z_][A-Za-z0-9_.]*$")) @assign.type

; the same, annotated with a container of a plain type: `lines: List[Line]`, `Sequence["Line"]`
(assignment
  left: (identifier) @name
  type: (type [(generic_type (identifier) @_c (type_parameter . (type [(identifier) (attribute) (string)] @elements)))
               (subscript value: [(identifier) (attribute)] @_c subscript: [(identifier) (attribute) (string)] @elements)])
  (#match? @_c "(^|[.])(List|list|Sequence|MutableSequence|Iterable|Iterator|Collection|Set|set|FrozenSet|frozenset|AbstractSet|Deque|deque|Generator|AsyncIterable|AsyncIterator|AsyncGenerator)$")) @assign.type
(typed_parameter
  (identifier) @name
  type: (type [(generic_type (identifier) @_c (type_parameter . (type [(identifier) (attribute) (string)] @elements)))
               (subscript value: [(identifier) (attribute)] @_c subscript: [(identifier) (attribute) (string)] @elements)])
  (#match? @_c "(^|[.])(List|list|Sequence|MutableSequence|Iterable|Iterator|Collection|Set|set|FrozenSet|frozenset|AbstractSet|Deque|deque|Generator|AsyncIterable|AsyncIterator|AsyncGenerator)$")) @assign.type
(typed_default_parameter
  name: (identifier) @name
  type: (type [(generic_type (identifier) @_c (type_parameter . (type [(identifier) (attribute) (string)] @elements)))
               (subscript value: [(identifier) (attribute)] @_c subscript: [(identifier) (attribute) (string)] @elements)])
  (#match? @_c "(^|[.])(List|list|Sequence|MutableSequence|Iterable|Iterator|Collection|Set|set|FrozenSet|frozenset|AbstractSet|Deque|deque|Generator|AsyncIterable|AsyncIterator|AsyncGenerator)$")) @assign.type
(function_definition
  return_type: (type [(generic_type (identifier) @_c (type_parameter . (type [(identifier) (attribute) (string)] @elements)))
                      (subscript value: [(identifier) (attribute)] @_c subscript: [(identifier) (attribute) (string)] @elements)]) @name
  (#match? @_c "(^|[.])(List|list|Sequence|MutableSequence|Iterable|Iterator|Collection|Set|set|FrozenSet|frozenset|AbstractSet|Deque|deque|Generator|AsyncIterable|AsyncIterator|AsyncGenerator)$")) @assign.returns
(assignment
  left: (attribute object: (identifier) @_self attribute: (identifier) @name)
  type: (type [(generic_type (identifier) @_c (type_parameter . (type [(identifier) (attribute) (string)] @elements)))
               (subscript value: [(identifier) (attribute)] @_c subscript: [(identifier) (attribute) (string)] @elements)])
  (#eq? @_self "self")
  (#match? @_c "(^|[.])(List|list|Sequence|MutableSequence|Iterable|Iterator|Collection|Set|set|FrozenSet|frozenset|AbstractSet|Deque|deque|Generator|AsyncIterable|AsyncIterator|AsyncGenerator)$")) @attr.type

; an optional one (`Context | None`, `Optional["Context"]`) holds the same when it holds anything
(assignment left: (identifier) @name type: (type [(binary_operator left: [(identifier) (attribute)] @value right: (none))
               (binary_operator left: (none) right: [(identifier) (attribute)] @value)
               (generic_type (identifier) @_o (type_parameter . (type [(identifier) (attribute)] @value) .))
               (generic_type (identifier) @_o (type_parameter . (type (string (string_content) @value)) .))
               (subscript value: [(identifier) (attribute)] @_o subscript: [(identifier) (attribute)] @value .)])
  (#match? @_o "(^|[.])Optional$")) @assign.type
(typed_parameter (identifier) @name type: (type [(binary_operator left: [(identifier) (attribute)] @value right: (none))
               (binary_operator left: (none) right: [(identifier) (attribute)] @value)
               (generic_type (identifier) @_o (type_parameter . (type [(identifier) (attribute)] @value) .))
               (generic_type (identifier) @_o (type_parameter . (type (string (string_content) @value)) .))
               (subscript value: [(identifier) (attribute)] @_o subscript: [(identifier) (attribute)] @value .)])
  (#match? @_o "(^|[.])Optional$")) @assign.type
(typed_default_parameter name: (identifier) @name type: (type [(binary_operator left: [(identifier) (attribute)] @value right: (none))
               (binary_operator left: (none) right: [(identifier) (attribute)] @value)
               (generic_type (identifier) @_o (type_parameter . (type [(identifier) (attribute)] @value) .))
               (generic_type (identifier) @_o (type_parameter . (type (string (string_content) @value)) .))
               (subscript value: [(identifier) (attribute)] @_o subscript: [(identifier) (attribute)] @value .)])
  (#match? @_o "(^|[.])Optional$")) @assign.type
(function_definition return_type: (type [(binary_operator left: [(identifier) (attribute)] @value right: (none))
               (binary_operator left: (none) right: [(identifier) (attribute)] @value)
               (generic_type (identifier) @_o (type_parameter . (type [(identifier) (attribute)] @value) .))
               (generic_type (identifier) @_o (type_parameter . (type (string (string_content) @value)) .))
               (subscript value: [(identifier) (attribute)] @_o subscript: [(identifier) (attribute)] @value .)]) @name
  (#match? @_o "(^|[.])Optional$")) @assign.returns
(assignment
  left: (attribute object: (identifier) @_self attribute: (identifier) @name)
  type: (type [(binary_operator left: [(identifier) (attribute)] @value right: (none))
               (binary_operator left: (none) right: [(identifier) (attribute)] @value)
               (generic_type (identifier) @_o (type_parameter . (type [(identifier) (attribute)] @value) .))
               (generic_type (identifier) @_o (type_parameter . (type (string (string_content) @value)) .))
               (subscript value: [(identifier) (attribute)] @_o subscript: [(identifier) (attribute)] @value .)])
  (#eq? @_self "self")
  (#match? @_o "(^|[.])Optional$")) @attr.type

; a name annotated as a class itself holds the class, as an alias does: `undefined: type[Undefined]`
(assignment left: (identifier) @name type: (type [(generic_type (identifier) @_t (type_parameter . (type [(identifier) (attribute)] @value)))
               (generic_type (identifier) @_t (type_parameter . (type (string (string_content) @value))))
               (subscript value: [(identifier) (attribute)] @_t subscript: [(identifier) (attribute)] @value)])
  (#match? @_t "(^|[.])(type|Type)$")) @assign.alias
(typed_parameter (identifier) @name type: (type [(generic_type (identifier) @_t (type_parameter . (type [(identifier) (attribute)] @value)))
               (generic_type (identifier) @_t (type_parameter . (type (string (string_content) @value))))
               (subscript value: [(identifier) (attribute)] @_t subscript: [(identifier) (attribute)] @value)])
  (#match? @_t "(^|[.])(type|Type)$")) @assign.alias
(typed_default_parameter name: (identifier) @name type: (type [(generic_type (identifier) @_t (type_parameter . (type [(identifier) (attribute)] @value)))
               (generic_type (identifier) @_t (type_parameter . (type (string (string_content) @value))))
               (subscript value: [(identifier) (attribute)] @_t subscript: [(identifier) (attribute)] @value)])
  (#match? @_t "(^|[.])(type|Type)$")) @assign.alias
(assignment
  left: (attribute object: (identifier) @_self attribute: (identifier) @name)
  type: (type [(generic_type (identifier) @_t (type_parameter . (type [(identifier) (attribute)] @value)))
               (generic_type (identifier) @_t (type_parameter . (type (string (string_content) @value))))
               (subscript value: [(identifier) (attribute)] @_t subscript: [(identifier) (attribute)] @value)])
  (#eq? @_self "self")
  (#match? @_t "(^|[.])(type|Type)$")) @attr.alias

; what a function returns, when annotated with a plain type: `def test_client() -> FlaskClient`
; (or a forward reference to one: `-> "Segment"`)
(function_definition return_type: (type [(identifier) (attribute)] @value) @name) @assign.returns
(function_definition
  return_type: (type (string (string_content) @value)) @name
  (#match? @value "^[A-Za-z_][A-Za-z0-9_.]*$")) @assign.returns

; a method that returns its own object returns an instance of its class: annotated
; `-> Self` or with its `self`'s TypeVar (`def __enter__(self: T) -> T`), or unannotated
; with `return self` (a fluent builder's, a context manager's `__enter__`)
(class_definition
  name: (identifier) @value
  body: (block [
    (function_definition
      parameters: (parameters . (typed_parameter (identifier) type: (type (identifier) @_p)))
      return_type: (type (identifier) @_r) @name)
    (decorated_definition definition: (function_definition
      parameters: (parameters . (typed_parameter (identifier) type: (type (identifier) @_p)))
      return_type: (type (identifier) @_r) @name))])
  (#eq? @_p @_r)) @assign.returns.own
(class_definition
  name: (identifier) @value
  body: (block [
    (function_definition return_type: (type [(identifier) (attribute)] @_r) @name)
    (decorated_definition definition: (function_definition
      return_type: (type [(identifier) (attribute)] @_r) @name))])
  (#match? @_r "^((typing|typing_extensions)[.])?Self$")) @assign.returns.own
(class_definition
  name: (identifier) @value
  body: (block [
    (function_definition
      parameters: (parameters) @name !return_type
      body: (block (return_statement (identifier) @_s)))
    (decorated_definition definition: (function_definition
      parameters: (parameters) @name !return_type
      body: (block (return_statement (identifier) @_s))))])
  (#eq? @_s "self")) @assign.returns.own

; `with X() as name` (and `async with`): the name holds what X's `__enter__` returns
(with_statement (with_clause (with_item
  value: (as_pattern (call function: [(identifier) (attribute)] @value)
                     alias: (as_pattern_target (identifier) @name))))) @assign.enter

; what a pytest fixture gives (returns or yields: a call's result, or a name's value),
; in its body or a `with` block there: `return CliRunner()`, `yield app`; the value a
; test's (or another fixture's) parameter of the fixture's name holds
(decorated_definition
  (decorator) @_fixture
  definition: (function_definition
    body: (block
      [(return_statement (call function: [(identifier) (attribute)] @value) @name)
       (expression_statement (yield (call function: [(identifier) (attribute)] @value) @name))
       (with_statement body: (block [
         (return_statement (call function: [(identifier) (attribute)] @value) @name)
         (expression_statement (yield (call function: [(identifier) (attribute)] @value) @name))]))]))
  (#match? @_fixture "fixture")) @assign.gives
(decorated_definition
  (decorator) @_fixture
  definition: (function_definition
    body: (block
      [(return_statement [(identifier) (attribute)] @value @name)
       (expression_statement (yield [(identifier) (attribute)] @value @name))
       (with_statement body: (block [
         (return_statement [(identifier) (attribute)] @value @name)
         (expression_statement (yield [(identifier) (attribute)] @value @name))]))]))
  (#match? @_fixture "fixture")) @assign.gives.alias

; instance attributes, given in methods: `self.app = app`, `self.json: JSONProvider = ...`
(assignment
  left: (attribute object: (identifier) @_self attribute: (identifier) @name)
  right: (call function: [(identifier) (attribute)] @value)
  (#eq? @_self "self")) @attr.call
(assignment
  left: (attribute object: (identifier) @_self attribute: (identifier) @name)
  right: [(identifier) (attribute)] @value
  (#eq? @_self "self")) @attr.alias
(assignment
  left: (attribute object: (identifier) @_self attribute: (identifier) @name)
  type: (type [(identifier) (attribute)] @value)
  (#eq? @_self "self")) @attr.type

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
; a generic base: `class TimedSerializer(Serializer[T])`
(class_definition
  superclasses: (argument_list (subscript value: (identifier) @name @ref.inherits)))
(class_definition
  superclasses: (argument_list
    (subscript value: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.inherits)))

; names in annotations
(typed_parameter type: (type) @ref.types)
(typed_default_parameter type: (type) @ref.types)
(function_definition return_type: (type) @ref.types)
(assignment type: (type) @ref.types)

; exception classes caught (not the `as` name)
(except_clause value: [(identifier) (attribute) (tuple)] @ref.types)
(except_clause value: (as_pattern . (_) @ref.types))

; a decorator is called with the function it decorates
(decorator (identifier) @name @ref.calls)
(decorator (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.calls)

; functions passed as values: arguments, keyword values, right-hand sides, returns,
; collection items (a local variable resolves to nothing and costs only its lookup)
([(argument_list (identifier) @name)
  (keyword_argument value: (identifier) @name)
  (assignment right: (identifier) @name)
  (return_statement (identifier) @name)
  (list (identifier) @name)
  (tuple (identifier) @name)
  (pair value: (identifier) @name)]) @ref.references
([(argument_list (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (keyword_argument value: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (assignment right: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (return_statement (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (list (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (tuple (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (pair value: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)])

(comment) @comment

; attributes read inside expressions (a property's reads: `segment.cell_length + 1`)
([(binary_operator [(attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references])
  (comparison_operator (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (boolean_operator [(attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references])
  (not_operator (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (unary_operator (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (subscript value: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (generator_expression body: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (list_comprehension body: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (set_comprehension body: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (if_statement condition: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (while_statement condition: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (conditional_expression (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (augmented_assignment right: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (interpolation expression: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (for_statement right: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (for_in_clause right: (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (expression_list (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (assert_statement (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (parenthesized_expression (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)
  (await (attribute object: (_) @qualifier attribute: (identifier) @name) @ref.references)])
