"""What a syntax node's text says: a name without its namespace or generic
arguments, the receiver or module qualifying a use, the shape of a Go value."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from tree_sitter import Node

COMPLEX_QUALIFIER = "<expr>"
"""The qualifier of a receiver that is not a plain (dotted) name: `f().g()`."""
CALLED = "()"
"""Marks a call in a qualifier (`make()` in `make().run()`): what it returns."""
ELEMENT = "[]"
"""Marks what a container holds: the value `[]Flag` holds Flags (a Go slice or map of
them, a Python `list[Flag]`), `chain[]` is one of what `chain` holds (a `range` or
`for` variable)."""
SUPER_CALL = "super" + CALLED
"""The one call kept as a qualifier: it names the enclosing class's bases."""
_LONGEST_QUALIFIER = 120
_OPERATOR = re.compile(r"(?<![\w$])operator(?![\w$])")
_PLAIN_QUALIFIER = re.compile(r"[\w$.:]+")
_GO_SELECTOR = "selector_expression"
_UNKNOWN_VALUE = "assign.other"
_NO_VALUE = (_UNKNOWN_VALUE, "")
_BUILDERS = frozenset({"make", "new"})
"""Go builtins whose first argument is the type of what they give."""
_TYPE_NAMES = frozenset({"type_identifier", "qualified_type"})
_NAMES = frozenset({"identifier", _GO_SELECTOR})
"""Go expressions that are a (dotted) name."""
_TYPE_WRAPPERS = frozenset({"pointer_type", "generic_type", "reference_type"})
"""Type nodes whose named type an instance is of (Go's `*T`, `T[int]`, Rust's `&T`)."""
_CONTAINERS: Mapping[str, str] = MappingProxyType(
    {"slice_type": "element", "array_type": "element", "map_type": "value"}
)
"""Go container types, and the field of the type of what they hold."""
_CALLS = frozenset({"call", "call_expression"})
_PARENTHESIZED = "parenthesized_expression"
_SELECTORS = frozenset({_GO_SELECTOR, "member_expression"})
_SCRIPT_TYPE_NAMES = frozenset({"type_identifier", "nested_type_identifier"})
"""TypeScript's type nodes that name a type (a class, an interface, an alias)."""
_INDEXES: Mapping[str, str] = MappingProxyType(
    {"index_expression": "operand", "subscript": "value", "subscript_expression": ""}
)
"""Go, Python and PHP index nodes, and the field of what they index (none: the first
child, PHP's `$this->routes[$k]`)."""
_MEMBER_FIELDS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "attribute": ("object", "attribute"),
        _GO_SELECTOR: ("operand", "field"),
        "member_access_expression": ("object", "name"),
        "nullsafe_member_access_expression": ("object", "name"),
        "scoped_property_access_expression": ("scope", "name"),
    }
)
"""Member access node types (Python, Go, PHP): the fields of the receiver and the name."""
_PHP_CALLS: Mapping[str, str] = MappingProxyType(
    {
        "member_call_expression": "object",
        "nullsafe_member_call_expression": "object",
        "scoped_call_expression": "scope",
        "function_call_expression": "",
    }
)
"""PHP call node types: the field of the receiver (none: a function's call)."""
_PHP_RELATIVE: Mapping[str, str] = MappingProxyType({"parent": SUPER_CALL, "static": "self"})
"""PHP's `parent::` names the class's bases (as Python's `super()`), `static::` its own
class (as `self::`)."""


def text_of(node: Node | None) -> str:
    """The source text of `node` ("" for none)."""
    raw = node.text if node is not None else None
    return raw.decode("utf-8", errors="replace") if raw else ""


def plain_name(text: str) -> str:
    """A name without generic arguments or a namespace path (`a::Vec<T>` -> `Vec`)."""
    if text.isidentifier():
        return text
    parts = split_qualified(text)
    return parts[-1] if parts else ""


