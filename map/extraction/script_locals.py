"""TypeScript and JavaScript functions declared inside a callback, bound where they are seen.

Tests declare their own helpers inside each test's callback (`it('...', () => {
function Counter() {...}; render(<Counter />) })`): a file then holds many symbols of
one qualified name (`Counter`, `Counter~2`, ...), and a use of the name by name alone
would mean them all. A function declared in a callback is seen only inside it, so
every use there (a bare name, a receiver's head) is renamed to that symbol's own
numbered name (`Counter~7`; the first one `Counter~1`), which
map.linking.scopes.FileScope.numbered finds.
"""

from __future__ import annotations

from collections import defaultdict
from typing import NamedTuple

from tree_sitter import Node

from map.extraction.extract_matches import Collected

NUMBERED = "~"
"""Separates a name from its symbol's number in the file (a node ID's `~2`)."""
_SCRIPTS = frozenset({"typescript", "tsx", "javascript"})
_REQUIRING = "variable_declarator"
"""The import a `require` is (map/extraction/queries/ecmascript.scm): its local's own."""
_CALLBACKS = frozenset({"arrow_function", "function_expression", "function"})
"""Anonymous functions: what they declare is theirs alone."""
_HOLDERS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "method_definition",
        "class_declaration",
        "class",
        "program",
    }
)
"""Nodes whose declarations are symbols of their own scope (qualified apart)."""


class _Seen(NamedTuple):
    start: int
    end: int
    name: str
    numbered: str


def drop_required(found: Collected, language: str) -> None:
    """Forget the locals a CommonJS `require` declares (`const fs = require("fs")`):
    the import binds them, as an ES import would (a local would hide it)."""
    if language not in _SCRIPTS or not found.imports:
        return
    spans = [(n.start_byte, n.end_byte) for n in found.imports if n.type == _REQUIRING]
    if not spans:
        return
    found.assigns = [ref for ref in found.assigns if not any(a <= ref.start < b for a, b in spans)]


def bind_callback_functions(found: Collected, language: str) -> None:
    """Rename the uses of a function declared in a callback, inside that callback, to
    its numbered name when the file has several of its qualified name (see the module)."""
    if language not in _SCRIPTS:
        return
    by_qual: defaultdict[tuple[str, ...], list[tuple[Node, str, str]]] = defaultdict(list)
    for scope in found.scopes:
        if scope.kind is not None and scope.tail:
            by_qual[scope.parts].append((scope.node, scope.name, scope.tail))
    seen: list[_Seen] = []
    for alike in by_qual.values():
        if len(alike) < 2:
            continue
        for node, name, tail in alike:
            callback = _callback(node)
            if callback is not None:
                number = tail.rpartition(NUMBERED)[2] if NUMBERED in tail else "1"
                seen.append(
                    _Seen(callback.start_byte, callback.end_byte, name, name + NUMBERED + number)
                )
    names = {one.name for one in seen}
    for ref in found.refs if seen else ():
        head = ref.qualifier.partition(".")[0] if ref.qualifier else ref.text
        if head not in names:
            continue
        inside = [s for s in seen if s.name == head and s.start <= ref.start < s.end]
        if not inside:
            continue
        numbered = min(inside, key=lambda s: s.end - s.start).numbered
        if ref.qualifier:
            ref.qualifier = numbered + ref.qualifier[len(head) :]
        else:
            ref.text = numbered


def _callback(node: Node) -> Node | None:
    """The anonymous function a declaration is inside of, before any symbol's scope."""
    parent = node.parent
    while parent is not None and parent.type not in _HOLDERS:
        if parent.type in _CALLBACKS:
            return parent
        parent = parent.parent
    return None
