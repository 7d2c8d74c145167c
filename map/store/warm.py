"""Answers from the map store alone, before (or without) the graph.

A restarted server answers outline, a node's attributes and one-hop
neighbours from the store's rows at once (search too: see map.graph.names); each
answer is the one the graph would give (the same `map.graph.query` functions run
on a small graph of just the rows involved; one-hop neighbours on the rows
themselves, `_first_hop`).
"""

from __future__ import annotations

from collections.abc import Iterable

from map.graph import query
from map.graph.mapgraph import FILE_KIND, add_file, new_graph, node_details
from map.graph.overrides import INHERITS, family_of
from map.model import CONFIDENCE_GUESSED, EdgeKind, FileExtract, NodeDetails
from map.store.mapstore import MapStore


def outline(extract: FileExtract) -> list[query.OutlineEntry]:
    """`query.outline` of one file, from its extract."""
    graph = new_graph()
    add_file(graph, extract)
    return query.outline(graph, extract.path)


def attrs(store: MapStore, node_id: str) -> NodeDetails | None:
    """A node's details (see `map.graph.mapgraph.node_details`) from its file's extract."""
    extract = store.extract(node_id.partition("#")[0])
    return node_details(extract, node_id) if extract is not None else None


def neighbors(
    store: MapStore,
    node_id: str,
    direction: str,
    kinds: Iterable[EdgeKind] | None,
    *,
    guesses: bool = True,
) -> list[query.Neighbor]:
    """`query.neighbors` at depth 1 (uses and imports, not `contains`), from one query
    per node asked (no graph: the graph library may still be loading); a TS/JS
    method's callers take in its overrides' (map.graph.overrides), as the graph's do."""
    if store.node(node_id) is None:
        return []
    incoming = direction == "in"
    floor = -1.0 if guesses else CONFIDENCE_GUESSED
    starts = [node_id, *(_family(store, node_id) if incoming else ())]
    found: list[query.Neighbor] = []
    for start in starts:
        ends = store.ends(start, incoming=incoming)
        held = [(o, k, c, n or FILE_KIND) for o, k, c, n in ends if c > floor]
        listed = {n.node_id for n in found} | set(starts[1:])  # the walk's: once each,
        if start != node_id:  # no start but the node's own loop
            listed.add(node_id)
        found.extend(n for n in _first_hop(start, held, kinds) if n.node_id not in listed)
    return found


def _family(store: MapStore, node_id: str) -> list[str]:
    """The TS/JS methods whose callers are `node_id`'s too, from the store's rows."""

    def kind(node: str) -> str | None:
        row = store.node(node)
        return None if row is None else str(row["kind"])

    def ends(node: str, up: bool) -> list[str]:
        return [
            other
            for other, edge_kind, confidence, _ in store.ends(node, incoming=not up)
            if edge_kind == INHERITS and confidence > CONFIDENCE_GUESSED
        ]

    return family_of(node_id, kind, ends)


def _first_hop(
    node_id: str, ends: Iterable[tuple[str, str, float, str]], kinds: Iterable[EdgeKind] | None
) -> list[query.Neighbor]:
    """`query.neighbors` at depth 1 from the edges at `node_id` alone, no graph: each end is
    (the other end, the edge's kind, its confidence, the other end's node kind), all
    into `node_id` or all out of it (a recursive function counts once as its own)."""
    allowed = frozenset(kinds) if kinds is not None else query.USE_KINDS
    steps = sorted(end for end in ends if end[1] in allowed)
    loops = [
        query.Neighbor(node_id, other_kind, 1, kind, node_id, confidence)
        for other, kind, confidence, other_kind in steps
        if other == node_id
    ][:1]
    seen = {node_id}
    found: list[query.Neighbor] = []
    for other, kind, confidence, other_kind in steps:
        if other not in seen:
            seen.add(other)
            found.append(query.Neighbor(other, other_kind, 1, kind, node_id, min(1.0, confidence)))
    return loops + found