def split_qualified(text: str) -> tuple[str, ...]:
    """The parts of a qualified name, generic arguments dropped (`a::B<T>` -> a, B).

    A C++ operator keeps its symbol, without spaces: `A::operator <<` -> A, operator<<.
    """
    if text.isidentifier():
        return (text,)
    operator = _OPERATOR.search(text)
    if operator is not None:
        symbol = "".join(text[operator.end() :].split())
        return (*split_qualified(text[: operator.start()]), "operator" + symbol)
    if "<" in text:
        depth, kept = 0, []
        for ch in text:
            if ch == "<":
                depth += 1
            elif ch == ">":
                depth = max(depth - 1, 0)
            elif depth == 0:
                kept.append(ch)
        text = "".join(kept)
    names: list[str] = []
    for part in text.split("::"):
        # a part is its last word: `Shape *` is Shape, and a macro the parser
        # could not expand may leave `pair\n    equal_range` as one name
        words = part.replace("*", " ").replace("&", " ").split()
        if words:
            names.extend(name for name in words[-1].split(".") if name)
    return tuple(names)


def qualifier_of(node: Node) -> str:
    """The receiver or module before a name, as written, or `<expr>` when it is not a
    plain (dotted) name; a Python or Go call in it keeps its callee, not its arguments
    (`app.test_client(x).open` -> `app.test_client()`: what the call returns)."""
    if node.type == "call_expression" and _in_go_selector(node) and _built(node):
        return _built(node)  # `new(Route).Schemes`: a Route's
    if node.type == "call" or (node.type == "call_expression" and _read_by_selector(node)):
        inner = node.child_by_field_name("function")
        callee = qualifier_of(inner) if inner is not None else COMPLEX_QUALIFIER
        return COMPLEX_QUALIFIER if callee == COMPLEX_QUALIFIER else _capped(callee + CALLED)
    if node.type in _INDEXES:  # `r.middlewares[i].Middleware`: one of what it holds
        field = _INDEXES[node.type]
        if not field and node.child_by_field_name("object") is not None:
            return COMPLEX_QUALIFIER  # JavaScript's `a[i]`, not PHP's
        held = node.child_by_field_name(field) if field else node.named_children[0]
        found = qualifier_of(held) if held is not None else COMPLEX_QUALIFIER
        return COMPLEX_QUALIFIER if found == COMPLEX_QUALIFIER else _capped(found + ELEMENT)
    if node.type in _PHP_CALLS:  # `$this->make()`, `Router::create()`, `make()`
        return _php_call(node)
    if node.type == _PARENTHESIZED:  # `(e as EffectNode).fn`, `(new Pass())->run()`
        return _parenthesized(node)
    if node.type == "relative_scope":  # `parent::__construct()`, `static::create()`
        return _PHP_RELATIVE.get(text_of(node), text_of(node))
    if _php_namespaced(node):  # `new \A\B\C()`, `Sub\C::make()`
        if node.type == "qualified_name":
            return _capped(php_namespaced(text_of(node)))
        rooted = "\\" if node.parent is not None and text_of(node.parent)[:1] == "\\" else ""
        return _capped(rooted + text_of(node).strip("\\") + "\\")  # the namespace alone
    if node.end_byte - node.start_byte > _LONGEST_QUALIFIER:
        return COMPLEX_QUALIFIER  # without reading it: call chains would be quadratic
    text = text_of(node)
    if _PLAIN_QUALIFIER.fullmatch(text) or text == SUPER_CALL:
        return text
    fields = _MEMBER_FIELDS.get(node.type)
    target = node.child_by_field_name(fields[0]) if fields is not None else None
    attribute = node.child_by_field_name(fields[1]) if fields is not None else None
    if target is not None and attribute is not None:
        receiver = qualifier_of(target)
        if receiver != COMPLEX_QUALIFIER:
            return _capped(f"{receiver}.{text_of(attribute)}")
    return COMPLEX_QUALIFIER


