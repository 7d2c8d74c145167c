"""What the map tells about one edge: the references behind it, their lines and
candidates. Derived per file from the linker's resolutions when asked (not stored),
so an answer about many edges keeps the files it derived (`KeptUses`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from map.graph.mapgraph import EdgeKey, MapGraph
from map.linking.references import References
from map.linking.resolution import CONFIDENCE_BY_NAME, Resolution
from map.linking.scopes import FileScope
from map.linking.unresolved import is_open

Uses = dict[EdgeKey, list[int]]
"""Use edge -> the indexes of the file's references behind it."""


def edge_uses(references: References, results: Sequence[Resolution | None]) -> Uses:
    """The references (by index) behind each use edge from a file's nodes."""
    uses: Uses = {}
    for index, resolution in enumerate(results):
        for target in resolution.reached if resolution is not None else ():
            uses.setdefault(references.key(index, target), []).append(index)
    return uses


def edge_details(
    graph: MapGraph,
    scope: FileScope,
    references: References,
    results: Sequence[Resolution | None],
    edge: EdgeKey,
    uses: Mapping[EdgeKey, list[int]],
) -> dict[str, Any] | None:
    """An edge's `kind`, `confidence`, the 1-based `lines` of its uses and, when
    ambiguous, the `candidates` (None: the graph has no such edge). An edge that
    holds (confidence above a guess's) has the lines of its own uses only: a guess by
    name of the same target in the same caller (`t.Run` next to `cmd.Run`) is no line
    of it. `scope`,
    `references` and `results` are those of the edge's source file."""
    source, target, kind = edge
    if not graph.has_edge(source, target, key=kind):
        return None
    confidence: float = graph.edges[source, target, kind]["confidence"]
    lines: tuple[int, ...] = ()
    candidates: set[str] = set()
    if kind == "imports":
        lines = scope.imported_files.get(target, ())
    elif kind != "contains":
        sure = confidence > CONFIDENCE_BY_NAME
        indexes = [i for i in uses[edge] if not sure or not is_open(results[i])]
        lines = tuple(sorted({references.line(i) for i in indexes}))
        found = (results[i] for i in indexes)
        candidates.update(*(r.candidates for r in found if r is not None))
    return {
        "kind": kind,
        "lines": lines,
        "confidence": confidence,
        "candidates": tuple(sorted(candidates)),
    }


class KeptUses:
    """The edge uses of the last `limit` files asked (emptied whenever links move)."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._kept: dict[str, Uses] = {}

    def get(self, path: str, derive: Callable[[], Uses]) -> Uses:
        """`path`'s uses, derived when not kept (the oldest kept file makes room)."""
        uses = self._kept.get(path)
        if uses is None:
            if len(self._kept) >= self._limit:
                del self._kept[next(iter(self._kept))]
            uses = self._kept[path] = derive()
        return uses

    def clear(self) -> None:
        """Forget every kept file (call before links change)."""
        self._kept.clear()
