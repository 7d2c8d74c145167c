"""map_changes: what a diff changed, what depends on it, and which memories it touches.

The diff runs from a commit (default HEAD) to the working tree, or to a
second commit. Its symbols are matched as the memory check matches them
(`memory.symdiff`): added, removed, modified, moved, renamed. Each symbol
that is still there gets its dependents from the map (`map_impact`, to
`depth`), each with its confidence; `verify=true` confirms the first-hop
edges with the live servers (`verify.verify_edges`). Before reading the
dependents, changed files the map has not seen yet are re-extracted
(incremental rebuild). The memories the diff touches are listed with the
references it moved, modified or deleted and the callees that changed.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import cast, get_args

from bridge.context import AppContext
from bridge.contract.change_shapes import (
    ChangeCounts,
    ChangedFile,
    ChangedSymbol,
    ChangesAnswer,
    ChangesData,
    ChangesDepth,
    Since,
    TouchedMemory,
    TouchedRef,
    Until,
    WithMemories,
)
from bridge.contract.envelope import Cut, Ranked, respond
from bridge.contract.errors import BadInputError
from bridge.contract.map_shapes import (
    MapReason,
    Neighbor,
    NodeKind,
    Verify,
)
from bridge.contract.map_verdicts import unresolved_site, verification_of
from bridge.contract.schema_types import Budget
from bridge.tools.mapview import edge_of, map_stamp, neighbor
from map import CodeMap, language_for
from map import Neighbor as Reached
from memory import (
    Diff,
    MemoryService,
    SymbolChange,
    SymbolChangeKind,
    Touched,
    diff_files,
    symbol_changes,
)
from verify import (
    Edge,
    MapVerdict,
    OpenSite,
    OpenSites,
    judge_changes,
    judge_dependents,
    verify_edges,
)

MAX_DEPTH = 10
MAX_DEPENDENTS = 1000
"""Dependents listed per changed symbol at most, whatever the budget (`dependentCount`
has them all); the budget cuts them first, before any changed symbol (`_ranked`)."""
MAX_FILES_LISTED = 100
MAX_UNRESOLVED = 5
"""Open uses listed per changed symbol (`unresolvedCount` has them all)."""
REMOVED_NOTE = (
    "gone from the map with its edges: its remaining uses are not listed here; "
    "nav_diagnostics shows what its removal broke"
)


def _symbol(
    change: SymbolChange, dependents: list[Neighbor], total: int, checked: Checked | None
) -> ChangedSymbol:
    item = ChangedSymbol(
        change=change.change,
        nodeId=change.node_id,
        oldId=change.old_id,
        kind=cast(NodeKind, change.kind),
        lines=list(change.lines) if change.lines else None,
        dependentCount=total,
        dependents=dependents[:MAX_DEPENDENTS],
    )
    if change.similarity is not None:
        item["similarity"] = change.similarity
    if change.change == "removed":
        item["note"] = REMOVED_NOTE
    if checked is not None:
        verdict, sites = checked
        item["completeness"] = "complete" if verdict.complete else "partial"
        item["completenessReasons"] = [
            MapReason(code=r.code, message=r.message) for r in verdict.reasons
        ]
        item["unresolved"] = [unresolved_site(site) for site in sites]
        item["unresolvedCount"] = len(verdict.uses)
    return item


Checked = tuple[MapVerdict, list[OpenSite]]
"""How complete a changed symbol's dependents are, and the open uses listed."""


def _checked(
    app: AppContext, code_map: CodeMap, node_id: str | None, found: list[Reached], depth: int
) -> Checked | None:
    """The judgement of `found`, the dependents of `node_id` (None: gone from the map)."""
    if node_id is None or not code_map.has_node(node_id):
        return None
    verdict = judge_dependents(code_map, node_id, found, depth)
    return verdict, OpenSites(app.root, verdict.uses).first(MAX_UNRESOLVED)