def _parenthesized(node: Node) -> str:
    """A qualifier in parentheses: TypeScript's `(x as T)` and PHP's `(new Pass())` give
    an instance of their class (`T()`, `Pass()`); `<expr>` for anything else."""
    inner = node.named_children[0] if node.named_child_count == 1 else None
    if inner is not None and inner.type == "object_creation_expression":
        return _php_built(inner)
    return _asserted(node)


def _asserted(node: Node) -> str:
    """A TypeScript `(x as T)` as a qualifier: `T()`, an instance of T (`<expr>` for
    anything else in parentheses)."""
    inner = node.named_children[0] if node.named_child_count == 1 else None
    if inner is None or inner.type != "as_expression" or not inner.named_child_count:
        return COMPLEX_QUALIFIER
    named = named_type(inner.named_children[-1])
    if named.type not in _SCRIPT_TYPE_NAMES:
        return COMPLEX_QUALIFIER
    found = qualifier_of(named)
    return COMPLEX_QUALIFIER if found == COMPLEX_QUALIFIER else _capped(found + CALLED)


def by_shape(node: Node) -> tuple[str, str]:
    """The role and value of an `@assign.value` (Go's `x := EXPR`), by EXPR's shape."""
    if node.type == "unary_expression":  # `&T{}`
        node = node.child_by_field_name("operand") or node
    if node.type == "composite_literal":
        node = node.child_by_field_name("type") or node
        if node.type in _TYPE_NAMES:
            return "assign.call", qualifier_of(node)
    elif node.type == "call_expression":
        callee = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if callee is not None and text_of(callee) in _BUILDERS and arguments is not None:
            built = arguments.named_children[0] if arguments.named_child_count else None
            found = value_of(built) if built is not None else COMPLEX_QUALIFIER
            # `make(Key, 0, n)`, `new(T)`, `make([]*Flag, 0)`: what the type holds
            return ("assign.type", found) if found != COMPLEX_QUALIFIER else _NO_VALUE
        if callee is not None and callee.type in _NAMES:
            return "assign.call", qualifier_of(callee)
    elif node.type == "index_expression":  # `flag, ok := f.formal[name]`: one it holds
        held = node.child_by_field_name("operand")
        found = qualifier_of(held) if held is not None else COMPLEX_QUALIFIER
        if found != COMPLEX_QUALIFIER and CALLED not in found:
            return "assign.type", _capped(found + ELEMENT)
    elif node.type in _NAMES:
        return "assign.alias", qualifier_of(node)
    elif node.type == "type_assertion_expression":  # `c := in.(*Command)`
        asserted = node.child_by_field_name("type")
        named = named_type(asserted) if asserted is not None else node
        if named.type in _TYPE_NAMES:
            return "assign.type", qualifier_of(named)
    return _NO_VALUE


def value_of(node: Node) -> str:
    """An assignment's value as written (a dotted name or type: `qualifier_of`), a Go
    container type as `[]` before what it holds (`[]*Flag`, `map[string]*Flag`:
    `[]Flag`)."""
    marks = ""
    while node.type in _CONTAINERS:
        inner = node.child_by_field_name(_CONTAINERS[node.type])
        if inner is None:
            return COMPLEX_QUALIFIER
        marks, node = marks + ELEMENT, inner
    found = qualifier_of(named_type(node))
    return found if found == COMPLEX_QUALIFIER else marks + found


def elements_of(node: Node) -> str:
    """The value of a Python container annotation's element type (`list[Flag]`,
    `List["Flag"]`: `[]Flag`)."""
    if node.type == "string":
        node = next((c for c in node.named_children if c.type == "string_content"), node)
        text = text_of(node)
        return ELEMENT + text if _PLAIN_QUALIFIER.fullmatch(text) else COMPLEX_QUALIFIER
    found = qualifier_of(node)
    return found if found == COMPLEX_QUALIFIER else ELEMENT + found


