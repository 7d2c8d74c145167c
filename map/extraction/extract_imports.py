"""Import statements -> (module as written, bound names), per language.

Names are (imported name, local alias) pairs, as map.model.Import says
(map.extraction.import_facts; TypeScript/JavaScript read in
map.extraction.script_imports):

    import a.b                  ("a.b", ())
    import a.b as c             ("a.b", (("*", "c"),))   the module bound as c
    from .x import y as z       (".x", (("y", "z"),))
    from m import *             ("m", (("*", "*"),))
    import d, {a, b as c} from "m"     ("m", (("default", "d"), ("a", "a"), ("b", "c")))
    import * as ns from "m"            ("m", (("*", "ns"),))
    export {a} from "m"; export * from "m"   re-exports, read the same way
    export default create; export = create; module.exports = create
                                       (OWN_MODULE, (("create", "default"),))
    export {a as b}                    (OWN_MODULE, (("a", "b"),))   the file's own
                                       names exported under another name
    const {a, b: c} = require("m")     ("m", (("a", "a"), ("b", "c")))
    import f "fmt"; import . "fmt"     ("fmt", (("*", "f"),)); ("fmt", (("*", "*"),))
    require_relative "a"; source lib.sh    ("./a", ()); ("lib.sh", ())   files, by path
    use A\\B\\{C, D as E};              ("A\\B", (("C", "C"), ("D", "E")))
    namespace A\\B;                    (NAMESPACE, (("A\\B", "A\\B"),))   the file's own
    using A.B; using X = A.B.C;        ("A.B", (("*", "*"),)); ("A.B", (("C", "X"),))
    import a.b.C as D (Kotlin); import a.b.{C => D} (Scala)   ("a.b", (("C", "D"),))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

from tree_sitter import Node

from map.extraction.import_facts import NAMESPACE, STAR, ImportFacts, compact, string_value
from map.extraction.node_text import text_of
from map.extraction.script_imports import script_imports


def imports_of(language: str, node: Node) -> ImportFacts:
    """The imports one captured import node makes, in source order."""
    reader = _READERS.get(language)
    return reader(node) if reader is not None else []


def _python(node: Node) -> ImportFacts:
    if node.type == "import_statement":
        facts: ImportFacts = []
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                module = text_of(child.child_by_field_name("name"))
                facts.append((module, (("*", text_of(child.child_by_field_name("alias"))),)))
            else:
                facts.append((text_of(child), ()))
        return facts
    module = compact(node.child_by_field_name("module_name"))
    names: list[tuple[str, str]] = [
        STAR for child in node.named_children if child.type == "wildcard_import"
    ]
    for child in node.children_by_field_name("name"):
        if child.type == "aliased_import":
            original = text_of(child.child_by_field_name("name"))
            names.append((original, text_of(child.child_by_field_name("alias"))))
        else:
            names.append((text_of(child), text_of(child)))
    return [(module, tuple(names))] if module else []


def _go(node: Node) -> ImportFacts:
    """Go: one import spec; an alias binds the package, `.` imports all of it."""
    module = string_value(node.child_by_field_name("path"))
    alias = node.child_by_field_name("name")
    if not module:
        return []
    if alias is None:
        return [(module, ())]
    return [(module, (STAR,) if alias.type == "dot" else (("*", text_of(alias)),))]


def _include(node: Node) -> ImportFacts:
    """C/C++: `#include "x.h"` and `#include <x.h>` both give the path as written."""
    path = text_of(node.child_by_field_name("path"))
    if len(path) >= 2 and path[0] in '"<':
        path = path[1:-1]
    return [(path, ())] if path else []


def _rust(node: Node) -> ImportFacts:
    """Rust: a `use` tree, flattened to one entry per module path; `extern crate`."""
    if node.type == "extern_crate_declaration":
        crate, alias = node.child_by_field_name("name"), node.child_by_field_name("alias")
        return [(text_of(crate), (("*", text_of(alias)),) if alias is not None else ())]
    facts: ImportFacts = []
    argument = node.child_by_field_name("argument")
    if argument is not None:
        _rust_tree(argument, "", facts)
    return facts


def _rust_join(base: str, path: str) -> str:
    return f"{base}::{path}" if base and path else base or path


def _rust_tree(node: Node, base: str, facts: ImportFacts) -> None:
    kind = node.type
    if kind == "use_list":
        for child in node.named_children:
            _rust_tree(child, base, facts)
    elif kind == "scoped_use_list":
        path = compact(node.child_by_field_name("path"))
        items = node.child_by_field_name("list")
        for child in items.named_children if items is not None else ():
            _rust_tree(child, _rust_join(base, path), facts)
    elif kind == "use_wildcard":
        path = compact(node.named_children[0]) if node.named_children else ""
        _rust_add(facts, _rust_join(base, path), STAR)
    elif kind == "use_as_clause":
        path = compact(node.child_by_field_name("path"))
        module, name = _rust_split(_rust_join(base, path))
        _rust_add(facts, module, (name, text_of(node.child_by_field_name("alias"))))
    elif kind in ("identifier", "scoped_identifier", "self", "crate", "super"):
        module, name = _rust_split(_rust_join(base, compact(node)))
        if not module:
            facts.append((name, ()))
        elif name == "self":
            _rust_add(facts, module, ("self", module.rsplit("::", 1)[-1]))
        else:
            _rust_add(facts, module, (name, name))


def _rust_split(path: str) -> tuple[str, str]:
    """`a::b::c` -> ("a::b", "c"); a single segment has no module part."""
    module, _, name = path.rpartition("::")
    return module, name


def _rust_add(facts: ImportFacts, module: str, name: tuple[str, str]) -> None:
    """Add `name` to the last entry when it is the same module (one `{...}` list)."""
    if facts and facts[-1][0] == module:
        facts[-1] = (module, (*facts[-1][1], name))
    else:
        facts.append((module, (name,)))


def _java(node: Node) -> ImportFacts:
    """Java: `import a.b.C;` binds C from a.b; `import a.b.*;` everything in a.b."""
    path = "".join(compact(child) for child in node.named_children if child.type != "asterisk")
    if not path:
        return []
    if any(child.type == "asterisk" for child in node.named_children):
        return [(path, (STAR,))]
    module, _, name = path.rpartition(".")
    return [(module, ((name, name),))] if module else [(path, ())]


def _literal(node: Node | None) -> str:
    """The value of the outermost string literal in `node` (`__DIR__ . '/a.php'` ->
    `/a.php`), or the text of `node` itself when it holds none (`source lib.sh`)."""
    pending = [node] if node is not None else []
    while pending:
        current = pending.pop(0)
        if "string" in current.type and current.type != "string_content":
            return string_value(current)
        pending.extend(current.named_children)
    return text_of(node)


_SCRIPT_DIR = re.compile(r"^(?:\$\((?:[^()]|\([^()]*\))*\)|\$\{[^}]*\}|\$\w+)/")
"""A leading `$(dirname "$0")/`, `${DIR}/` or `$DIR/`: the script's own folder."""


