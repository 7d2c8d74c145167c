"""TypeScript and JavaScript overrides: the methods a call of which counts as a call of
another, as the TypeScript server's call hierarchy counts them.

A class's method overrides (or implements) the method of its name in the classes and
interfaces it extends or implements, and tsserver's references of a method take in
that whole family: the method, the members of its name up its bases (`inherits`
edges held, not guessed), and every member of its name in a class deriving from one
of those. So the callers of `BrowserAdapter.disconnect` include `adapter.disconnect()`
on a `DirectAdapter` that derives from the same `BaseAdapter`, and a call on a
receiver typed `DevToolsAdapter` (the interface they implement). An object literal a
function returns as a type (or gives a name annotated with it) is such a class: the
function `inherits` the type (map/extraction/queries/typescript.scm).

The graph's edges or the store's rows (map.store.warm) answer alike: `Hierarchy`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from map.graph.mapgraph import MapGraph
from map.model import CONFIDENCE_GUESSED

SCRIPT_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
INHERITS = "inherits"

Kind = Callable[[str], "str | None"]
"""A node's kind (None: no such node)."""
Ends = Callable[[str, bool], Iterable[str]]
"""The other ends of the held `inherits` edges out of a node (True: up to its bases)
or into it."""


def family(graph: MapGraph, node_id: str) -> list[str]:
    """`family_of` over the graph."""

    def kind(node: str) -> str | None:
        held = graph.nodes.get(node)
        return None if held is None else str(held["kind"])

    def ends(node: str, up: bool) -> Iterable[str]:
        edges = (
            graph.out_edges(node, keys=True, data=True)
            if up
            else graph.in_edges(node, keys=True, data=True)
        )
        return [
            target if up else source
            for source, target, edge_kind, held in edges
            if edge_kind == INHERITS and held["confidence"] > CONFIDENCE_GUESSED
        ]

    return family_of(node_id, kind, ends)


def family_of(node_id: str, kind: Kind, ends: Ends) -> list[str]:
    """The other methods (node IDs, sorted) whose calls tsserver counts as calls of
    the TS/JS method `node_id`: its bases' members of its name and those of every
    class deriving from a base that has one ([] for anything else)."""
    path, _, qualname = node_id.partition("#")
    if not path.endswith(SCRIPT_SUFFIXES) or kind(node_id) != "method":
        return []
    owner_name, _, name = qualname.rpartition(".")
    owner = f"{path}#{owner_name}"
    if not owner_name or kind(owner) is None:
        return []
    having = [one for one in (owner, *_reached(owner, ends, True)) if _has(one, name, kind)]
    found = {f"{one}.{name}" for one in having}
    for base in having:
        found.update(f"{o}.{name}" for o in _reached(base, ends, False) if _has(o, name, kind))
    found.discard(node_id)
    return sorted(found)


def _has(owner: str, name: str, kind: Kind) -> bool:
    """Whether the class or interface `owner` has a method `name`."""
    return kind(f"{owner}.{name}") == "method"


def _reached(start: str, ends: Ends, up: bool) -> list[str]:
    """The classes and interfaces `start` derives from (`up`) or that derive from it,
    transitively, along `inherits` edges that hold."""
    seen = {start}
    frontier = [start]
    while frontier:
        for other in ends(frontier.pop(), up):
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    seen.discard(start)
    return sorted(seen)