def each_of(node: Node) -> str:
    """The value of a loop variable over `node` (`for x in items`, `range chain`: one
    of what it holds, `items[]`; over a call's result, `self.items()[]`)."""
    found = qualifier_of(node)
    if node.type in _CALLS and found == COMPLEX_QUALIFIER:
        callee = node.child_by_field_name("function")
        found = qualifier_of(callee) + CALLED if callee is not None else found
        if found.startswith(COMPLEX_QUALIFIER):
            return COMPLEX_QUALIFIER
    return found if found == COMPLEX_QUALIFIER else _capped(found + ELEMENT)


def named_type(node: Node) -> Node:
    """The type a Go pointer or generic type names (`*Router`, `List[T]`: the type
    itself); any other node as it is."""
    while node.type in _TYPE_WRAPPERS and node.named_child_count:
        node = node.child_by_field_name("type") or node.named_children[0]
    return node


def _built(node: Node) -> str:
    """The type a Go `new(T)` builds, as a qualifier ("" for another call)."""
    callee = node.child_by_field_name("function")
    arguments = node.child_by_field_name("arguments")
    if callee is None or text_of(callee) != "new" or arguments is None:
        return ""
    built = arguments.named_children[0] if arguments.named_child_count else None
    found = value_of(built) if built is not None else COMPLEX_QUALIFIER
    return "" if found == COMPLEX_QUALIFIER or ELEMENT in found else found


def _in_go_selector(node: Node) -> bool:
    """A Go call whose result a selector reads (`NewRouter().Handle`)."""
    parent = node.parent
    return parent is not None and parent.type == _GO_SELECTOR


def _read_by_selector(node: Node) -> bool:
    """A Go or TS/JS call whose result a selector or member expression reads
    (`NewRouter().Handle`, `effect().stop`)."""
    parent = node.parent
    return parent is not None and parent.type in _SELECTORS


def _php_call(node: Node) -> str:
    """A PHP call as a qualifier: its callee, then `()` (what the call returns)."""
    field = _PHP_CALLS[node.type]
    receiver = node.child_by_field_name(field) if field else None
    name = node.child_by_field_name("name" if field else "function")
    callee = qualifier_of(name) if name is not None else COMPLEX_QUALIFIER
    if field:
        head = qualifier_of(receiver) if receiver is not None else COMPLEX_QUALIFIER
        callee = COMPLEX_QUALIFIER if head == COMPLEX_QUALIFIER else f"{head}.{callee}"
    return COMPLEX_QUALIFIER if COMPLEX_QUALIFIER in callee else _capped(callee + CALLED)


def _php_built(node: Node) -> str:
    """What PHP's `new Pass()` gives, as a qualifier (`Pass()`); `<expr>` for another
    expression (or an anonymous class)."""
    built = node.named_children[0] if node.type == "object_creation_expression" else None
    if built is None or built.type not in ("name", "qualified_name"):
        return COMPLEX_QUALIFIER
    return _capped(qualifier_of(built) + CALLED)


def _php_namespaced(node: Node) -> bool:
    r"""Whether a node is a PHP name with its namespace (`\A\B\C`), or the namespace
    before one (`\A\B` of it)."""
    parent = node.parent
    if node.type == "namespace_name":
        return parent is not None and parent.type == "qualified_name"
    return node.type == "qualified_name" and node.child_by_field_name("prefix") is not None


def php_namespaced(written: str) -> str:
    """A PHP name written with its namespace as a qualifier (map.linking.namespaces):
    the namespace's segment ends in `\\` (`\\A\\B\\.C` for `\\A\\B\\C`), a global
    name is its name (`\\Foo`: `Foo`)."""
    head, _, last = written.rpartition("\\")
    return f"{head}\\.{last}" if head.strip("\\") else last


def _capped(text: str) -> str:
    return text if len(text) <= _LONGEST_QUALIFIER else COMPLEX_QUALIFIER
