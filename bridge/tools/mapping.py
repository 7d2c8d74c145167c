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

import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from bridge.context import AppContext
from bridge.contract.envelope import Cut, Envelope, Ranked, estimate_tokens, respond
from bridge.contract.errors import BadInputError
from bridge.contract.map_shapes import (
    EdgeKinds,
    ImpactAnswer,
    ImpactData,
    ImpactDepth,
    KindFilter,
    MapLanguage,
    MapSummary,
    Neighbor,
    NeighborsAnswer,
    NeighborsData,
    NodeId,
    NodeKind,
    OutlineAnswer,
    OutlineData,
    OutlineSymbol,
    OverviewAnswer,
    OverviewData,
    PathAnswer,
    PathData,
    PathEnd,
    PathStart,
    RebuildAnswer,
    RebuildData,
    SearchAnswer,
    SearchData,
    SearchHit,
    SearchLimit,
    SearchPattern,
    SkipReason,
    StaticData,
    StatusAnswer,
    StatusData,
    Step,
    Verify,
    WalkDepth,
    WalkDirection,
    WatcherInfo,
    verification_of,
)
from bridge.contract.schema_types import Budget, FilePath
from bridge.tools.mapview import changed_files, edge_facts, edge_of, map_stamp, neighbor
from bridge.tools.targets import parse_node_id
from map import CodeMap, EdgeKind, MapStatus, SymbolKind
from map import Neighbor as Reached
from verify import Edge, verify_edges

USE_EDGES: tuple[EdgeKind, ...] = ("calls", "references", "inherits")
MAX_DEPTH = 10
LISTED_FILES = 50
"""Files a rebuild report lists per kind (the counts have them all)."""
STATIC_NOTE = (
    "static edges from the cached map, resolved by name through the imports: confidence 1.0 "
    "resolved, 0.9 through a base class, 0.5 or less a guess by name (unknown receiver); "
    "pass verify=true to confirm the listed edges with the live server"
)


