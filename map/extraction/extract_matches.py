"""Query matches -> the raw definitions, references, imports and comments of a file.

The capture names of a language's query (`map/extraction/queries/<language>.scm`) say
what each match is:

    @def.<kind> + @name [+ @prefix]   a symbol of that SymbolKind; @prefix
                                      nodes qualify it (a Go receiver type);
                                      a qualified @name (C++ `Shape::area`)
                                      is split into qualifier and name
    @container + @name                a scope that qualifies what it holds but
                                      is not a symbol itself (a Rust `impl`)
    @ref.calls / @ref.inherits / @ref.references + @name [+ @qualifier]
    @ref.values + @name [+ @qualifier]
                                      a function or method taken as a value
                                      (map.model.ReferenceKind)
    @ref.types                        a type expression whose names are
                                      references (Python annotations)
    @assign.call / @assign.alias / @assign.type + @name + @value
                                      a local name given a call's result,
                                      another (dotted) name's value, or a
                                      type annotation (an instance of it; a
                                      Go pointer or generic type: of the type
                                      it names; a Go slice or map type: what
                                      it holds, `[]T`; a value of another
                                      shape: an unknown value); @elements
                                      instead of @value: a Python container
                                      annotation's element type (`list[T]`);
                                      @each: a loop variable over the value
                                      captured (one of what it holds)
    @assign.other + @name             a local name given something else
                                      (a parameter, a loop variable): unknown
    @assign.value + @name + @value    a local name given a Go expression: a
                                      call, alias or unknown by its shape
                                      (`T{}`, `&T{}`, `f()`; `a.b`; other)
    @attr.call / @attr.alias / @attr.type + @name + @value
                                      the same for an instance attribute
                                      given in a method (`self.app = app`)
    @assign.doc + @name + @value      a PHP docblock (@value) and the declaration
                                      below it (@name): the classes its tags
                                      give parameters or a property
    @assign.narrow + @name + @value   a PHP `instanceof`: the receiver checked
                                      (@name) may hold the class (@value) in
                                      the function (map.model.NARROWED)
    @assign.returns + @name + @value  a function's return annotation (@name:
                                      the annotation, inside the function)
    @assign.returns.own + @name + @value
                                      the same for a method that returns its own
                                      object (@value: its class's name)
    @assign.enter + @name + @value    a Python `with X() as name`: the name holds
                                      what `X().__enter__()` returns (`__aenter__`
                                      in an `async with`)
    @assign.gives / @assign.gives.alias + @name + @value
                                      what a pytest fixture returns or yields
                                      (a call's result, a name's value; @name:
                                      the value, inside the function)
    @import                           an import statement (see map.extraction.extract_imports)
    @comment                          dropped from normalized fingerprints
    @skip                             a type parameter's declaration: neither it
                                      nor unqualified type references of the
                                      same name in the file are references

Captures whose names start with `_` serve predicates only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from tree_sitter import Node

from map.extraction.docblocks import OWN_CLASS_WORDS, RETURNS_ROLE, doc_types, own_class
from map.extraction.node_text import (
    CALLED,
    COMPLEX_QUALIFIER,
    ELEMENT,
    by_shape,
    each_of,
    elements_of,
    qualifier_of,
    split_qualified,
    text_of,
    value_of,
)
from map.model import NARROWED, SymbolForm, SymbolKind

_QUALIFIED_NAMES: frozenset[str] = frozenset(
    {"qualified_identifier", "scoped_identifier", "scope_resolution"}
)
# Captures that are parts of a match; every pattern has exactly one other (its role).
_PARTS: frozenset[str] = frozenset({"name", "qualifier", "prefix", "value", "elements", "each"})
_LONGEST_NAME = 300
# (Ruby method names may end in ?, ! or =: `valid?`, `save!`, `name=`)
_NAME_PART = re.compile(r"[~#]?[\w$]+[?!=]?|operator\S{1,40}")
_BY_SHAPE = "assign.value"
_DOC = "assign.doc"
_ENTER = "assign.enter"
_NARROW = "assign.narrow"
_REF_KINDS: Mapping[str, str] = MappingProxyType(
    {f"ref.{kind}": kind for kind in ("calls", "references", "inherits", "values")}
)


@dataclass(frozen=True, slots=True)
class Shape:
    """Where a language keeps the parts of a definition outside its node."""

    wrappers: frozenset[str] = frozenset()
    """Parent node types whose range the definition takes (decorators, export)."""
    leading: frozenset[str] = frozenset()
    """Preceding sibling node types that belong to the definition (attributes)."""
    comments: frozenset[str] = frozenset({"comment"})
    """Comment node types: skipped before a definition's attributes and after its body."""


