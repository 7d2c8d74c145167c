"""What the bridge benchmark asks about, picked from the map, never hard-coded lines:
the class referenced from the most files, its most-called method, the member
that calls the most, and a use of the class in another file."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from map.live.codemap import CodeMap

USE_EDGES = ("calls", "references", "inherits")
MIN_METHODS = 3


@dataclass(frozen=True)
class Site:
    """A symbol to ask about: its node ID, and a `path:LINE` + name for position targets."""

    node_id: str
    path: str
    line: int
    name: str

    @property
    def position(self) -> str:
        """The `path:LINE` form (with `name`, the column is found for you)."""
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Targets:
    """What the benchmark asks about, all found in the map."""

    cls: Site
    method: Site
    caller: Site
    use: Site


def _site(code_map: CodeMap, node_id: str) -> Site:
    details = code_map.node(node_id)
    if details["kind"] == "file":
        raise SystemExit(f"{node_id} is a file, not a symbol to ask about")
    line = details["selection"].start_line + 1
    return Site(node_id, details["path"], line, details["name"])


def pick_targets(code_map: CodeMap, root: Path) -> Targets:
    """The most widely referenced class (with a few methods), its most-called
    method, the member calling the most, and a use of the class in another file."""
    graph = code_map.graph
    referring: defaultdict[str, set[str]] = defaultdict(set)
    for source, target, kind in graph.edges(keys=True):
        if kind in USE_EDGES and graph.nodes[target].get("kind") == "class":
            referring[target].add(graph.nodes[source]["path"])

    def members(cls: str) -> list[str]:
        """The class's methods, dunders left out (they make poor questions)."""
        return [
            m
            for _, m, k in graph.out_edges(cls, keys=True)
            if k == "contains" and not graph.nodes[m]["name"].startswith("__")
        ]

    def edge_count(node: str, incoming: bool) -> int:
        edges = graph.in_edges(node, keys=True) if incoming else graph.out_edges(node, keys=True)
        return sum(1 for *_, k in edges if k == "calls")

    classes = [c for c in referring if len(members(c)) >= MIN_METHODS]
    if not classes:
        raise SystemExit("the map has no referenced class with methods to ask about")
    cls = max(classes, key=lambda c: (len(referring[c]), c))
    method = max(members(cls), key=lambda m: (edge_count(m, incoming=True), m))
    caller = max(members(cls), key=lambda m: (edge_count(m, incoming=False), m))
    return Targets(
        _site(code_map, cls),
        _site(code_map, method),
        _site(code_map, caller),
        _use(code_map, root, cls),
    )


def _use(code_map: CodeMap, root: Path, cls: str) -> Site:
    """A line in another file that names the class (from the map's edges)."""
    graph = code_map.graph
    name = graph.nodes[cls]["name"]
    word = re.compile(rf"\b{re.escape(name)}\b")
    home = graph.nodes[cls]["path"]
    for source, _, kind in sorted(graph.in_edges(cls, keys=True)):
        path = graph.nodes[source]["path"]
        data = code_map.edge_attrs(source, cls, kind)
        if path == home or data is None:
            continue
        lines = (root / path).read_text().splitlines()
        for line in sorted(data["lines"]):
            if word.search(lines[line - 1]):
                return Site(source, path, line, name)
    raise SystemExit(f"no use of {cls} outside its file")
