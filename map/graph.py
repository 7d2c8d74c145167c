"""The networkx graph of the map: what its nodes and edges carry.

Nodes: a file (`kind="file"`, `path`, `language`, `content_hash`) and its
symbols (`kind` a SymbolKind, `path`, `name`, `qualname`, `lines` 1-based
inclusive, `range`/`selection` as LSP `Range`s, `container`, `fingerprint`).
Edges are keyed by their kind: `contains` (file -> top-level symbol, symbol
-> member), `imports` (file -> file), and `calls`/`references`/`inherits`
(the enclosing symbol of a use -> the symbol used), which carry the 1-based
`lines` of the uses, a `confidence` and, when ambiguous, the `candidates`.

Every change is recorded as the files it touched (whose nodes or outgoing
edges moved), so saving writes only those: `take_touched`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple, TypeAlias

import networkx as nx

from map.model import FileExtract, Symbol

FILE_KIND = "file"
MapGraph: TypeAlias = "nx.MultiDiGraph[str]"


class Link(NamedTuple):
    """One use resolved to one target: a contribution to an edge."""

    scope: str
    target: str
    kind: str
    line: int
    confidence: float
    candidates: tuple[str, ...]


EdgeKey = tuple[str, str, str]
_TOUCHED = "touched"
"""The graph attribute holding the paths of the files changed since `take_touched`."""


def take_touched(graph: MapGraph) -> set[str]:
    """The files whose nodes or outgoing edges changed since the last call."""
    touched: set[str] = graph.graph.pop(_TOUCHED, set())
    return touched


def _touch(graph: MapGraph, node_ids: Iterable[str]) -> None:
    touched: set[str] = graph.graph.setdefault(_TOUCHED, set())
    touched.update(n.partition("#")[0] for n in node_ids)


def node_rows(graph: MapGraph, extract: FileExtract) -> list[tuple[str, dict[str, Any]]]:
    """(ID, attributes) of a file's node and its symbols' nodes."""
    ids = [extract.path, *(s.node_id for s in extract.symbols)]
    return [(n, graph.nodes[n]) for n in ids]


def use_edges(graph: MapGraph, extract: FileExtract) -> list[tuple[str, str, str, dict[str, Any]]]:
    """(source, target, kind, attributes) of the uses and imports from a file's nodes."""
    ids = [extract.path, *(s.node_id for s in extract.symbols)]
    return [
        (u, v, k, d) for u, v, k, d in graph.out_edges(ids, keys=True, data=True) if k != "contains"
    ]


def symbol_attrs(symbol: Symbol, path: str) -> dict[str, Any]:
    """The node attributes of a symbol."""
    return {
        "kind": symbol.kind,
        "path": path,
        "name": symbol.name,
        "qualname": symbol.qualname,
        "lines": (symbol.range.first_line, symbol.range.last_line),
        "range": symbol.range,
        "selection": symbol.selection,
        "container": symbol.container,
        "fingerprint": symbol.fingerprint,
    }


def add_file(graph: MapGraph, extract: FileExtract) -> None:
    """Add (or refresh) a file node, its symbol nodes and their `contains` edges."""
    path = extract.path
    _touch(graph, (path,))
    graph.add_node(
        path,
        kind=FILE_KIND,
        path=path,
        language=extract.language,
        content_hash=extract.content_hash,
    )
    for symbol in extract.symbols:
        graph.add_node(symbol.node_id, **symbol_attrs(symbol, path))
    for parent, child in _containment(extract):
        graph.add_edge(parent, child, key="contains", kind="contains")


def replace_file(
    graph: MapGraph, old: FileExtract | None, new: FileExtract | None, path: str
) -> None:
    """Turn a file's nodes from `old` into `new` (None: absent).

    Symbols that keep their ID keep their node, so edges from other files
    into them stay; vanished symbols go with every edge touching them.
    """
    kept = {s.node_id for s in new.symbols} if new is not None else set()
    _touch(graph, (path,))
    if old is not None:
        gone = [s.node_id for s in old.symbols if s.node_id not in kept]
        losing = [n for n in (*gone, *([path] if new is None else [])) if n in graph]
        _touch(graph, (u for u, _ in graph.in_edges(losing)))  # their edges into it go
        graph.remove_nodes_from(gone)
        for parent, child in _containment(old):
            if graph.has_edge(parent, child, key="contains"):
                graph.remove_edge(parent, child, key="contains")
    if new is not None:
        add_file(graph, new)
    elif path in graph:
        graph.remove_node(path)


def set_edge(graph: MapGraph, key: EdgeKey, links: Iterable[Link]) -> None:
    """Write one aggregated edge from its contributions; none removes it."""
    source, target, kind = key
    _touch(graph, (source,))
    lines: set[int] = set()
    candidates: set[str] = set()
    confidence = 0.0
    for link in links:
        lines.add(link.line)
        candidates.update(link.candidates)
        confidence = max(confidence, link.confidence)
    if not lines:
        if graph.has_edge(source, target, key=kind):
            graph.remove_edge(source, target, key=kind)
        return
    graph.add_edge(
        source,
        target,
        key=kind,
        kind=kind,
        lines=tuple(sorted(lines)),
        confidence=confidence,
        candidates=tuple(sorted(candidates)),
    )


def set_imports(graph: MapGraph, path: str, imported: dict[str, tuple[int, ...]]) -> None:
    """Replace a file's `imports` edges."""
    _touch(graph, (path,))
    stale = [
        target
        for _, target, key in graph.out_edges(path, keys=True)
        if key == "imports" and target not in imported
    ]
    for target in stale:
        graph.remove_edge(path, target, key="imports")
    for target, lines in imported.items():
        graph.add_edge(
            path,
            target,
            key="imports",
            kind="imports",
            lines=lines,
            confidence=1.0,
            candidates=(),
        )


def _containment(extract: FileExtract) -> list[tuple[str, str]]:
    """(parent, child) pairs: each symbol's innermost enclosing symbol, else its file."""
    by_qual: dict[str, list[Symbol]] = {}
    for symbol in extract.symbols:
        by_qual.setdefault(symbol.qualname, []).append(symbol)
    pairs: list[tuple[str, str]] = []
    for symbol in extract.symbols:
        parent = extract.path
        for depth in range(len(symbol.container), 0, -1):
            owners = by_qual.get(".".join(symbol.container[:depth]), [])
            enclosing = [o for o in owners if _encloses(o, symbol)] or owners
            if enclosing:
                parent = enclosing[0].node_id
                break
        pairs.append((parent, symbol.node_id))
    return pairs


def _encloses(outer: Symbol, inner: Symbol) -> bool:
    a, b = outer.range, inner.range
    return (a.start_line, a.start_char) <= (b.start_line, b.start_char) and (
        a.end_line,
        a.end_char,
    ) >= (b.end_line, b.end_char)
