"""map_changes: what a diff changed, what depends on it, and which memories it touches.

The diff runs from a commit (default HEAD) to the working tree, or to a
second commit. Its symbols are matched as the memory check matches them
(`memory.symdiff`): added, removed, modified, moved, renamed. Each symbol
that is still there gets its dependents from the map (`map_impact`, to
`depth`), each with its confidence; `verify=true` confirms the first-hop
edges with the live servers (`bridge.mapverify`). Before reading the
dependents, changed files the map has not seen yet are re-extracted
(incremental rebuild). The memories the diff touches are listed with the
references it moved, modified or deleted and the callees that changed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bridge.context import AppContext
from bridge.envelope import Envelope, respond
from bridge.errors import BadInputError
from bridge.mapverify import Edge, verify_edges
from bridge.mapview import edge_facts, map_stamp
from map.codemap import CodeMap
from map.languages import language_for
from map.query import Neighbor
from memory.changes import Diff, Touched, diff_files, symbol_changes
from memory.service import MemoryService
from memory.symdiff import SymbolChange

MAX_DEPTH = 10
MAX_DEPENDENTS = 25
"""Dependents listed per changed symbol (`dependentCount` has them all)."""
MAX_FILES_LISTED = 100
REMOVED_NOTE = (
    "gone from the map with its edges: its remaining uses are not listed here; "
    "nav_diagnostics shows what its removal broke"
)


def _dependent(code_map: CodeMap, found: Neighbor) -> dict[str, Any]:
    facts = edge_facts(code_map, found.node_id, found.source, found.via)
    return {
        "nodeId": found.node_id,
        "kind": found.kind,
        "distance": found.distance,
        "via": found.via,
        "from": found.source,
        "confidence": round(found.confidence, 2),
        "at": facts.get("at", []),
    }


def _symbol(change: SymbolChange, dependents: list[dict[str, Any]], total: int) -> dict[str, Any]:
    item: dict[str, Any] = {
        "change": change.change,
        "nodeId": change.node_id,
        "oldId": change.old_id,
        "kind": change.kind,
        "lines": list(change.lines) if change.lines else None,
    }
    if change.similarity is not None:
        item["similarity"] = change.similarity
    item["dependentCount"] = total
    item["dependents"] = dependents[:MAX_DEPENDENTS]
    if change.change == "removed":
        item["note"] = REMOVED_NOTE
    return item


def _memory(found: Touched) -> dict[str, Any]:
    memory = found.check.memory
    return {
        "id": memory.id,
        "text": memory.text,
        "kind": memory.kind,
        "status": found.check.status,
        "refs": [
            {
                "ref": str(r.anchor.spec),
                "status": r.status,
                "reason": r.reason,
                "path": None if r.place is None else r.place.path,
                "symbol": None if r.place is None else r.place.symbol,
                "startLine": None if r.place is None else r.place.start_line,
                "endLine": None if r.place is None else r.place.end_line,
            }
            for r in found.refs
        ],
        "calleesChanged": list(found.callees),
    }


def _files(diff: Diff) -> list[dict[str, Any]]:
    return [
        {"path": path, "change": c.kind, **({"newPath": c.new_path} if c.new_path else {})}
        for path, c in sorted(diff.files.items())
    ]


async def _fresh_map(app: AppContext, diff: Diff) -> tuple[CodeMap, bool]:
    """The map, rebuilt first when it has not seen a changed file of the working tree."""
    code_map = await app.code_map()
    if diff.until is not None:
        return code_map, False
    new = [c.new_path or p for p, c in diff.files.items() if c.kind != "deleted"]
    known = [p for p in (*diff.files, *new) if language_for(p) is not None]
    if any(code_map.changed_on_disk(p) or p in code_map.stale_files() for p in known):
        await app.rebuild_map()
        return await app.code_map(), True
    return code_map, False


async def map_changes(
    app: AppContext,
    since: str = "HEAD",
    until: str | None = None,
    depth: int = 2,
    verify: bool = False,
    memories: bool = True,
    budget: int | None = None,
) -> Envelope:
    """What changed from the commit `since` (default HEAD) to the working tree (or to
    the commit `until`): `symbols`, each with `change` (added, removed, modified,
    moved, renamed; matched as the memory check matches), `nodeId` (now) and `oldId`
    (before), `lines`, and its `dependents` from the map to `depth` (1 to 10; the
    blast radius: nodeId, distance, via, confidence), first-hop ones confirmed live
    with `verify=true`. `memories` lists the memories the change touches (id, text,
    the `refs` it moved, modified or deleted, `calleesChanged`), so they can be
    updated in the same change; `files` lists the changed files."""
    if not 1 <= depth <= MAX_DEPTH:
        raise BadInputError(f"depth {depth} is out of range", hint=f"pass 1 to {MAX_DEPTH}")
    budget_tokens = app.budget(budget)
    diff = await asyncio.to_thread(diff_files, app.root, since, until)
    code_map, rebuilt = await _fresh_map(app, diff)
    changes, touched = await asyncio.to_thread(_diff, app, code_map, diff, memories)
    items: list[dict[str, Any]] = []
    first_hop: list[tuple[dict[str, Any], Edge]] = []
    for change in changes:
        found: list[Neighbor] = []
        if change.node_id is not None and change.node_id in code_map.graph:
            found = code_map.impact(change.node_id, depth)
        dependents = [_dependent(code_map, n) for n in found]
        first_hop.extend(
            (d, Edge(n.node_id, n.source, n.via))
            for d, n in zip(dependents[:MAX_DEPENDENTS], found, strict=False)
            if n.distance == 1
        )
        items.append(_symbol(change, dependents, len(found)))
    data: dict[str, Any] = {
        "since": diff.since,
        "until": diff.until,
        "counts": {k: sum(c.change == k for c in changes) for k in _KINDS},
        "mapRebuilt": rebuilt,
    }
    warnings = []
    if until is not None:
        warnings.append(
            "dependents come from the map of the working tree, not of the commit `until`"
        )
    if verify:
        built = code_map.built_at
        verification = await verify_edges(app, code_map, [edge for _, edge in first_hop])
        for dependent, edge in first_hop:
            dependent["verified"] = verification.verdicts.get(edge)
        data["verification"] = verification.summary()
        if code_map.built_at != built:
            warnings.append("the map was rebuilt while its edges were being verified: ask again")
    if memories:
        data["memories"] = [_memory(t) for t in touched]
    data["files"] = _files(diff)[:MAX_FILES_LISTED]
    data["symbols"] = items
    stamp = map_stamp(code_map, {c.node_id.partition("#")[0] for c in changes if c.node_id})
    return respond(
        data,
        budget_tokens=budget_tokens,
        items_key="symbols",
        warnings=warnings,
        map_built_at=stamp.built_at,
        stale=stamp.stale,
    )


_KINDS = ("added", "removed", "modified", "moved", "renamed")


def _diff(
    app: AppContext, code_map: CodeMap, diff: Diff, memories: bool
) -> tuple[list[SymbolChange], list[Touched]]:
    """The diff's symbols, and the memories it touches (when asked), on one workspace:
    the memory check reuses the extractions the symbols were matched on."""
    with MemoryService(app.root, code_map=code_map) as service:
        ws = service.workspace()
        changes = symbol_changes(diff, ws)
        return changes, service.touched_by(diff, ws) if memories else []
