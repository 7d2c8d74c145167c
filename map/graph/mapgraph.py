"""The networkx graph of the map: what its nodes and edges carry.

The graph holds what ranking, paths, impact and walks read, and no more:
a file node is `{"kind": "file", "path"}`, a symbol node `{"kind", "path",
"name", "qualname", "lines"}` (1-based, inclusive), every string shared with
the file's extract. Display details (LSP ranges, container, fingerprint,
language, content hash) are read from the extract when an answer needs them
(`node_details`, typed: `map.model.NodeDetails`); nothing above map/ reads the
graph's own attribute dicts. Edges are keyed by their kind: `contains` (file -> top-level
symbol, symbol -> member), `imports` (file -> file), and `calls`/`references`/
`inherits` (the enclosing symbol of a use -> the symbol used). An edge's data
is `{"kind", "confidence"}`, one read-only mapping shared by every edge of that
kind and confidence (`EdgeData`); the lines of its uses and its candidates
live with the linker that resolved it (`Linker.edge_details`). The key dict of
a (source, target) pair (kind -> data, the same object in networkx's `_succ`
and `_pred`) is shared too, read-only, by every pair with the same edges: only
this module changes edges, replacing a pair's key dict instead of editing it
(a dict of its own per pair was 40% of the graph's memory).

Every change is recorded as the files it touched (whose nodes or outgoing
edges moved), so saving writes only those: `take_touched`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from sys import intern
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final, TypeAlias

from map.model import FileDetails, FileExtract, NodeDetails, Symbol, SymbolDetails

if TYPE_CHECKING:
    import networkx as nx

FILE_KIND: Final = "file"
MapGraph: TypeAlias = "nx.MultiDiGraph[str]"
EdgeData: TypeAlias = Mapping[str, Any]
"""An edge's data: `kind` and `confidence`, read-only and shared."""


EdgeKey = tuple[str, str, str]
PAUSE_EVERY = 4096
"""Nodes or edges a load from the store adds between two pauses."""
CONTAINS: Final = "contains"
StoredNode = tuple[str, str, str, str, str, int | None, int | None, str | None]
"""A node as the map store keeps it: ID, kind, name, qualname, path, first and last
line (None: a file), and the node that contains it (None: a file)."""
StoredEdge = tuple[str, str, str, float]
"""A use or import edge as the map store keeps it: source, target, kind, confidence."""
_TOUCHED = "touched"
"""The graph attribute holding the paths of the files changed since `take_touched`."""
_SHARED = "edge data"
"""The graph attribute holding the shared edge data, by (kind, confidence)."""
_NUMBERS = "line numbers"
"""The graph attribute holding one int per line number its nodes' `lines` hold."""
_PAIRS = "key dicts"
"""The graph attribute holding the shared key dicts, by their (kind, confidence) pairs."""
KeyDict: TypeAlias = Mapping[str, EdgeData]
"""The edges of one (source, target) pair: kind -> data, read-only and shared."""


def new_graph() -> MapGraph:
    """An empty map graph. networkx (~0.2 s to import) loads with the first: a process
    that answers from the store alone, or finds nothing changed, never loads it."""
    import networkx as nx

    return nx.MultiDiGraph()


def import_graph_library() -> None:
    """Import networkx now (a server, which always makes a graph, does it in a worker
    thread as it starts: the first answer that relinks an edit then does not wait)."""
    import networkx  # noqa: F401


def take_touched(graph: MapGraph) -> set[str]:
    """The files whose nodes or outgoing edges changed since the last call."""
    touched: set[str] = graph.graph.pop(_TOUCHED, set())
    return touched


def _touch(graph: MapGraph, node_ids: Iterable[str]) -> None:
    touched: set[str] = graph.graph.setdefault(_TOUCHED, set())
    touched.update(n.partition("#")[0] for n in node_ids)


def node_rows(
    graph: MapGraph, extract: FileExtract
) -> list[tuple[str, dict[str, Any], str | None]]:
    """(ID, attributes, the node that contains it: None for the file) of a file's node
    and its symbols' nodes."""
    predecessors: dict[str, dict[str, KeyDict]] = vars(graph)["_pred"]
    rows: list[tuple[str, dict[str, Any], str | None]] = [
        (extract.path, graph.nodes[extract.path], None)
    ]
    for symbol in extract.symbols:
        node = symbol.node_id
        parent = next((p for p, keys in predecessors[node].items() if CONTAINS in keys), None)
        rows.append((node, graph.nodes[node], parent))
    return rows


def use_keys(graph: MapGraph, ids: Iterable[str]) -> list[EdgeKey]:
    """(source, target, kind) of the uses and imports from these nodes (a file's)."""
    return [(u, v, k) for u, v, k in graph.out_edges(ids, keys=True) if k != CONTAINS]


