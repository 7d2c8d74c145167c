"""map_*: fast answers from the CACHED map of symbols and edges.

Every answer carries `mapBuiltAt`; an answer that mentions a file changed on
disk since the map was built says `stale: true` and names the files; when
several are stale it suggests `map_rebuild`. For where code is NOW, use the
nav_* tools or `resolve`.

Graph answers (`map_neighbors`, `map_impact`, `map_path`) say they are static
(`source: "map"`, a `note`) and give each edge its `confidence` and use lines
(`at`); with `verify=true` the live server confirms the listed edges
(`verified` per edge: true, false, or null when it could not be checked) and
`verification` sums it up.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable
from typing import Any, Literal

from bridge.context import AppContext
from bridge.envelope import Envelope, respond
from bridge.errors import BadInputError
from bridge.mapverify import Edge, verify_edges
from bridge.mapview import changed_files, edge_facts, map_stamp
from bridge.targets import parse_node_id
from map.codemap import CodeMap
from map.model import EdgeKind
from map.query import Neighbor

USE_EDGES: tuple[EdgeKind, ...] = ("calls", "references", "inherits")
MAX_DEPTH = 10
SOURCE = "map"
STATIC_NOTE = (
    "static edges from the cached map, resolved by name through the imports: confidence 1.0 "
    "resolved, 0.9 through a base class, 0.5 or less a guess by name (unknown receiver); "
    "pass verify=true to confirm the listed edges with the live server"
)


def _answer(
    app: AppContext,
    code_map: CodeMap,
    data: dict[str, Any],
    *,
    paths: Iterable[str],
    budget: int | None,
    items_key: str | None = None,
    notes: Iterable[str] = (),
) -> Envelope:
    """Wrap a map answer: budget, `mapBuiltAt`, stale files and the rebuild hint.

    Synchronous on purpose: no rebuild can start between reading the map and
    answering (rebuilds wait for the event loop; see AppContext.code_map).
    """
    budget_tokens = app.budget(budget)
    stamp = map_stamp(code_map, set(paths))
    warnings = list(notes)
    if stamp.stale:
        shown = ", ".join(stamp.stale_paths[:5])
        more = len(stamp.stale_paths) - 5
        warnings.append(
            f"changed since the map was built: {shown}" + (f" and {more} more" if more > 0 else "")
        )
        data.setdefault("stale_files", list(stamp.stale_paths))
    if app.note_staleness(stamp.stale):
        warnings.append("stale answers are piling up: call map_rebuild before relying on the map")
    return respond(
        data,
        budget_tokens=budget_tokens,
        items_key=items_key,
        warnings=warnings,
        map_built_at=stamp.built_at,
        stale=stamp.stale,
    )


def _path_of(node_id: str) -> str:
    return node_id.partition("#")[0]


def _edge_of(found: Neighbor, incoming: bool) -> Edge:
    """The edge `found` was reached over, as user -> used."""
    if incoming:
        return Edge(found.node_id, found.source, found.via)
    return Edge(found.source, found.node_id, found.via)


def _neighbor(found: Neighbor, code_map: CodeMap, incoming: bool) -> dict[str, Any]:
    lines = code_map.lines_of(found.node_id)
    edge = _edge_of(found, incoming)
    facts = edge_facts(code_map, edge.user, edge.used, edge.kind)
    return {
        "nodeId": found.node_id,
        "kind": found.kind,
        "distance": found.distance,
        "via": found.via,
        "from": found.source,
        "confidence": round(found.confidence, 2),
        "edgeConfidence": facts.get("confidence", 1.0),
        "at": facts.get("at", []),
        **({"lines": list(lines)} if lines else {}),
    }


async def _verified(
    app: AppContext,
    code_map: CodeMap,
    data: dict[str, Any],
    items: list[dict[str, Any]],
    edges: list[Edge],
) -> list[str]:
    """Mark each item `verified` from the live server; the warnings to show."""
    built = code_map.built_at
    verification = await verify_edges(app, code_map, edges)
    for item, edge in zip(items, edges, strict=True):
        item["verified"] = verification.verdicts.get(edge)
    data["verification"] = verification.summary()
    if code_map.built_at != built:
        return ["the map was rebuilt while its edges were being verified: ask again"]
    return []


def _static(data: dict[str, Any]) -> dict[str, Any]:
    """Say that an answer's edges come from the map."""
    return {**data, "source": SOURCE, "note": STATIC_NOTE}


