"""What map answers show of the cached map: a reached node as answers list it, an
edge's facts, freshness (a file counts as stale for an answer when it changed
since the build: `verify.changed_since_build`), and the envelope every map
answer is wrapped in (`map_answer`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from bridge.context import AppContext
from bridge.contract.envelope import Cut, Envelope, Ranked, respond
from bridge.contract.map_shapes import Neighbor, NodeKind
from map import CodeMap, EdgeKind
from map import Neighbor as Reached
from verify import Edge, changed_since_build


@dataclass(frozen=True, slots=True)
class MapStamp:
    """When the map was built, and whether an answer touches a file changed since."""

    built_at: str
    stale: bool
    stale_paths: tuple[str, ...]


def path_of(node_id: str) -> str:
    """The file part of a node ID."""
    return node_id.partition("#")[0]


def edge_of(found: Reached, incoming: bool) -> Edge:
    """The edge `found` was reached over, as user -> used (`incoming`: walking to users)."""
    if incoming:
        return Edge(found.node_id, found.source, found.via)
    return Edge(found.source, found.node_id, found.via)


def neighbor(code_map: CodeMap, found: Reached, incoming: bool) -> Neighbor:
    """A node a graph walk reached, as map answers list it: the walk's facts, the last
    edge's confidence and use lines, and the node's own lines."""
    edge = edge_of(found, incoming)
    facts = edge_facts(code_map, edge.user, edge.used, edge.kind)
    at = set(facts.at).union(
        *(edge_facts(code_map, found.node_id, other, found.via).at for other in found.also)
    )
    item = Neighbor(
        {
            "nodeId": found.node_id,
            "kind": cast(NodeKind, found.kind),
            "distance": found.distance,
            "via": cast(EdgeKind, found.via),
            "from": found.source,
            "confidence": round(found.confidence, 2),
            "edgeConfidence": facts.confidence,
            "at": sorted(at),
        }
    )
    lines = code_map.lines_of(found.node_id)
    if lines:
        item["lines"] = list(lines)
    return item


@dataclass(frozen=True, slots=True)
class EdgeFacts:
    """What answers show of an edge: its `confidence` (2 places) and the 1-based
    lines of its uses (`at`); 1.0 and none for an edge the map does not hold."""

    confidence: float = 1.0
    at: tuple[int, ...] = ()


def edge_facts(code_map: CodeMap, user: str, used: str, kind: str) -> EdgeFacts:
    """The facts of the edge `user -> used` of `kind`."""
    details = code_map.edge_attrs(user, used, kind)
    if details is None:
        return EdgeFacts()
    return EdgeFacts(round(details["confidence"], 2), details["lines"])


def changed_files(code_map: CodeMap) -> list[str]:
    """Every file of the map that differs on disk since the build (stat first)."""
    return sorted(code_map.changed_files())


def map_stamp(code_map: CodeMap, paths: Iterable[str]) -> MapStamp:
    """The freshness facts of an answer that mentions `paths`."""
    stale = tuple(sorted({p for p in paths if changed_since_build(code_map, p)}))
    return MapStamp(code_map.built_at.isoformat(), bool(stale), stale)


def map_answer(
    app: AppContext,
    code_map: CodeMap,
    data: Any,
    *,
    paths: Iterable[str],
    budget: int | None,
    items_key: str | None = None,
    ranked: Ranked | None = None,
    cuts: Sequence[Cut] = (),
    notes: Iterable[str] = (),
) -> Envelope:
    """Wrap a map answer: budget, `mapBuiltAt`, stale files (`staleFiles`) and the
    rebuild hint.

    Synchronous on purpose: no rebuild can start between reading the map and
    answering (rebuilds wait for the event loop; see AppContext.code_map).
    """
    budget_tokens = app.budget(budget)
    stamp = map_stamp(code_map, set(paths))
    warnings = list(notes)
    if unlinked := sorted(code_map.unlinked_files()):
        warnings.append(
            f"the map is being refreshed: {len(unlinked)} files changed while no server ran "
            f"({', '.join(unlinked[:3])}{', ...' if len(unlinked) > 3 else ''}) answer "
            "lookups, search and outline, but their uses are not linked yet: callers, "
            "references and counts may be incomplete until the graph has loaded"
        )
    if stamp.stale:
        shown = ", ".join(stamp.stale_paths[:5])
        more = len(stamp.stale_paths) - 5
        warnings.append(
            f"changed since the map was built: {shown}" + (f" and {more} more" if more > 0 else "")
        )
        data.setdefault("staleFiles", list(stamp.stale_paths))
    if app.note_staleness(stamp.stale):
        warnings.append("stale answers are piling up: call map_rebuild before relying on the map")
    return respond(
        data,
        budget_tokens=budget_tokens,
        items_key=items_key,
        ranked=ranked,
        cuts=cuts,
        warnings=warnings,
        map_built_at=stamp.built_at,
        stale=stamp.stale,
    )
