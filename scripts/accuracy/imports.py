"""What a file's imports bind, per language, for the ground truth: the names
taken from outside the project, and every imported name."""

from __future__ import annotations

import tree_sitter as ts

from accuracy.nodes import walk


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
        elif node.type in _IMPORTS.get(language, ()):
            names |= {
                bound for bound, path in _IMPORTS[language][node.type](node) if _from(path, modules)
            }
    return frozenset(names)


Bound = list[tuple[str, str]]
"""(the name an import binds, the last segment of what it imports)."""


def _text(node: ts.Node | None) -> str:
    return (node.text or b"").decode() if node is not None else ""


def _php_use(node: ts.Node) -> Bound:
    """`use A\\B\\C as D` binds D (else C)."""
    named = [c for c in node.named_children if c.type in {"qualified_name", "name"}]
    path = _text(named[0]).rpartition("\\")[2] if named else ""
    return [(_text(node.child_by_field_name("alias")) or path, path)]


def _jvm_import(node: ts.Node) -> Bound:
    """Kotlin's `import a.b.C [as D]` binds D (else C); `a.b.*` binds nothing."""
    parts = [c for c in node.named_children if c.type in {"qualified_identifier", "identifier"}]
    if not parts:
        return []
    path = _text(parts[0]).rpartition(".")[2]
    alias = _text(parts[1]) if len(parts) > 1 else ""
    return [(alias or path, path)]


def _scala_import(node: ts.Node) -> Bound:
    """`import a.b.C` binds C; `import a.{C, D => E}` binds C and E."""
    selectors = [c for c in node.named_children if c.type == "namespace_selectors"]
    if not selectors:
        paths = node.children_by_field_name("path")
        last = _text(paths[-1]) if paths else ""
        return [(last, last)] if last else []
    bound = []
    for child in selectors[0].named_children:
        if child.type == "arrow_renamed_identifier":
            name = _text(child.child_by_field_name("name"))
            bound.append((_text(child.child_by_field_name("alias")), name))
        elif child.type == "identifier":
            bound.append((_text(child), _text(child)))
    return bound


def _swift_import(node: ts.Node) -> Bound:
    """`import Foundation` binds the module's name."""
    module = _text(node.named_children[-1]) if node.named_children else ""
    return [(module, module)] if module else []


def _csharp_using(node: ts.Node) -> Bound:
    """`using J = A.B;` binds J; `using A.B;` binds A, the root of names written in full."""
    alias = node.child_by_field_name("name")
    target = [c for c in node.named_children if c != alias]
    path = _text(target[-1]) if target else ""
    if alias is not None:
        return [(_text(alias), path.rpartition(".")[2])]
    root = path.split(".")[0]
    return [(root, root)] if root else []


def _lua_require(node: ts.Node) -> Bound:
    """`local m = require "a.b"` binds m."""
    names = node.child_by_field_name("name") if node.type == "variable_list" else None
    holder = node.parent
    values = [c for c in holder.named_children if c.type == "expression_list"] if holder else []
    value = values[0].named_children[0] if values and values[0].named_children else None
    if names is None or value is None or value.type != "function_call":
        return []
    if _text(value.child_by_field_name("name")) != "require":
        return []
    module = next((n for n in walk(value) if n.type == "string_content"), None)
    return [(_text(names), _text(module).split(".")[-1])]


_IMPORTS = {
    "php": {"namespace_use_clause": _php_use},
    "kotlin": {"import": _jvm_import},
    "scala": {"import_declaration": _scala_import},
    "swift": {"import_declaration": _swift_import},
    "csharp": {"using_directive": _csharp_using},
    "lua": {"variable_list": _lua_require},
}
"""Per language and import node: what it binds. Ruby's `require` and a shell's
`source` bind no name (what they load defines its names globally)."""


def _from(path: str, modules: frozenset[str] | None) -> bool:
    """Whether an import of `path` counts: any (`modules` None), or one from outside
    the project (no file or folder of the project has its last segment's name)."""
    return modules is None or path not in modules


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