_SHAPES: Mapping[str, Shape] = MappingProxyType(
    {
        "python": Shape(wrappers=frozenset({"decorated_definition"})),
        "typescript": Shape(
            wrappers=frozenset({"export_statement"}), leading=frozenset({"decorator"})
        ),
        "tsx": Shape(wrappers=frozenset({"export_statement"}), leading=frozenset({"decorator"})),
        "javascript": Shape(
            wrappers=frozenset({"export_statement"}), leading=frozenset({"decorator"})
        ),
        "go": Shape(),
        "c": Shape(),
        "cpp": Shape(wrappers=frozenset({"template_declaration"})),
        "rust": Shape(
            leading=frozenset({"attribute_item"}),
            comments=frozenset({"line_comment", "block_comment"}),
        ),
        "java": Shape(comments=frozenset({"line_comment", "block_comment"})),
        # Attributes and annotations sit inside the declaration's node in these
        "ruby": Shape(),
        "php": Shape(),
        "csharp": Shape(),
        "kotlin": Shape(comments=frozenset({"line_comment", "block_comment"})),
        "swift": Shape(comments=frozenset({"comment", "multiline_comment"})),
        "scala": Shape(comments=frozenset({"comment", "block_comment"})),
        "lua": Shape(),
        "bash": Shape(),
    }
)


def comment_types(language: str) -> frozenset[str]:
    """The node types of comments in `language`'s grammar."""
    return _SHAPES[language].comments


@dataclass(slots=True)
class Scope:
    """A definition (kind set) or a container-only scope (kind None) being extracted."""

    name: str
    kind: SymbolKind | None
    start: Node
    """Where the range starts: the first decorator/attribute, or the node."""
    node: Node
    end: Node
    """Where the range ends: the last token of the node that is not a comment
    (Python keeps comments after a body's last statement inside the body)."""
    name_node: Node
    pattern: int = 0
    prefix: tuple[str, ...] = ()
    written: tuple[str, ...] = ()
    """The qualifier written in the name itself (C++ `Shape::` in `Shape::area`)."""
    parts: tuple[str, ...] = ()
    parent: Scope | None = None
    tail: str = ""
    """A symbol's node ID without its path (`Qual.Name~2`); "" for a container."""
    declaration: bool = False
    """A function declared without its body (see map.model.Symbol.declaration)."""
    form: SymbolForm | None = None
    """A C or C++ `static` function or function-like `macro`, a PHP `trait`
    (map.model.Symbol.form)."""


@dataclass(slots=True)
class Ref:
    """A reference as captured; `scope` is filled in by the nesting sweep.

    `start` and `text` are the name node's, read once (each read of a node's
    field is a call into tree-sitter, and the sweeps ask several times)."""

    name_node: Node
    kind: str
    qualifier: str | None
    start: int
    text: str
    scope: Scope | None = None


def new_ref(name_node: Node, kind: str, qualifier: str | None) -> Ref:
    """A reference to the name at `name_node`."""
    raw = name_node.text
    text = raw.decode("utf-8", errors="replace") if raw else ""
    return Ref(name_node, kind, qualifier, name_node.start_byte, text)


@dataclass(slots=True)
class Collected:
    """Everything one query pass captured in a file."""

    scopes: list[Scope] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    assigns: list[Ref] = field(default_factory=list)
    """Assignments, as refs: the assigned name, the role (`assign.call`, `attr.type`...),
    the value."""
    imports: list[Node] = field(default_factory=list)
    comments: list[tuple[int, int]] = field(default_factory=list)
    skipped: set[int] = field(default_factory=set)
    type_parameters: set[str] = field(default_factory=set)
    qualifier_spans: list[tuple[int, int]] = field(default_factory=list)
    tails: dict[str, str] = field(default_factory=dict)
    """Qualified name -> the node ID tail of the file's first symbol of that name."""

    def qualify(self, node: Node) -> str:
        """The qualifier text for `node`; a plain name's own parts are not references."""
        text = qualifier_of(node)
        if text != COMPLEX_QUALIFIER and CALLED not in text and ELEMENT not in text:
            # calls and indexes inside stay references
            self.qualifier_spans.append((node.start_byte, node.end_byte))
        return text


