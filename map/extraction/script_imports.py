"""TypeScript/JavaScript imports -> (module as written, bound names): import and
export-from statements, require calls, and the file's own names exported under
another name (map.extraction.extract_imports gives the shape)."""

from __future__ import annotations

from tree_sitter import Node

from map.extraction.import_facts import OWN_MODULE, STAR, ImportFacts, Names, string_value
from map.extraction.node_text import text_of


def script_imports(node: Node) -> ImportFacts:
    """TypeScript/JavaScript: import and export-from statements, require calls, and
    the file's own names exported under another name."""
    if node.type == "expression_statement" or (
        node.type == "export_statement" and node.child_by_field_name("source") is None
    ):
        return _own_exports(node)
    if node.type == "variable_declarator":
        call = node.child_by_field_name("value")
        arguments = call.child_by_field_name("arguments") if call is not None else None
        module = string_value(arguments.named_children[0]) if arguments is not None else ""
        return [(module, _script_pattern(node.child_by_field_name("name")))] if module else []
    source = node.child_by_field_name("source")
    names: list[tuple[str, str]] = []
    for child in node.named_children:
        if child.type == "import_clause":
            names.extend(_script_clause(child))
        elif child.type == "import_require_clause":
            source = child.child_by_field_name("source")
            names.extend(("*", text_of(part)) for part in child.named_children[:1])
        elif child.type == "export_clause":
            names.extend(_script_specifiers(child))
        elif child.type == "namespace_export":
            names.append(("*", text_of(child.named_children[0])))
    if node.type == "export_statement" and not names:
        names.append(STAR)
    module = string_value(source)
    return [(module, tuple(names))] if module else []


def _own_exports(node: Node) -> ImportFacts:
    """`export default create`, `export default function create() {}`, `export =
    create`, `module.exports = create`, `export {a as b}` (an anonymous default export
    names nothing)."""
    clause = next((c for c in node.named_children if c.type == "export_clause"), None)
    if clause is not None:
        renamed = tuple((n, a) for n, a in _script_specifiers(clause) if n != a)
        return [(OWN_MODULE, renamed)] if renamed else []
    if node.type == "expression_statement":
        target = node.named_children[0].child_by_field_name("right")
    else:
        declaration = node.child_by_field_name("declaration")
        target = node.child_by_field_name("value") if declaration is None else None
        if declaration is not None:
            target = declaration.child_by_field_name("name")
        elif target is None:  # `export = create`
            target = next((c for c in node.named_children if c.type == "identifier"), None)
    if target is None or target.type not in ("identifier", "type_identifier"):
        return []
    return [(OWN_MODULE, ((text_of(target), "default"),))]


def _script_clause(clause: Node) -> list[tuple[str, str]]:
    names: list[tuple[str, str]] = []
    for child in clause.named_children:
        if child.type == "identifier":
            names.append(("default", text_of(child)))
        elif child.type == "namespace_import":
            names.append(("*", text_of(child.named_children[0])))
        elif child.type == "named_imports":
            names.extend(_script_specifiers(child))
    return names


def _script_specifiers(node: Node) -> list[tuple[str, str]]:
    names: list[tuple[str, str]] = []
    for specifier in node.named_children:
        name = text_of(specifier.child_by_field_name("name"))
        alias = text_of(specifier.child_by_field_name("alias")) or name
        if name:
            names.append((name, alias))
    return names


def _script_pattern(target: Node | None) -> Names:
    """What `const <target> = require(...)` binds."""
    if target is None:
        return ()
    if target.type != "object_pattern":
        return (("*", text_of(target)),)
    names: list[tuple[str, str]] = []
    for child in target.named_children:
        if child.type == "shorthand_property_identifier_pattern":
            names.append((text_of(child), text_of(child)))
        elif child.type == "pair_pattern":
            key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
            names.append((text_of(key), text_of(value)))
    return tuple(names)