def _memory(found: Touched) -> TouchedMemory:
    memory = found.check.memory
    refs = [
        TouchedRef(
            ref=str(r.anchor.spec),
            status=r.status,
            reason=r.reason,
            path=None if r.place is None else r.place.path,
            symbol=None if r.place is None else r.place.symbol,
            startLine=None if r.place is None else r.place.start_line,
            endLine=None if r.place is None else r.place.end_line,
        )
        for r in found.refs
    ]
    return TouchedMemory(
        id=memory.id,
        text=memory.text,
        kind=memory.kind,
        status=found.check.status,
        refs=refs,
        calleesChanged=list(found.callees),
    )


def _cuts(symbols: list[ChangedSymbol], files: int) -> list[Cut]:
    """What the answer lists of each changed symbol's dependents and open uses, and of
    the changed files, where it lists fewer than there are (the counts have them all)."""
    dependents = sum(len(s["dependents"]) for s in symbols)
    unresolved = sum(len(s.get("unresolved", [])) for s in symbols)
    listed = [
        ("dependents", dependents, sum(s["dependentCount"] for s in symbols)),
        ("unresolved", unresolved, sum(s.get("unresolvedCount", 0) for s in symbols)),
    ]
    cuts = [
        Cut(items=key, kept=kept, dropped=total - kept)
        for key, kept, total in listed
        if kept < total
    ]
    if files > MAX_FILES_LISTED:
        cuts.append(Cut(items="files", kept=MAX_FILES_LISTED, dropped=files - MAX_FILES_LISTED))
    return cuts


def _ranked(data: ChangesData) -> Ranked:
    """What the budget keeps of a map_changes answer: every changed symbol (bare)
    before any dependent, then the dependents a rank at a time across the symbols
    (each symbol's first, then each one's second, ...)."""
    symbols = data["symbols"]
    bare = [ChangedSymbol(**{**s, "dependents": []}) for s in symbols]
    order = sorted(
        ((rank, i) for i, s in enumerate(symbols) for rank in range(len(s["dependents"]))),
    )

    def keep(count: int) -> ChangesData:
        if count <= len(symbols):
            return ChangesData(**{**data, "symbols": bare[:count]})
        per = Counter(i for _, i in order[: count - len(symbols)])
        kept = [
            ChangedSymbol(**{**s, "dependents": s["dependents"][: per[i]]})
            for i, s in enumerate(symbols)
        ]
        return ChangesData(**{**data, "symbols": kept})

    sections = (("symbols", len(symbols)), ("dependents", len(order)))
    return Ranked("symbols", len(symbols) + len(order), keep, sections)


def _files(diff: Diff) -> list[ChangedFile]:
    files = []
    for path, c in sorted(diff.files.items()):
        item = ChangedFile(path=path, change=c.kind)
        if c.new_path:
            item["newPath"] = c.new_path
        files.append(item)
    return files


async def _fresh_map(app: AppContext, diff: Diff) -> tuple[CodeMap, bool]:
    """The map, rebuilt first when it has not seen a changed file of the working tree."""
    code_map = await app.code_map(graph=True)
    if diff.until is not None:
        return code_map, False
    new = [c.new_path or p for p, c in diff.files.items() if c.kind != "deleted"]
    known = [p for p in (*diff.files, *new) if language_for(p) is not None]
    if any(code_map.changed_on_disk(p) or p in code_map.stale_files() for p in known):
        await app.rebuild_map()
        return await app.code_map(), True
    return code_map, False


@dataclass(frozen=True, slots=True)
class ChangeSet:
    """A diff read against a map that has seen it: its symbols and, when asked, the
    memories it touches. `nav_diagnostics` reads the same."""

    diff: Diff
    code_map: CodeMap
    rebuilt: bool
    """The map was rebuilt first (it had not seen a changed file)."""
    symbols: list[SymbolChange]
    touched: list[Touched]

    def dependents(self, change: SymbolChange, depth: int) -> list[Reached]:
        """What uses `change`'s symbol as it is now, to `depth` ([]: gone from the map)."""
        if change.node_id is None or not self.code_map.has_node(change.node_id):
            return []
        return self.code_map.impact(change.node_id, depth)