def collect(matches: list[tuple[int, dict[str, list[Node]]]], language: str) -> Collected:
    """Sort the matches of one query pass by what they capture."""
    shape = _SHAPES[language]
    found = Collected()
    roles: dict[int, str] = {}  # pattern index -> its role capture, learnt on first sight
    add_ref = found.refs.append
    for pattern, captures in matches:
        role = roles.get(pattern)
        if role is None:
            role = roles[pattern] = next(
                key for key in captures if key not in _PARTS and not key.startswith("_")
            )
        ref_kind = _REF_KINDS.get(role)
        if ref_kind is not None:  # the most frequent matches, first, and `new_ref` inline
            name_node = captures["name"][0]
            qualifier = captures.get("qualifier")
            raw = name_node.text
            add_ref(
                Ref(
                    name_node,
                    ref_kind,
                    found.qualify(qualifier[0]) if qualifier else None,
                    name_node.start_byte,
                    raw.decode("utf-8", errors="replace") if raw else "",
                )
            )
            continue
        node = captures[role][0]
        if role == "comment":
            found.comments.append((node.start_byte, node.end_byte))
        elif role == "ref.types":
            _add_type_refs(found, node)
        elif role == _DOC:  # a PHP docblock's types (map.extraction.docblocks)
            for name_node, given, value in doc_types(captures["value"][0], captures["name"][0]):
                found.assigns.append(new_ref(name_node, given, value))
        elif role == _ENTER:
            entered = node.children and node.children[0].type == "async"
            called = f"{_value(captures)}{CALLED}.{'__aenter__' if entered else '__enter__'}"
            found.assigns.append(new_ref(captures["name"][0], "assign.call", called))
        elif role == _NARROW:  # a PHP `instanceof`: the receiver checked, as a qualifier
            narrowed = new_ref(captures["name"][0], role, value_of(captures["value"][0]))
            narrowed.text = NARROWED + qualifier_of(captures["name"][0])
            found.assigns.append(narrowed)
        elif role == _BY_SHAPE:
            shape_role, value = by_shape(captures["value"][0])
            found.assigns.append(new_ref(captures["name"][0], shape_role, value))
        elif role.startswith(("assign.", "attr.")):
            value = _value(captures)
            if value in OWN_CLASS_WORDS and role in _OWN_CLASS_ROLES:  # PHP's `new static()`
                value = own_class(captures["name"][0]) or value
            found.assigns.append(
                new_ref(captures["name"][0], role, "" if value == COMPLEX_QUALIFIER else value)
            )
        elif role.startswith("def."):
            kind: SymbolKind = role[4:]  # type: ignore[assignment]
            _add_scope(found, kind, node, captures, shape, pattern)
        elif role == "container":
            _add_scope(found, None, node, captures, shape, pattern)
        elif role == "import":
            found.imports.append(node)
        elif role == "skip":
            found.skipped.add(node.start_byte)
            found.type_parameters.add(text_of(node))
    return found


_PHP_TRAIT = "trait_declaration"
_OWN_CLASS_ROLES = frozenset({RETURNS_ROLE, "assign.call", "attr.call"})
"""Where PHP's `self` and `static` stand for the class around them: a method's declared
return type (`make(): static`), what `new self()` gives a local or a property."""


def _value(captures: dict[str, list[Node]]) -> str:
    """What an assignment's captures give (`@value`, `@elements`, `@each`)."""
    for part, read in (("value", value_of), ("elements", elements_of), ("each", each_of)):
        nodes = captures.get(part)
        if nodes:
            return read(nodes[0])
    return COMPLEX_QUALIFIER


def _add_scope(
    found: Collected,
    kind: SymbolKind | None,
    node: Node,
    captures: dict[str, list[Node]],
    shape: Shape,
    pattern: int,
) -> None:
    name_node = captures["name"][0]
    if name_node.end_byte - name_node.start_byte > _LONGEST_NAME:
        return  # the parser lost its way (an unexpanded macro), not a real name
    written = split_qualified(text_of(name_node))
    if not written or not all(
        part.isidentifier() or _NAME_PART.fullmatch(part) for part in written
    ):
        return
    while name_node.type in _QUALIFIED_NAMES:
        inner = name_node.child_by_field_name("name")
        if inner is None:
            break
        name_node = inner
    prefixes = sorted(captures.get("prefix", ()), key=lambda n: n.start_byte)
    prefix = tuple(part for node_ in prefixes for part in split_qualified(text_of(node_)))
    name = written[-1]
    start = _start_of(node, shape)
    end = _end_of(node, shape)
    scope = Scope(name, kind, start, node, end, name_node, pattern, prefix, written[:-1])
    if node.type == _PHP_TRAIT:  # a kind of interface whose methods its users hold
        scope.form = "trait"
    found.scopes.append(scope)


def _start_of(node: Node, shape: Shape) -> Node:
    """The node where a definition's range starts: its decorators, attributes or export."""
    start = node
    while start.parent is not None and start.parent.type in shape.wrappers:
        start = start.parent
    if shape.leading:
        sibling = start.prev_named_sibling
        while sibling is not None and (
            sibling.type in shape.leading or sibling.type in shape.comments
        ):
            if sibling.type in shape.leading:
                start = sibling
            sibling = sibling.prev_named_sibling
    return start


def _end_of(node: Node, shape: Shape) -> Node:
    """The last token of `node` that is not a comment (nor inside one). Steps from the
    last child back (a body's `children` would build a node for every statement)."""
    current = node
    while count := current.child_count:
        child: Node | None = current.child(count - 1)
        while child is not None and child.type in shape.comments:
            child = child.prev_sibling
        if child is None:
            break
        current = child
    return current


def _add_type_refs(found: Collected, node: Node) -> None:
    """References for every name in a type expression (Python annotations)."""
    pending = [node]
    while pending:
        current = pending.pop()
        if current.type == "identifier":
            found.refs.append(new_ref(current, "references", None))
        elif current.type == "attribute":
            name = current.child_by_field_name("attribute")
            target = current.child_by_field_name("object")
            if name is not None and target is not None:
                found.refs.append(new_ref(name, "references", found.qualify(target)))
        elif current.type != "string":
            pending.extend(current.named_children)