def _relative(path: str, *, rooted: bool = False) -> str:
    """A path written from a script's own folder (`$(dirname "$0")/a.sh`; with
    `rooted`, PHP's `__DIR__ . '/a.php'` leaves `/a.php`) as `./a.sh`."""
    if rooted and path.startswith("/"):
        return "." + path
    return _SCRIPT_DIR.sub("./", path)


def _ruby(node: Node) -> ImportFacts:
    """Ruby: `require "a/b"` (from the load path), `require_relative "b"` (from here)."""
    method = text_of(node.child_by_field_name("method"))
    arguments = node.child_by_field_name("arguments")
    path = _literal(arguments.named_children[0]) if arguments is not None else ""
    if not path:
        return []
    if method == "require_relative" and not path.startswith("."):
        path = "./" + path
    return [(path, ())]


def _php(node: Node) -> ImportFacts:
    """PHP: `use` of classes and functions by namespace path; require/include of files;
    the namespace the file declares."""
    if node.type == "namespace_name":
        return [(NAMESPACE, ((compact(node).strip("\\"),) * 2,))]
    if node.type != "namespace_use_declaration":
        path = _relative(_literal(node), rooted=True)
        return [(path, ())] if path else []
    group = node.child_by_field_name("body")
    base = next((c for c in node.named_children if c.type == "namespace_name"), None)
    prefix = compact(base).strip("\\") if base is not None else ""
    facts: ImportFacts = []
    for clause in (group or node).named_children:
        if clause.type != "namespace_use_clause":
            continue
        alias_node = clause.child_by_field_name("alias")
        target = next((c for c in clause.named_children if c != alias_node), None)
        full = "\\".join(p for p in (prefix, compact(target).strip("\\")) if p)
        module, _, name = full.rpartition("\\")
        alias = text_of(alias_node) or name
        if name:
            facts.append((module, ((name, alias),)))
    return facts