async def read_change(
    app: AppContext, since: str, until: str | None = None, *, memories: bool = False
) -> ChangeSet:
    """The diff from `since` to `until` (None: the working tree), its symbols matched
    on a map rebuilt first when it had not seen a changed file."""
    diff = await asyncio.to_thread(diff_files, app.root, since, until)
    code_map, rebuilt = await _fresh_map(app, diff)
    changes, touched = await asyncio.to_thread(_diff, app, code_map, diff, memories)
    return ChangeSet(diff, code_map, rebuilt, changes, touched)


async def map_changes(
    app: AppContext,
    since: Since = "HEAD",
    until: Until = None,
    depth: ChangesDepth = 2,
    verify: Verify = False,
    memories: WithMemories = True,
    budget: Budget = None,
) -> ChangesAnswer:
    """What changed since commit `since` (to the working tree or `until`): changed
    `symbols` with their `dependents` to `depth` (`verify=true`: first hop checked
    live), and the `memories` and `files` it touches."""
    if not 1 <= depth <= MAX_DEPTH:
        raise BadInputError(f"depth {depth} is out of range", hint=f"pass 1 to {MAX_DEPTH}")
    budget_tokens = app.budget(budget)
    read = await read_change(app, since, until, memories=memories)
    diff, code_map, changes = read.diff, read.code_map, read.symbols
    items: list[ChangedSymbol] = []
    verdicts: list[MapVerdict] = []
    first_hop: list[tuple[Neighbor, Edge]] = []
    for change in changes:
        found = read.dependents(change, depth)
        dependents = [neighbor(code_map, n, True) for n in found]
        first_hop.extend(
            (d, edge_of(n, True))
            for d, n in zip(dependents[:MAX_DEPENDENTS], found, strict=False)
            if n.distance == 1
        )
        checked = _checked(app, code_map, change.node_id, found, depth)
        if checked is not None:
            verdicts.append(checked[0])
        items.append(_symbol(change, dependents, len(found), checked))
    counts = {k: sum(c.change == k for c in changes) for k in get_args(SymbolChangeKind)}
    whole = judge_changes(verdicts, counts["removed"])
    data = ChangesData(
        since=diff.since,
        until=diff.until,
        counts=cast(ChangeCounts, counts),
        mapRebuilt=read.rebuilt,
        completeness="complete" if whole.complete else "partial",
        completenessReasons=[MapReason(code=r.code, message=r.message) for r in whole.reasons],
        files=_files(diff)[:MAX_FILES_LISTED],
        symbols=items,
    )
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
        data["verification"] = verification_of(verification)
        if code_map.built_at != built:
            warnings.append("the map was rebuilt while its edges were being verified: ask again")
    if memories:
        data["memories"] = [_memory(t) for t in read.touched]
    stamp = map_stamp(code_map, {c.node_id.partition("#")[0] for c in changes if c.node_id})
    return respond(
        data,
        budget_tokens=budget_tokens,
        ranked=_ranked(data),
        cuts=_cuts(items, len(diff.files)),
        warnings=warnings,
        map_built_at=stamp.built_at,
        stale=stamp.stale,
    )


def _diff(
    app: AppContext, code_map: CodeMap, diff: Diff, memories: bool
) -> tuple[list[SymbolChange], list[Touched]]:
    """The diff's symbols, and the memories it touches (when asked), on one workspace:
    the memory check reuses the extractions the symbols were matched on."""
    with MemoryService(app.root, code_map=code_map, settings=app.memory_settings) as service:
        ws = service.workspace()
        changes = symbol_changes(diff, ws)
        return changes, service.touched_by(diff, ws, changes) if memories else []
