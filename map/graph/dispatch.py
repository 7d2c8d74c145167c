"""Go's interface dispatch: the interface methods whose calls may run a concrete method.

A Go type satisfies an interface when it has every method the interface lists (no
declaration says so), and a call of the interface's method runs the method of
whatever value the interface holds. So the callers of `(T).M` include the callers
of `I.M` for each interface `I` of the project that `T` satisfies, as gopls's call
hierarchy counts them. Methods are matched by name over the graph: an interface's
methods are the methods it contains (embedded interfaces' are not counted), a
type's are the methods of its qualified name declared in its package's folder.
The other way, a call of `I.M` may run `(T).M` of every type `T` that satisfies `I`
(`implementers`): gopls counts it among their callers, and theirs among `I.M`'s.
"""

from __future__ import annotations

import posixpath

from map.graph.mapgraph import MapGraph

GO_SUFFIX = ".go"


def dispatchers(graph: MapGraph, node_id: str) -> list[str]:
    """The interface methods (node IDs, sorted) a call of which may run the Go method
    `node_id` ([] for anything else)."""
    data = graph.nodes.get(node_id)
    if data is None or data["kind"] != "method" or not data["path"].endswith(GO_SUFFIX):
        return []
    owner, _, name = data["qualname"].rpartition(".")
    package = posixpath.dirname(data["path"])
    own: set[str] = set()
    named: list[tuple[str, str]] = []  # (interface method, its interface)
    for other, held in graph.nodes(data=True):
        if held["kind"] != "method" or not held["path"].endswith(GO_SUFFIX):
            continue
        qual_owner, _, method = held["qualname"].rpartition(".")
        if qual_owner == owner and posixpath.dirname(held["path"]) == package:
            own.add(method)
        elif method == name:
            parent = _interface_of(graph, other)
            if parent is not None:
                named.append((other, parent))
    return sorted(method for method, interface in named if _methods(graph, interface) <= own)


def implementers(graph: MapGraph, node_id: str) -> list[str]:
    """The concrete methods (node IDs, sorted) a call of the Go interface method `node_id`
    may run: those of its name whose type has every method the interface lists ([] for
    anything else); gopls counts their calls as the interface method's."""
    data = graph.nodes.get(node_id)
    if data is None or data["kind"] != "method" or not data["path"].endswith(GO_SUFFIX):
        return []
    interface = _interface_of(graph, node_id)
    if interface is None:
        return []
    wanted = _methods(graph, interface)
    interfaces: set[tuple[str, str]] = set()
    methods: dict[tuple[str, str], set[str]] = {}
    named: list[tuple[str, tuple[str, str]]] = []
    for other, held in graph.nodes(data=True):
        if not held["path"].endswith(GO_SUFFIX):
            continue
        package = posixpath.dirname(held["path"])
        if held["kind"] == "interface":
            interfaces.add((package, held["qualname"]))
        elif held["kind"] == "method":
            owner, _, method = held["qualname"].rpartition(".")
            methods.setdefault((package, owner), set()).add(method)
            if method == data["name"]:
                named.append((other, (package, owner)))
    return sorted(
        method
        for method, owner in named
        if owner not in interfaces and wanted <= methods.get(owner, set())
    )


def _interface_of(graph: MapGraph, method: str) -> str | None:
    """The interface that contains `method`, if one does."""
    for parent, _, kind in graph.in_edges(method, keys=True):
        if kind == "contains" and graph.nodes[parent]["kind"] == "interface":
            return str(parent)
    return None


def _methods(graph: MapGraph, interface: str) -> set[str]:
    """The names of the methods an interface lists."""
    return {
        graph.nodes[child]["name"]
        for _, child, kind in graph.out_edges(interface, keys=True)
        if kind == "contains" and graph.nodes[child]["kind"] == "method"
    }
