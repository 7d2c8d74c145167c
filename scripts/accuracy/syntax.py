"""What the tree-sitter grammars call things, per language: names, functions,
local bindings, member accesses, calls; and the declarations of names the map
keeps no symbol for. Data and small node helpers for the ground truth."""

from __future__ import annotations

from collections.abc import Iterator

import tree_sitter as ts

NAME_TYPES: dict[str, frozenset[str]] = {
    "python": frozenset({"identifier"}),
    "typescript": frozenset(
        {
            "identifier",
            "property_identifier",
            "type_identifier",
            "shorthand_property_identifier",
            "shorthand_property_identifier_pattern",
        }
    ),
    "go": frozenset({"identifier", "field_identifier", "type_identifier"}),
    "c": frozenset({"identifier", "field_identifier", "type_identifier"}),
}
FUNCTION_TYPES: dict[str, frozenset[str]] = {
    "python": frozenset({"function_definition", "lambda"}),
    "typescript": frozenset(
        {
            "function_declaration",
            "function_expression",
            "arrow_function",
            "method_definition",
            "generator_function_declaration",
            "generator_function",
        }
    ),
    "go": frozenset({"function_declaration", "method_declaration", "func_literal"}),
    "c": frozenset({"function_definition"}),
}
# (parent type, field of the child, or "" for any child): the child identifier binds a local
BINDINGS: dict[str, frozenset[tuple[str, str]]] = {
    "python": frozenset(
        {
            ("parameters", ""),
            ("lambda_parameters", ""),
            ("default_parameter", "name"),
            ("typed_default_parameter", "name"),
            ("typed_parameter", ""),
            ("list_splat_pattern", ""),
            ("dictionary_splat_pattern", ""),
            ("assignment", "left"),
            ("augmented_assignment", "left"),
            ("pattern_list", ""),
            ("tuple_pattern", ""),
            ("for_statement", "left"),
            ("for_in_clause", "left"),
            ("as_pattern_target", ""),
            ("named_expression", "name"),
        }
    ),
    "typescript": frozenset(
        {
            ("required_parameter", "pattern"),
            ("optional_parameter", "pattern"),
            ("variable_declarator", "name"),
            ("arrow_function", "parameter"),
            ("object_pattern", ""),
            ("array_pattern", ""),
        }
    ),
    "go": frozenset(
        {
            ("parameter_declaration", "name"),
            ("variadic_parameter_declaration", "name"),
            ("var_spec", "name"),
            ("const_spec", "name"),
            ("range_clause", "left"),
        }
    ),
    "c": frozenset(),
}
C_DECLARATORS = frozenset(
    {"pointer_declarator", "array_declarator", "init_declarator", "parenthesized_declarator"}
)
# members of these globals are never project symbols
FOREIGN_GLOBALS: dict[str, frozenset[str]] = {
    "python": frozenset(
        {"str", "bytes", "dict", "list", "set", "tuple", "int", "object", "super", "type"}
    ),
    "typescript": frozenset(
        {
            "JSON",
            "Object",
            "Array",
            "Math",
            "Promise",
            "Number",
            "String",
            "console",
            "Reflect",
            "Symbol",
            "Date",
            "Error",
            "Map",
            "Set",
            "BigInt",
        }
    ),
    "go": frozenset(),
    "c": frozenset(),
}
MEMBER_PARENTS = {
    "python": ("attribute", "attribute", "object"),
    "typescript": ("member_expression", "property", "object"),
    "go": ("selector_expression", "field", "operand"),
}
"""(node type, field of the member's name, field of the receiver)."""
CALL_TYPES = {
    "python": ("call", "function"),
    "typescript": ("call_expression", "function"),
    "go": ("call_expression", "function"),
    "c": ("call_expression", "function"),
}


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
    """The member expression whose member name `node` is (`x.NAME`), if it is one."""
    shape = MEMBER_PARENTS.get(language)
    parent = node.parent
    if shape is None or parent is None or parent.type != shape[0]:
        return None
    return parent if parent.child_by_field_name(shape[1]) == node else None


def root_of(language: str, receiver: ts.Node) -> str:
    """The leftmost name of a receiver chain (`a` of `a.b.c`)."""
    shape = MEMBER_PARENTS[language]
    while receiver.type == shape[0]:
        inner = receiver.child_by_field_name(shape[2])
        if inner is None:
            break
        receiver = inner
    return (receiver.text or b"").decode()


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