class _SymbolAttrs:
    """Lends its `__dict__` to be a symbol node's attribute dict: CPython keeps one key
    table for the attributes of a class's instances, so that dict takes 112 bytes
    instead of the 184 of a dict built key by key (126k symbols on mix: ~9 MB).
    It is a plain dict all the same."""

    kind: str
    path: str
    name: str
    qualname: str
    lines: tuple[int, int]


def node_attrs(symbol: Symbol, path: str, numbers: dict[int, int]) -> dict[str, Any]:
    """The attributes the graph keeps of a symbol (as a key-sharing dict); its line
    numbers are taken from `numbers` (one int object per number for the whole
    graph, not two per symbol)."""
    first, last = symbol.range.first_line, symbol.range.last_line
    return _symbol_attrs(symbol.kind, path, symbol.name, symbol.qualname, numbers, first, last)


def _symbol_attrs(
    kind: str, path: str, name: str, qualname: str, numbers: dict[int, int], first: int, last: int
) -> dict[str, Any]:
    held = _SymbolAttrs()
    held.kind, held.path, held.name, held.qualname = kind, path, name, qualname
    held.lines = (numbers.setdefault(first, first), numbers.setdefault(last, last))
    return held.__dict__


def node_details(extract: FileExtract, node_id: str) -> NodeDetails | None:
    """Every detail of a node of `extract`'s file (the file's `language` and
    `content_hash` too), or None when the file has no such node."""
    path = extract.path
    if node_id == path:
        return FileDetails(
            id=path,
            kind=FILE_KIND,
            path=path,
            language=extract.language,
            content_hash=extract.content_hash,
        )
    symbol = next((s for s in extract.symbols if s.node_id == node_id), None)
    if symbol is None:
        return None
    return SymbolDetails(
        id=node_id,
        kind=symbol.kind,
        path=path,
        name=symbol.name,
        qualname=symbol.qualname,
        lines=(symbol.range.first_line, symbol.range.last_line),
        range=symbol.range,
        selection=symbol.selection,
        container=symbol.container,
        fingerprint=symbol.fingerprint,
    )


def add_file(graph: MapGraph, extract: FileExtract, *, touch: bool = True) -> None:
    """Add (or refresh) a file node, its symbol nodes and their `contains` edges
    (`touch=False`: as a store holds them, not a change)."""
    path = extract.path
    if touch:
        _touch(graph, (path,))
    numbers: dict[int, int] = graph.graph.setdefault(_NUMBERS, {})
    graph.add_node(path, kind=FILE_KIND, path=path)
    nodes: dict[str, dict[str, Any]] = vars(graph)["_node"]
    for symbol in extract.symbols:
        graph.add_node(symbol.node_id)
        nodes[symbol.node_id] = node_attrs(symbol, path, numbers)  # replaces networkx's
    for parent, child in _containment(extract):
        _put_edge(graph, parent, child, CONTAINS, 1.0)


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
            _drop_edge(graph, parent, child, CONTAINS)
    if new is not None:
        add_file(graph, new)
    elif path in graph:
        graph.remove_node(path)


def set_edge(graph: MapGraph, key: EdgeKey, confidence: float | None) -> None:
    """Write one aggregated edge with its `confidence` (the highest of its uses');
    None removes it."""
    source, target, kind = key
    _touch(graph, (source,))
    if confidence is not None:
        _put_edge(graph, source, target, kind, confidence)
    else:
        _drop_edge(graph, source, target, kind)


def set_imports(graph: MapGraph, path: str, imported: Iterable[str]) -> None:
    """Replace a file's `imports` edges with edges to the `imported` files."""
    _touch(graph, (path,))
    wanted = set(imported)
    stale = [
        target
        for _, target, key in graph.out_edges(path, keys=True)
        if key == "imports" and target not in wanted
    ]
    for target in stale:
        _drop_edge(graph, path, target, "imports")
    for target in sorted(wanted):
        _put_edge(graph, path, target, "imports", 1.0)


def add_stored_nodes(
    graph: MapGraph, rows: Iterable[StoredNode], pause: Callable[[], None] | None = None
) -> None:
    """Add the nodes of a whole map and their `contains` edges, as a store kept them,
    to an empty graph; `pause()` is called every PAUSE_EVERY nodes (map.give_way)."""
    nodes: dict[str, dict[str, Any]] = vars(graph)["_node"]
    successors: dict[str, dict[str, KeyDict]] = vars(graph)["_succ"]
    predecessors: dict[str, dict[str, KeyDict]] = vars(graph)["_pred"]
    numbers: dict[int, int] = graph.graph.setdefault(_NUMBERS, {})
    paths: dict[str, str] = {}
    contained: list[tuple[str, str]] = []
    for count, (node, kind, name, qualname, path, first, last, parent) in enumerate(rows):
        if pause is not None and count % PAUSE_EVERY == 0:
            pause()
        path = paths.setdefault(path, path)
        if kind == FILE_KIND:
            node, attrs = path, {"kind": FILE_KIND, "path": path}
        elif first is None or last is None:
            raise ValueError(f"{node}: a symbol without lines")
        else:
            attrs = _symbol_attrs(kind, path, intern(name), intern(qualname), numbers, first, last)
        nodes[node], successors[node], predecessors[node] = attrs, {}, {}
        if parent is not None:
            contained.append((parent, node))
    contains = _shared_keys(graph, ((CONTAINS, 1.0),))
    for parent, child in contained:
        if parent not in nodes:
            raise ValueError(f"{child}: its parent {parent} is not a node")
        successors[parent][child] = predecessors[child][parent] = contains