def _csharp(node: Node) -> ImportFacts:
    """C#: `using A.B;` and `using static A.B;` bring a namespace's (or type's) names;
    `using X = A.B.C;` binds X."""
    alias = node.child_by_field_name("name")
    target = next((c for c in node.named_children if c != alias), None)
    path = compact(target)
    if not path:
        return []
    if alias is None:
        return [(path, (STAR,))]
    module, _, name = path.rpartition(".")
    return [(module, ((name, text_of(alias)),))]


def _dotted_import(path: str, star: bool, alias: str) -> ImportFacts:
    """A JVM import of `path`: everything in it (`a.b.*`) or its last name (as `alias`)."""
    if star:
        return [(path, (STAR,))]
    module, _, name = path.rpartition(".")
    return [(module, ((name, alias or name),))] if module else [(path, ())]


def _kotlin(node: Node) -> ImportFacts:
    """Kotlin: `import a.b.C`, `import a.b.C as D`, `import a.b.*`."""
    path = next((c for c in node.named_children if c.type == "qualified_identifier"), None)
    alias = next((c for c in node.named_children if c.type == "identifier"), None)
    star = any(child.type == "*" for child in node.children)
    return _dotted_import(compact(path), star, text_of(alias)) if path is not None else []


def _scala(node: Node) -> ImportFacts:
    """Scala: `import a.b.C`, `import a.b._` (or `*`), `import a.b.{C => D, E}`."""
    path = ".".join(text_of(c) for c in node.children_by_field_name("path") if c.is_named)
    if not path:
        return []
    selectors = next((c for c in node.named_children if c.type == "namespace_selectors"), None)
    if any(c.type == "namespace_wildcard" for c in node.named_children):
        return [(path, (STAR,))]
    if selectors is None:
        return _dotted_import(path, False, "")
    names: list[tuple[str, str]] = []
    for child in selectors.named_children:
        if child.type == "arrow_renamed_identifier":
            name = text_of(child.child_by_field_name("name"))
            names.append((name, text_of(child.child_by_field_name("alias"))))
        elif child.type == "namespace_wildcard":
            names.append(STAR)
        else:
            names.append((text_of(child), text_of(child)))
    return [(path, tuple(names))]


def _swift(node: Node) -> ImportFacts:
    """Swift: `import Module` (or `import struct Module.Name`): a module of the build."""
    path = next((c for c in node.named_children if c.type == "identifier"), None)
    return [(compact(path), ())] if path is not None else []


def _lua(node: Node) -> ImportFacts:
    """Lua: `require("a.b")`: the module file a/b.lua (or a/b/init.lua); `local m =
    require("a.b")` binds `m` to it (the table the module returns)."""
    arguments = node.child_by_field_name("arguments")
    module = _literal(arguments) if arguments is not None else ""
    if not module:
        return []
    values = node.parent
    statement = values.parent if values is not None and values.type == "expression_list" else None
    if statement is None or statement.type != "assignment_statement" or values is None:
        return [(module, ())]
    targets = statement.child_by_field_name("variable_list") or statement.named_children[0]
    names = [c for c in targets.named_children if c.type == "identifier"]
    if len(names) != 1 or len(values.named_children) != 1:
        return [(module, ())]
    return [(module, (("*", text_of(names[0])),))]


def _bash(node: Node) -> ImportFacts:
    """Bash: `source lib.sh` and `. "$(dirname "$0")/lib.sh"`: a file, by path."""
    argument = node.child_by_field_name("argument")
    path = _relative(_literal(argument)) if argument is not None else ""
    return [(path, ())] if path else []


_READERS: Mapping[str, Callable[[Node], ImportFacts]] = MappingProxyType(
    {
        "python": _python,
        "typescript": script_imports,
        "tsx": script_imports,
        "javascript": script_imports,
        "go": _go,
        "c": _include,
        "cpp": _include,
        "rust": _rust,
        "java": _java,
        "ruby": _ruby,
        "php": _php,
        "csharp": _csharp,
        "kotlin": _kotlin,
        "scala": _scala,
        "swift": _swift,
        "lua": _lua,
        "bash": _bash,
    }
)