def _answer(
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


def _path_of(node_id: str) -> str:
    return node_id.partition("#")[0]


def _static() -> StaticData:
    """What says that an answer's edges come from the map."""
    return StaticData(source="map", note=STATIC_NOTE)


@dataclass
class _Listed:
    """A graph answer's list (`key`): its `edges`, in answer order, and their items,
    built from the front only as far as the answer needs (`first`)."""

    key: str
    edges: list[Edge]
    build: Callable[[int], Neighbor | Step]
    built: list[Neighbor | Step] = field(default_factory=list)

    def first(self, count: int) -> list[Neighbor | Step]:
        """The first `count` items (fewer when there are fewer edges)."""
        while len(self.built) < min(count, len(self.edges)):
            self.built.append(self.build(len(self.built)))
        return self.built[:count]


FIRST_LISTED = 64
"""A graph answer builds this many items, then twice as many, ... until the budget is
reached: a node with thousands of users costs what its answer lists."""


async def _graph_answer(
    app: AppContext,
    code_map: CodeMap,
    data: NeighborsData | ImpactData | PathData,
    listed: _Listed,
    paths: Iterable[str],
    budget: int | None,
    verify: bool,
    cut: str | None = None,
) -> Envelope:
    """A graph answer, its `listed` edges first confirmed live when asked (`verified`
    per item, `verification`): then every item is built; else only those that fit.
    The budget cuts the items, or the list `cut` names (all items are then built)."""
    key, total, fields = listed.key, len(listed.edges), cast(dict[str, Any], data)
    if verify or cut is not None:
        fields[key] = listed.first(total)
        notes = []
        if verify:
            built = code_map.built_at
            verification = await verify_edges(app, code_map, listed.edges)
            for item, edge in zip(fields[key], listed.edges, strict=True):
                item["verified"] = verification.verdicts.get(edge)
            data["verification"] = verification_of(verification)
            if code_map.built_at != built:
                notes.append("the map was rebuilt while its edges were being verified: ask again")
        return _answer(
            app, code_map, data, paths=paths, budget=budget, items_key=cut or key, notes=notes
        )
    budget_tokens = app.budget(budget)
    shown = FIRST_LISTED
    while shown < total:
        fields[key] = listed.first(shown)
        if estimate_tokens(fields) > budget_tokens:  # more cannot fit: list what does
            ranked = Ranked(key, total, lambda n: {**fields, key: listed.first(n)})
            return _answer(app, code_map, data, paths=paths, budget=budget, ranked=ranked)
        shown *= 2
    fields[key] = listed.first(total)
    return _answer(app, code_map, data, paths=paths, budget=budget, items_key=key)


def summary(status: MapStatus) -> MapSummary:
    """The map at a glance, as map_status and `map build` give it."""
    return MapSummary(
        files=status.files,
        symbols=status.symbols,
        edges=status.edges,
        languages=cast(dict[MapLanguage, int], status.languages),
        skipped=cast(dict[SkipReason, int], status.skipped),
        staleFiles=list(status.stale_files),
        builtAt=status.built_at.isoformat(),
        lastBuildSeconds=round(status.last_build_s, 3),
    )


def watcher_info(state: dict[str, Any]) -> WatcherInfo:
    """The watcher's state with camelCase keys."""
    return cast(WatcherInfo, {_camel(k): v for k, v in state.items()})


def _camel(key: str) -> str:
    head, *rest = key.split("_")
    return head + "".join(part.title() for part in rest)


async def map_status(app: AppContext) -> StatusAnswer:
    """The map at a glance: files, symbols, edges, languages, skipped files by reason,
    stale files, the watcher's state, the last build's duration and whether the graph
    is loaded yet (ranking, paths and impact wait for it)."""
    code_map = await app.code_map()
    data = StatusData(
        **summary(code_map.status()),
        watcher=watcher_info(app.watcher_state()),
        graphLoaded=code_map.graph_loaded,
    )
    if data["watcher"]["status"] != "watching":
        # nothing flags edits as they happen: compare every file with the disk now
        # (a stat each; a hash only where the stamp moved)
        data["staleFiles"] = sorted(set(data["staleFiles"]) | set(changed_files(code_map)))
    return _answer(app, code_map, data, paths=data["staleFiles"], budget=None)


async def map_rebuild(app: AppContext) -> RebuildAnswer:
    """Bring the map up to date with the disk now (incremental: only files whose
    content changed are re-extracted). Returns what changed (the first 50 files of
    each list; the counts have them all) and how long it took."""
    report = await app.rebuild_map()
    code_map = await app.code_map()
    data = RebuildData(
        full=report.full,
        filesTotal=report.files_total,
        filesChanged=report.files_changed[:LISTED_FILES],
        filesRemoved=report.files_removed[:LISTED_FILES],
        filesAdded=report.files_added[:LISTED_FILES],
        changedCount=len(report.files_changed),
        removedCount=len(report.files_removed),
        addedCount=len(report.files_added),
        filesRelinked=report.files_relinked,
        restamped=report.restamped,
        skipped=cast(dict[SkipReason, int], report.skipped),
        durationSeconds=round(report.duration_s, 3),
    )
    return _answer(app, code_map, data, paths=(), budget=None)


async def map_search(
    app: AppContext,
    query: SearchPattern,
    kind: KindFilter = None,
    limit: SearchLimit = 50,
    budget: Budget = None,
) -> SearchAnswer:
    """Find symbols (and files) in the map by name: a plain substring, a glob
    (`*Store*`) or a regex (`re:^get_`). Optionally one `kind` (class, function,
    method, ...). Returns `hits` with node IDs, best match first."""
    if not query.strip():
        raise BadInputError("empty query", hint="pass part of a name, a glob or re:REGEX")
    if not 1 <= limit <= 500:
        raise BadInputError(f"limit {limit} is out of range", hint="pass 1 to 500")
    code_map = await app.code_map()
    hits = code_map.search(query, kinds=[kind] if kind else None, limit=limit)
    found = []
    for h in hits:
        hit = SearchHit(nodeId=h.node_id, kind=cast(NodeKind, h.kind), path=h.path)
        if h.lines:
            hit["lines"] = list(h.lines)
        found.append(hit)
    data = SearchData(query=query, hits=found)
    return _answer(
        app, code_map, data, paths={h.path for h in hits}, budget=budget, items_key="hits"
    )


async def map_outline(app: AppContext, path: FilePath, budget: Budget = None) -> OutlineAnswer:
    """The symbols of one file as the map recorded them, nested, with node IDs
    and 1-based lines (for the live outline use nav_symbols)."""
    file_id = parse_node_id(path).path
    code_map = await app.code_map()
    symbols = [
        OutlineSymbol(
            nodeId=e.node_id, kind=cast(SymbolKind, e.kind), lines=list(e.lines), depth=e.depth
        )
        for e in code_map.outline(file_id)
    ]
    data = OutlineData(path=file_id, symbols=symbols)
    return _answer(app, code_map, data, paths=[file_id], budget=budget, items_key="symbols")


def _walked(
    key: str, code_map: CodeMap, target: str, found: list[Reached], incoming: bool
) -> tuple[_Listed, set[str]]:
    """The nodes a walk from `target` reached, listed under `key`, and their files."""
    edges = [edge_of(n, incoming) for n in found]
    listed = _Listed(key, edges, lambda i: neighbor(code_map, found[i], incoming))
    return listed, {_path_of(target), *(_path_of(n.node_id) for n in found)}


async def map_neighbors(
    app: AppContext,
    node_id: NodeId,
    direction: WalkDirection = "out",
    kinds: EdgeKinds = None,
    depth: WalkDepth = 1,
    budget: Budget = None,
    verify: Verify = False,
) -> NeighborsAnswer:
    """Graph neighbours of a node: direction "in" gives callers/users, "out" gives
    callees/uses; `kinds` picks edge kinds (calls, references, inherits, imports,
    contains; default calls+references+inherits); `depth` up to 10. Static edges,
    each with its `confidence`; `verify=true` confirms them with the live server."""
    if not 1 <= depth <= MAX_DEPTH:
        raise BadInputError(f"depth {depth} is out of range", hint=f"pass 1 to {MAX_DEPTH}")
    target = parse_node_id(node_id).node_id
    code_map = await app.code_map(graph=depth > 1)
    found = code_map.neighbors(target, direction, kinds or list(USE_EDGES), depth)
    listed, paths = _walked("neighbors", code_map, target, found, direction == "in")
    data = NeighborsData(**_static(), nodeId=target, direction=direction, neighbors=[])
    return await _graph_answer(app, code_map, data, listed, paths, budget, verify)


async def map_path(
    app: AppContext,
    source: PathStart,
    target: PathEnd,
    budget: Budget = None,
    verify: Verify = False,
) -> PathAnswer:
    """The shortest chain of edges from one node to another (e.g. how a handler
    reaches a database call); empty when there is none. `steps` gives each edge
    with its kind and `confidence`; `verify=true` confirms them with the live server."""
    start, end = parse_node_id(source).node_id, parse_node_id(target).node_id
    code_map = await app.code_map(graph=True)
    chain = code_map.path(start, end)
    edges = [
        Edge(user, used, _kind_between(code_map, user, used))
        for user, used in itertools.pairwise(chain)
    ]
    data = PathData(
        {**_static(), "from": start, "to": end, "path": chain, "found": bool(chain), "steps": []}
    )
    listed = _Listed("steps", edges, lambda i: _step(code_map, edges[i]))
    paths = {_path_of(n) for n in chain}
    return await _graph_answer(app, code_map, data, listed, paths, budget, verify, cut="path")


def _kind_between(code_map: CodeMap, user: str, used: str) -> str:
    """The use kind of the edge `map_path` followed from `user` to `used`."""
    kinds = code_map.edge_kinds(user, used)
    return min((k for k in kinds if k != "contains"), default="contains")


def _step(code_map: CodeMap, edge: Edge) -> Step:
    facts = edge_facts(code_map, edge.user, edge.used, edge.kind)
    return Step(
        {
            "from": edge.user,
            "to": edge.used,
            "via": cast(EdgeKind, edge.kind),
            "confidence": facts.confidence,
            "at": list(facts.at),
        }
    )


async def map_impact(
    app: AppContext,
    node_id: NodeId,
    depth: ImpactDepth = None,
    budget: Budget = None,
    verify: Verify = False,
) -> ImpactAnswer:
    """What depends on a node, transitively: everything that calls, references or
    inherits it (or its members), nearest first. Use before changing it. Static
    edges; `verify=true` confirms the listed ones with the live server."""
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise BadInputError(f"depth {depth} is out of range", hint=f"pass 1 to {MAX_DEPTH}")
    target = parse_node_id(node_id).node_id
    code_map = await app.code_map(graph=True)
    found = code_map.impact(target, depth)
    listed, paths = _walked("dependents", code_map, target, found, True)
    data = ImpactData(**_static(), nodeId=target, count=len(found), dependents=[])
    return await _graph_answer(app, code_map, data, listed, paths, budget, verify)


async def map_overview(app: AppContext, budget: Budget = None) -> OverviewAnswer:
    """The repo map: the most central symbols (PageRank over the graph), grouped
    by file, within the budget. The compact overview to read first."""
    budget_tokens = app.budget(budget)
    code_map = await app.code_map(graph=True)
    overview = code_map.overview(max(budget_tokens - 150, 50))
    shown = len(overview.entries)
    data = OverviewData(text=overview.text, symbols=shown, truncated=overview.truncated)
    cut = Cut(items="symbols", kept=shown, dropped=overview.ranked - shown)
    return _answer(
        app,
        code_map,
        data,
        paths={_path_of(e) for e in overview.entries},
        budget=budget_tokens,
        cuts=[cut] if overview.truncated else [],
    )
