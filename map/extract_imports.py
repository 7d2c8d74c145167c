"""Import statements -> (module as written, bound names), per language.

Names are (imported name, local alias) pairs, as map.model.Import says:

    import a.b                  ("a.b", ())
    import a.b as c             ("a.b", (("*", "c"),))   the module bound as c
    from .x import y as z       (".x", (("y", "z"),))
    from m import *             ("m", (("*", "*"),))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType

from tree_sitter import Node

Names = tuple[tuple[str, str], ...]
ImportFacts = list[tuple[str, Names]]

STAR: tuple[str, str] = ("*", "*")


def imports_of(language: str, node: Node) -> ImportFacts:
    """The imports one captured import node makes, in source order."""
    reader = _READERS.get(language)
    return reader(node) if reader is not None else []


def _text(node: Node | None) -> str:
    if node is None or not node.text:
        return ""
    return node.text.decode("utf-8", errors="replace")


def _python(node: Node) -> ImportFacts:
    if node.type == "import_statement":
        facts: ImportFacts = []
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                module = _text(child.child_by_field_name("name"))
                facts.append((module, (("*", _text(child.child_by_field_name("alias"))),)))
            else:
                facts.append((_text(child), ()))
        return facts
    module = "".join(_text(node.child_by_field_name("module_name")).split())
    names: list[tuple[str, str]] = [
        STAR for child in node.named_children if child.type == "wildcard_import"
    ]
    for child in node.children_by_field_name("name"):
        if child.type == "aliased_import":
            original = _text(child.child_by_field_name("name"))
            names.append((original, _text(child.child_by_field_name("alias"))))
        else:
            names.append((_text(child), _text(child)))
    return [(module, tuple(names))] if module else []


_READERS: Mapping[str, Callable[[Node], ImportFacts]] = MappingProxyType(
    {
        "python": _python,
    }
)
