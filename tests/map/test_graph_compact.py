"""The loaded graph is compact, and answers what the store answers.

The graph keeps only what ranking, paths, impact and walks read; a node's
ranges and fingerprint come from its file's extract and an edge's use lines
and candidates from the linker. A map answering from its store (before the
graph loads) and the same map with its graph loaded must say the same.
"""

from __future__ import annotations

import sys
from pathlib import Path

from map.live.codemap import CodeMap
from tests.map.graph_state import copy_repo

GRAPH_NODE_KEYS = {"kind", "path", "name", "qualname", "lines"}


def test_graph_nodes_and_edges_hold_only_what_queries_read(tmp_path: Path) -> None:
    graph = CodeMap.open(copy_repo(tmp_path)).graph
    symbols = [d for _, d in graph.nodes(data=True) if d["kind"] != "file"]
    assert symbols
    assert all(set(d) == GRAPH_NODE_KEYS for d in symbols)
    edges = list(graph.edges(keys=True, data=True))
    assert all(set(d) == {"kind", "confidence"} and d["kind"] == k for _, _, k, d in edges)
    shared = {id(d) for *_, d in edges}
    assert len(shared) == len({(d["kind"], d["confidence"]) for *_, d in edges}) < len(edges)
    pairs = [keys for targets in vars(graph)["_succ"].values() for keys in targets.values()]
    assert len({id(keys) for keys in pairs}) < len(pairs)  # one key dict per set of edges


def test_symbol_nodes_share_one_key_table(tmp_path: Path) -> None:
    """A symbol node's attributes are a plain dict, smaller than one built key by key."""
    graph = CodeMap.open(copy_repo(tmp_path)).graph
    symbols = [d for _, d in graph.nodes(data=True) if d["kind"] != "file"]
    built: dict[str, object] = {}
    for key, value in symbols[0].items():
        built[key] = value
    assert built == symbols[0] and type(symbols[0]) is dict
    assert all(sys.getsizeof(d) < sys.getsizeof(built) for d in symbols)


def test_a_loaded_map_gives_the_details_its_store_gives(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    CodeMap.open(root)  # the store
    warm = CodeMap.open(root)
    assert not warm.graph_loaded
    nodes = warm.node_ids()
    edges = sorted(
        (source, target, kind)
        for source in nodes
        for target, kind in ((n.node_id, n.via) for n in warm.neighbors(source, "out"))
    )
    assert edges
    from_store = ([warm.attrs(n) for n in nodes], [warm.edge_attrs(*e) for e in edges])
    assert warm.load_graph()
    from_graph = ([warm.attrs(n) for n in nodes], [warm.edge_attrs(*e) for e in edges])
    assert from_graph == from_store
    used = [a for a in from_graph[1] if a is not None and a["kind"] != "imports"]
    assert used and all(a["lines"] for a in used)
    assert any(a["range"].first_line == a["lines"][0] for a in from_graph[0] if a and "range" in a)


def test_a_loaded_map_gives_the_neighbours_its_store_gives(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    (root / "recursive.py").write_text(
        "class Base:\n    pass\n\n\n"
        "def fact(n):\n    return n * fact(n - 1) if n else 1\n\n\n"
        "class Child(Base):\n    def go(self):\n        return fact(3), Base, Child\n"
    )
    CodeMap.open(root)  # the store
    warm = CodeMap.open(root)
    assert not warm.graph_loaded
    asked = [
        (node, direction, kinds)
        for node in warm.node_ids()
        for direction in ("in", "out")
        for kinds in (None, ["calls"], ["references", "inherits"])
    ]
    from_store = [warm.neighbors(node, direction, kinds) for node, direction, kinds in asked]
    assert warm.load_graph()
    from_graph = [warm.neighbors(node, direction, kinds) for node, direction, kinds in asked]
    assert from_graph == from_store
    loops = [n for found in from_graph for n in found if n.node_id == n.source]
    assert loops and any(len(found) > 1 for found in from_graph)
