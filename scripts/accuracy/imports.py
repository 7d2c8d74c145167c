"""What a file's imports bind, per language, for the ground truth: the names
taken from outside the project, and every imported name."""

from __future__ import annotations

import tree_sitter as ts

from accuracy.syntax import walk


def imported_names(language: str, tree: ts.Tree, modules: frozenset[str] | None) -> frozenset[str]:
    """The names a file binds by importing from outside the project (`modules`: the
    project's module names), or by any import at all (`modules` None)."""
    names: set[str] = set()
    for node in walk(tree.root_node):
        if language == "python" and node.type in {"import_statement", "import_from_statement"}:
            names |= _python_imported(node, modules)
        elif language == "go" and node.type == "import_spec":
            name = node.child_by_field_name("name")
            path = node.child_by_field_name("path")
            text = (path.text or b"").decode().strip('"') if path is not None else ""
            names.add((name.text or b"").decode() if name is not None else text.split("/")[-1])
        elif language == "typescript" and modules is None and node.type == "import_clause":
            names |= {
                (n.text or b"").decode()
                for n in walk(node)
                if n.type == "identifier" and _binds_import(n)
            }
    return frozenset(names)


def _binds_import(node: ts.Node) -> bool:
    """A name a TypeScript import clause binds: a default or namespace import, or
    an import specifier's local name (`b` of `{a as b}`, `a` of `{a}`)."""
    spec = node.parent
    if spec is None or spec.type != "import_specifier":
        return True
    alias = spec.child_by_field_name("alias")
    return (alias or spec.child_by_field_name("name")) == node


def _python_imported(node: ts.Node, modules: frozenset[str] | None) -> set[str]:
    """Names a Python import binds: all of them (`modules` None), or those of
    modules outside the project."""

    def outside(module: str) -> bool:
        if modules is None:
            return True
        return not module.startswith(".") and module.split(".")[0] not in modules

    module = node.child_by_field_name("module_name")
    bound = set()
    if module is not None:  # from M import a, b as c
        if not outside((module.text or b"").decode()):
            return set()
        for child in node.children_by_field_name("name"):
            alias = child.child_by_field_name("alias") if child.type == "aliased_import" else None
            bound.add(((alias or child).text or b"").decode().split(".")[-1])
        return bound
    for child in node.children_by_field_name("name"):  # import a.b, c as d
        target = child.child_by_field_name("name") if child.type == "aliased_import" else child
        alias = child.child_by_field_name("alias") if child.type == "aliased_import" else None
        text = (target.text or b"").decode() if target is not None else ""
        if outside(text):
            bound.add((alias.text or b"").decode() if alias is not None else text.split(".")[0])
    return bound


def in_import_of_other(node: ts.Node, modules: frozenset[str]) -> bool:
    """`node` is in a Python import and names a module, or something of a module
    outside the project."""
    child, holder = node, node.parent
    while holder is not None and holder.type not in {"import_statement", "import_from_statement"}:
        child, holder = holder, holder.parent
    if holder is None:
        return False
    if holder.type == "import_statement" or child == holder.child_by_field_name("module_name"):
        return True
    return bool(_python_imported(holder, modules))
