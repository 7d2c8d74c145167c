"""TypeScript and JavaScript overrides: the methods a call of which counts as a call of
another, as the TypeScript server's call hierarchy counts them.

A class's method overrides (or implements) the method of its name in the classes and
interfaces it extends or implements, and tsserver's references of a method take in
that whole family: the method, the members of its name up its bases (`inherits`
edges held, not guessed), and every member of its name in a class deriving from one
of those. So the callers of `BrowserAdapter.disconnect` include `adapter.disconnect()`
on a `DirectAdapter` that derives from the same `BaseAdapter`, and a call on a
receiver typed `DevToolsAdapter` (the interface they implement).
"""

from __future__ import annotations

from map.graph.mapgraph import MapGraph
from map.model import CONFIDENCE_GUESSED

SCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
_INHERITS = "inherits"


def family(graph: MapGraph, node_id: str) -> list[str]:
    """The other methods (node IDs, sorted) whose calls tsserver counts as calls of
    the TS/JS method `node_id`: its bases' members of its name and those of every
    class deriving from a base that has one ([] for anything else)."""
    data = graph.nodes.get(node_id)
    if data is None or data["kind"] != "method" or not data["path"].endswith(SCRIPT_SUFFIXES):
        return []
    owner, _, name = node_id.rpartition(".")
    if owner not in graph or "#" not in owner:
        return []
    roots = [owner, *_reached(graph, owner, up=True)]
    having = [one for one in roots if _member(graph, one, name)]
    found = {_member(graph, one, name) for one in having}
    for base in having:
        found.update(_member(graph, one, name) for one in _reached(graph, base, up=False))
    found.discard(node_id)
    found.discard("")
    return sorted(found)


def _member(graph: MapGraph, owner: str, name: str) -> str:
    """The method `name` of the class or interface `owner` ("" when it has none)."""
    member = f"{owner}.{name}"
    held = graph.nodes.get(member)
    return member if held is not None and held["kind"] == "method" else ""


def _reached(graph: MapGraph, start: str, *, up: bool) -> list[str]:
    """The classes and interfaces `start` derives from (`up`) or that derive from it,
    transitively, along `inherits` edges that hold."""
    seen = {start}
    frontier = [start]
    while frontier:
        current = frontier.pop()
        edges = (
            graph.out_edges(current, keys=True, data=True)
            if up
            else graph.in_edges(current, keys=True, data=True)
        )
        for source, target, kind, held in edges:
            other = target if up else source
            if kind == _INHERITS and held["confidence"] > CONFIDENCE_GUESSED and other not in seen:
                seen.add(other)
                frontier.append(other)
    seen.discard(start)
    return sorted(seen)
