"""Small node helpers for the ground truth, over accuracy.syntax's tables: walking
a tree, member accesses and their receivers, calls, the type around a node, the
function around it, and declarations of names the map keeps no symbol for."""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

from accuracy.syntax import (
    C_DECLARATORS,
    CALL_MEMBERS,
    CALLEE_WRAPPERS,
    CALLS,
    FUNCTION_TYPES,
    MEMBER_HOPS,
    MEMBERS,
    TYPE_DECLARATIONS,
)


def walk(root: ts.Node) -> Iterator[ts.Node]:
    """Every node under `root` (itself included), in document order."""
    cursor = root.walk()
    while True:
        node = cursor.node
        if node is not None:
            yield node
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while cursor.goto_parent():
            if cursor.goto_next_sibling():
                break
        else:
            return


def member_of(language: str, node: ts.Node) -> ts.Node | None:
    """The member expression whose member name `node` is (`x.NAME`), if it is one
    (with a receiver: Ruby's `name(1)` alone is a call, no member)."""
    shapes = MEMBERS.get(language, {})
    hops = MEMBER_HOPS.get(language, frozenset())
    name, parent = node, node.parent
    while parent is not None and parent.type in hops and parent.named_children[0] == name:
        name, parent = parent, parent.parent
    shape = None if parent is None else shapes.get(parent.type)
    if parent is None or shape is None or _part(parent, shape[0], last=True) != name:
        return None
    return parent if receiver_of(language, parent) is not None else None


def receiver_of(language: str, member: ts.Node) -> ts.Node | None:
    """The receiver of a member expression (`x` of `x.name`): C#'s `this.name` has
    the keyword, unnamed, as its first child."""
    field = MEMBERS[language][member.type][1]
    receiver = _part(member, field, last=False)
    if receiver is None and member.children and not member.children[0].is_named:
        receiver = member.children[0]
    if receiver is not None and receiver == _part(
        member, MEMBERS[language][member.type][0], last=True
    ):
        return None
    return receiver


def _part(node: ts.Node, field: str, *, last: bool) -> ts.Node | None:
    """The child in `field`, or (no field) the last or first named child."""
    if field:
        return node.child_by_field_name(field)
    children = node.named_children
    return (children[-1] if last else children[0]) if children else None


def receiver_text(receiver: ts.Node) -> str:
    """A receiver's text, PHP's `$` left off (`$this` is `this`)."""
    return (receiver.text or b"").decode().lstrip("$")


def root_of(language: str, receiver: ts.Node) -> str:
    """The leftmost name of a receiver chain (`a` of `a.b.c`)."""
    while receiver.type in MEMBERS.get(language, {}):
        inner = receiver_of(language, receiver)
        if inner is None:
            break
        receiver = inner
    return receiver_text(receiver)


def calls_it(language: str, node: ts.Node) -> bool:
    """Whether `node` (a name) is what a call calls: `f()`, `x.f()`, `f<T>()`,
    Ruby's `x.f` and `f 1`, Scala's `x f y`, a shell command."""
    callee = member_of(language, node) or node
    if callee is not node and callee.type in CALL_MEMBERS.get(language, frozenset()):
        return True
    wrappers = CALLEE_WRAPPERS.get(language, frozenset())
    while callee.parent is not None and callee.parent.type in wrappers:
        callee = callee.parent
    parent = callee.parent
    field = None if parent is None else CALLS[language].get(parent.type)
    return field is not None and parent is not None and _part(parent, field, last=False) == callee


def in_type(language: str, node: ts.Node, name: str) -> bool:
    """Whether `node` is inside the declaration of a type (class, module, object,
    extension) called `name` (the last segment of `A::B`)."""
    holder = node.parent
    while holder is not None:
        if holder.type in TYPE_DECLARATIONS.get(language, frozenset()):
            named = holder.child_by_field_name("name")
            text = (named.text or b"").decode() if named is not None else ""
            if text.replace("::", ".").rpartition(".")[2] == name:
                return True
        holder = holder.parent
    return False


GO_DECLARATIONS = frozenset({"field_declaration", "method_elem", "method_spec"})
TS_DECLARATIONS = frozenset(
    {"enum_assignment", "enum_body", "property_signature", "public_field_definition"}
)


def declares_other(language: str, node: ts.Node) -> bool:
    """`node` declares a name the map keeps no symbol for: the member assigned in
    `x.NAME = ...`; a Python class attribute; a TypeScript enum member, interface
    property, class field or type parameter; a Go struct field or interface method."""
    parent = node.parent
    if language == "typescript" and parent is not None:
        if parent.type == "type_parameter":
            return parent.child_by_field_name("name") == node
        if parent.type in TS_DECLARATIONS:
            return parent.type == "enum_body" or parent.child_by_field_name("name") == node
    if language == "go" and parent is not None and parent.type in GO_DECLARATIONS:
        return parent.child_by_field_name("name") == node
    if language == "python" and parent is not None and parent.type == "assignment":
        statement = parent.parent
        block = statement.parent if statement is not None else None
        holder = block.parent if block is not None else None
        if holder is not None and holder.type == "class_definition":
            return parent.child_by_field_name("left") == node
    member = member_of(language, node)
    holder = member.parent if member is not None else None
    if holder is None or holder.type not in {"assignment", "assignment_expression"}:
        return False
    return holder.child_by_field_name("left") == member


RUBY_DECLARING_CALLS = frozenset(
    {"attr_reader", "attr_writer", "attr_accessor", "define_method", "alias_method"}
)


def declared_by_call(language: str, node: ts.Node) -> list[str]:
    """The names a Ruby call declares methods of, which the map keeps no symbol for:
    `attr_accessor :env` (the name of the call's method is `node`)."""
    call = node.parent
    if language != "ruby" or call is None or call.type != "call":
        return []
    if call.child_by_field_name("method") != node or node.text is None:
        return []
    if node.text.decode() not in RUBY_DECLARING_CALLS:
        return []
    arguments = call.child_by_field_name("arguments")
    symbols = [] if arguments is None else arguments.named_children
    return [(s.text or b"").decode().lstrip(":") for s in symbols if s.type == "simple_symbol"]


def names_prototype(node: ts.Node) -> bool:
    """`node` is the name of a C function's prototype (`int add(int, int);`), not of
    its definition."""
    holder = node.parent
    if holder is None or holder.type != "function_declarator":
        return False
    if holder.child_by_field_name("declarator") != node:
        return False
    while holder is not None and holder.type in C_DECLARATORS | {"function_declarator"}:
        holder = holder.parent
    return holder is not None and holder.type == "declaration"


def nearest_function(language: str, node: ts.Node) -> ts.Node | None:
    """The innermost function (or lambda) around `node`, if any."""
    scope = node.parent
    while scope is not None and scope.type not in FUNCTION_TYPES[language]:
        scope = scope.parent
    return scope