async def map_status(app: AppContext) -> Envelope:
    """The map at a glance: files, symbols, edges, languages, stale files, the
    watcher's state and the last build's duration."""
    code_map = await app.code_map()
    status = dataclasses.asdict(code_map.status())
    status["built_at"] = status["built_at"].isoformat()
    status["last_build_s"] = round(status["last_build_s"], 3)
    status["watcher"] = app.watcher_state()
    if status["watcher"]["status"] != "watching":
        # nothing flags edits as they happen: compare every file with the disk now
        # (a stat each; a hash only where the stamp moved)
        status["stale_files"] = sorted(set(status["stale_files"]) | set(changed_files(code_map)))
    return _answer(app, code_map, status, paths=status["stale_files"], budget=None)


async def map_rebuild(app: AppContext) -> Envelope:
    """Bring the map up to date with the disk now (incremental: only files whose
    content changed are re-extracted). Returns what changed and how long it took."""
    report = await app.rebuild_map()
    code_map = await app.code_map()
    data = dataclasses.asdict(report)
    for key in ("files_changed", "files_removed", "files_added"):
        data[key] = data[key][:50]
    return _answer(app, code_map, data, paths=(), budget=None)


async def map_search(
    app: AppContext,
    query: str,
    kind: str | None = None,
    limit: int = 50,
    budget: int | None = None,
) -> Envelope:
    """Find symbols (and files) in the map by name: a plain substring, a glob
    (`*Store*`) or a regex (`re:^get_`). Optionally one `kind` (class, function,
    method, ...). Returns `hits` with node IDs, best match first."""
    if not query.strip():
        raise BadInputError("empty query", hint="pass part of a name, a glob or re:REGEX")
    if not 1 <= limit <= 500:
        raise BadInputError(f"limit {limit} is out of range", hint="pass 1 to 500")
    code_map = await app.code_map()
    hits = code_map.search(query, kinds=[kind] if kind else None, limit=limit)
    data = {
        "query": query,
        "hits": [
            {
                "nodeId": h.node_id,
                "kind": h.kind,
                "path": h.path,
                **({"lines": list(h.lines)} if h.lines else {}),
            }
            for h in hits
        ],
    }
    return _answer(
        app, code_map, data, paths={h.path for h in hits}, budget=budget, items_key="hits"
    )


async def map_outline(app: AppContext, path: str, budget: int | None = None) -> Envelope:
    """The symbols of one file as the map recorded them, nested, with node IDs
    and 1-based lines (for the live outline use nav_symbols)."""
    file_id = parse_node_id(path).path
    code_map = await app.code_map()
    entries = code_map.outline(file_id)
    data = {
        "path": file_id,
        "symbols": [
            {"nodeId": e.node_id, "kind": e.kind, "lines": list(e.lines), "depth": e.depth}
            for e in entries
        ],
    }
    return _answer(app, code_map, data, paths=[file_id], budget=budget, items_key="symbols")