def put_edges(
    graph: MapGraph, edges: Iterable[StoredEdge], pause: Callable[[], None] | None = None
) -> None:
    """Add use and import edges as a store kept them (source, target, kind,
    confidence); `pause()` is called every PAUSE_EVERY edges (map.give_way)."""
    successors: dict[str, dict[str, KeyDict]] = vars(graph)["_succ"]
    predecessors: dict[str, dict[str, KeyDict]] = vars(graph)["_pred"]
    # each node's ID as the graph holds it, for the pairs' keys to share (a string of
    # their own per edge read was ~70 MB of mix)
    own = {node: node for node in successors}
    single: dict[tuple[str, float], KeyDict] = {}
    for count, (source, target, kind, confidence) in enumerate(edges):
        if pause is not None and count % PAUSE_EVERY == 0:
            pause()
        source = own.get(source) or _own_node(graph, own, source)
        target = own.get(target) or _own_node(graph, own, target)
        held = successors[source].get(target)
        if held is None:
            keys = single.get((kind, confidence))
            if keys is None:
                keys = single[kind, confidence] = _shared_keys(graph, ((kind, confidence),))
        else:  # the pair has edges already: another kind, or `contains`
            facts = {k: float(d["confidence"]) for k, d in held.items()} | {kind: confidence}
            keys = _shared_keys(graph, tuple(sorted(facts.items())))
        successors[source][target] = predecessors[target][source] = keys


def _own_node(graph: MapGraph, own: dict[str, str], node: str) -> str:
    """Add a node the graph lacks (an edge's end in a file the store lost)."""
    graph.add_node(node)
    own[node] = node
    return node


def _put_edge(graph: MapGraph, source: str, target: str, kind: str, confidence: float) -> None:
    """Add or update an edge with the shared data of its kind and confidence."""
    data = _data(graph, kind, confidence)
    if source not in graph or target not in graph:
        graph.add_edge(source, target, key=kind)  # adds the missing nodes
    successors: dict[str, dict[str, KeyDict]] = vars(graph)["_succ"]
    edges = dict(successors[source].get(target, {}))
    edges[kind] = data
    _set_pair(graph, source, target, edges)


def _drop_edge(graph: MapGraph, source: str, target: str, kind: str) -> None:
    """Remove an edge, if the graph has it."""
    successors: dict[str, dict[str, KeyDict]] = vars(graph)["_succ"]
    edges = successors.get(source, {}).get(target)
    if edges is not None and kind in edges:
        _set_pair(graph, source, target, {k: d for k, d in edges.items() if k != kind})


def _set_pair(graph: MapGraph, source: str, target: str, edges: dict[str, EdgeData]) -> None:
    """Give a (source, target) pair these edges ({}: none), as the key dict shared by
    every pair with the same ones (networkx keeps it under `_succ` and `_pred`)."""
    successors: dict[str, dict[str, KeyDict]] = vars(graph)["_succ"]
    predecessors: dict[str, dict[str, KeyDict]] = vars(graph)["_pred"]
    if not edges:
        successors[source].pop(target, None)
        predecessors[target].pop(source, None)
        return
    facts = tuple(sorted((k, float(d["confidence"])) for k, d in edges.items()))
    successors[source][target] = predecessors[target][source] = _shared_keys(graph, facts)


def _shared_keys(graph: MapGraph, facts: tuple[tuple[str, float], ...]) -> KeyDict:
    """The key dict shared by every pair with these (kind, confidence) edges, sorted."""
    pairs: dict[tuple[tuple[str, float], ...], KeyDict] = graph.graph.setdefault(_PAIRS, {})
    keys = pairs.get(facts)
    if keys is None:
        keys = pairs[facts] = MappingProxyType({k: _data(graph, k, c) for k, c in facts})
    return keys


def _data(graph: MapGraph, kind: str, confidence: float) -> EdgeData:
    """The edge data shared by every edge of this kind and confidence."""
    shared: dict[tuple[str, float], EdgeData] = graph.graph.setdefault(_SHARED, {})
    data = shared.get((kind, confidence))
    if data is None:
        data = shared[kind, confidence] = MappingProxyType({"kind": kind, "confidence": confidence})
    return data


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
