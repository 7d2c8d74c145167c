"""A live outline (LSP document symbols) seen through node IDs.

Servers spell names their own way: gopls writes `(*Server).Handle`, clangd
`Shape::area`, some servers add a parameter list. `name_parts` turns each
into the chain the map uses, so a live symbol gets the same node ID as the
map's (`path#Qual.Name`, `~2` for the second of a name in a file).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from lsp import DocumentSymbolNode, Span
from map import language_for
from verify.targets import NodeTarget

_GO_RECEIVER = re.compile(r"^\(\*?(?P<type>[\w.]+)(?:\[[^\]]*\])?\)\.(?P<name>\w+)$")
_PARAMS = re.compile(r"\(.*\)$")
C_FAMILY = frozenset({"c", "cpp"})
_FUNCTIONS = frozenset({"function", "method", "constructor"})


@dataclass(frozen=True, slots=True)
class LiveSymbol:
    """A symbol of the live outline, with the node ID it would have in the map."""

    node_id: str
    qualname: str
    name: str
    kind: str
    detail: str | None
    span: Span
    selection: Span

    @property
    def container(self) -> tuple[str, ...]:
        """The chain of enclosing names."""
        return tuple(self.qualname.split("."))[:-1]


def name_parts(name: str) -> tuple[str, ...]:
    """A server's symbol name as qualified-name parts."""
    name = name.strip()
    receiver = _GO_RECEIVER.match(name)
    if receiver:
        return (receiver["type"].rsplit(".", 1)[-1], receiver["name"])
    if not name.startswith("operator"):
        name = _PARAMS.sub("", name)
    return tuple(part for part in name.split("::") if part) or (name,)


def flatten(path: str, roots: Sequence[DocumentSymbolNode]) -> list[LiveSymbol]:
    """Every symbol of the outline in document order, each with its node ID. In C and
    C++ a function's forward declaration in the file that defines it is left out, as
    the map leaves it out: the definition keeps the ID the map gives it."""
    seen: Counter[str] = Counter()
    found: list[LiveSymbol] = []
    walked = list(_walk(roots, ()))
    if language_for(path) in C_FAMILY:
        walked = _without_forward_declarations(walked)
    for chain, node in walked:
        qualname = ".".join(chain)
        seen[qualname] += 1
        ordinal = seen[qualname]
        node_id = NodeTarget(path, qualname, ordinal).node_id
        found.append(
            LiveSymbol(
                node_id, qualname, chain[-1], node.kind, node.detail, node.span, node.selection
            )
        )
    return found


Walked = list[tuple[tuple[str, ...], DocumentSymbolNode]]


def _without_forward_declarations(walked: Walked) -> Walked:
    """`walked` less each function's declarations in a file that also defines it over
    more lines (clangd lists both; the map only the definition): of the same-named
    functions, those shorter than the longest are declarations."""
    functions: dict[tuple[str, ...], list[DocumentSymbolNode]] = {}
    for chain, node in walked:
        if node.kind in _FUNCTIONS:
            functions.setdefault(chain, []).append(node)
    declared = {
        id(node)
        for nodes in functions.values()
        for node in nodes
        if _lines(node) < max(_lines(n) for n in nodes)
    }
    return [(chain, node) for chain, node in walked if id(node) not in declared]


def _lines(node: DocumentSymbolNode) -> int:
    return node.span.end_line - node.span.start_line


def _walk(
    nodes: Sequence[DocumentSymbolNode], chain: tuple[str, ...]
) -> Iterator[tuple[tuple[str, ...], DocumentSymbolNode]]:
    ordered = sorted(nodes, key=lambda n: (n.span.start_line, n.span.start_char))
    for node in ordered:
        parts = name_parts(node.name)
        # gopls lists `(*T).m` at top level; a nested `T::m` already carries T
        own = parts if chain and parts[: len(chain)] == chain else chain + parts
        yield own, node
        yield from _walk(node.children, own)


def find_exact(symbols: Sequence[LiveSymbol], target: NodeTarget) -> LiveSymbol | None:
    """The symbol with exactly the target's node ID."""
    return next((s for s in symbols if s.node_id == target.node_id), None)


def find_by_name(symbols: Sequence[LiveSymbol], name: str) -> list[LiveSymbol]:
    """Symbols whose own name (not container) is `name`, in document order."""
    return [s for s in symbols if s.name == name]


def enclosing(symbols: Sequence[LiveSymbol], line: int, character: int) -> list[LiveSymbol]:
    """The symbols whose range holds the position, outermost first."""
    inside = [s for s in symbols if _contains(s.span, line, character)]
    return sorted(inside, key=lambda s: s.qualname.count("."))


def _contains(span: Span, line: int, character: int) -> bool:
    after_start = (line, character) >= (span.start_line, span.start_char)
    before_end = (line, character) <= (span.end_line, span.end_char)
    return after_start and before_end
