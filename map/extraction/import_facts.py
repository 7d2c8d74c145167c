"""What every language's import reader gives (map.extraction.extract_imports): the
facts' shape, the names every reader shares, and the literal text they read."""

from __future__ import annotations

from tree_sitter import Node

from map.extraction.node_text import text_of

Names = tuple[tuple[str, str], ...]
ImportFacts = list[tuple[str, Names]]

STAR: tuple[str, str] = ("*", "*")
OWN_MODULE = "<own>"
"""The module of a script's own exports under another name (a default export, `export
{a as b}`): the file itself, which imports resolve it to (map.linking.modules)."""
NAMESPACE = "<namespace>"
"""The module of a PHP file's `namespace A\\B;` (its one name: `A\\B`): no import, the
namespace the file declares, which the map finds the file by (map.linking.modules)."""


def compact(node: Node | None) -> str:
    """The text of `node` without any whitespace (`a . b` -> `a.b`)."""
    return "".join(text_of(node).split())


def string_value(node: Node | None) -> str:
    """The contents of a string literal node, without its quotes."""
    text = text_of(node)
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'`" else text