async def map_neighbors(
    app: AppContext,
    node_id: str,
    direction: Literal["in", "out"] = "out",
    kinds: list[EdgeKind] | None = None,
    depth: int = 1,
    budget: int | None = None,
    verify: bool = False,
) -> Envelope:
    """Graph neighbours of a node: direction "in" gives callers/users, "out" gives
    callees/uses; `kinds` picks edge kinds (calls, references, inherits, imports,
    contains; default calls+references+inherits); `depth` up to 10. Static edges,
    each with its `confidence`; `verify=true` confirms them with the live server."""
    if not 1 <= depth <= MAX_DEPTH:
        raise BadInputError(f"depth {depth} is out of range", hint=f"pass 1 to {MAX_DEPTH}")
    target = parse_node_id(node_id).node_id
    code_map = await app.code_map()
    found = code_map.neighbors(target, direction, kinds or list(USE_EDGES), depth)
    incoming = direction == "in"
    items = [_neighbor(n, code_map, incoming) for n in found]
    data = _static({"nodeId": target, "direction": direction, "neighbors": items})
    notes = (
        await _verified(app, code_map, data, items, [_edge_of(n, incoming) for n in found])
        if verify
        else []
    )
    paths = {_path_of(target), *(_path_of(n.node_id) for n in found)}
    return _answer(
        app, code_map, data, paths=paths, budget=budget, items_key="neighbors", notes=notes
    )


async def map_path(
    app: AppContext, source: str, target: str, budget: int | None = None, verify: bool = False
) -> Envelope:
    """The shortest chain of edges from one node to another (e.g. how a handler
    reaches a database call); empty when there is none. `steps` gives each edge
    with its kind and `confidence`; `verify=true` confirms them with the live server."""
    start, end = parse_node_id(source).node_id, parse_node_id(target).node_id
    code_map = await app.code_map()
    chain = code_map.path(start, end)
    edges = [
        Edge(user, used, _kind_between(code_map, user, used))
        for user, used in itertools.pairwise(chain)
    ]
    steps = [
        {"from": e.user, "to": e.used, "via": e.kind, **_step_facts(code_map, e)} for e in edges
    ]
    data = _static({"from": start, "to": end, "path": chain, "found": bool(chain), "steps": steps})
    notes = await _verified(app, code_map, data, steps, edges) if verify else []
    return _answer(
        app,
        code_map,
        data,
        paths={_path_of(n) for n in chain},
        budget=budget,
        items_key="path",
        notes=notes,
    )


def _kind_between(code_map: CodeMap, user: str, used: str) -> str:
    """The use kind of the edge `map_path` followed from `user` to `used`."""
    kinds = (k for _, v, k in code_map.graph.out_edges(user, keys=True) if v == used)
    return min((str(k) for k in kinds if k != "contains"), default="contains")


def _step_facts(code_map: CodeMap, edge: Edge) -> dict[str, Any]:
    facts = edge_facts(code_map, edge.user, edge.used, edge.kind)
    return {"confidence": facts.get("confidence", 1.0), "at": facts.get("at", [])}


async def map_impact(
    app: AppContext,
    node_id: str,
    depth: int | None = None,
    budget: int | None = None,
    verify: bool = False,
) -> Envelope:
    """What depends on a node, transitively: everything that calls, references or
    inherits it (or its members), nearest first. Use before changing it. Static
    edges; `verify=true` confirms the listed ones with the live server."""
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise BadInputError(f"depth {depth} is out of range", hint=f"pass 1 to {MAX_DEPTH}")
    target = parse_node_id(node_id).node_id
    code_map = await app.code_map()
    found = code_map.impact(target, depth)
    items = [_neighbor(n, code_map, True) for n in found]
    data = _static({"nodeId": target, "count": len(found), "dependents": items})
    notes = (
        await _verified(app, code_map, data, items, [_edge_of(n, True) for n in found])
        if verify
        else []
    )
    paths = {_path_of(target), *(_path_of(n.node_id) for n in found)}
    return _answer(
        app, code_map, data, paths=paths, budget=budget, items_key="dependents", notes=notes
    )


async def map_overview(app: AppContext, budget: int | None = None) -> Envelope:
    """The repo map: the most central symbols (PageRank over the graph), grouped
    by file, within the budget. The compact overview to read first."""
    budget_tokens = app.budget(budget)
    code_map = await app.code_map()
    overview = code_map.overview(max(budget_tokens - 150, 50))
    data = {
        "text": overview.text,
        "symbols": len(overview.entries),
        "truncated": overview.truncated,
    }
    return _answer(
        app, code_map, data, paths={_path_of(e) for e in overview.entries}, budget=budget_tokens
    )
