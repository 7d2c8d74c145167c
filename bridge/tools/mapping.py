"""map_*: fast answers from the CACHED map of symbols and edges.

Every answer carries `mapBuiltAt`; an answer that mentions a file changed on
disk since the map was built says `stale: true` and names the files; when
several are stale it suggests `map_rebuild`. For where code is NOW, use the
nav_* tools or `resolve`. The graph answers (`map_neighbors`, `map_impact`,
`map_path`) are bridge.tools.mapgraph's.
"""

from __future__ import annotations

from typing import Any, cast

from bridge.context import AppContext
from bridge.contract.envelope import Cut
from bridge.contract.errors import BadInputError
from bridge.contract.map_shapes import (
    KindFilter,
    NodeKind,
    OutlineAnswer,
    OutlineData,
    OutlineSymbol,
    OverviewAnswer,
    OverviewData,
    SearchAnswer,
    SearchData,
    SearchHit,
    SearchLimit,
    SearchPattern,
    SkipReason,
)
from bridge.contract.map_status_shapes import (
    CacheCounts,
    LanguageServerInfo,
    RebuildAnswer,
    RebuildData,
    StatusAnswer,
    StatusData,
    WatcherInfo,
)
from bridge.contract.schema_types import Budget, FilePath
from bridge.tools.map_summary import summary
from bridge.tools.mapview import changed_files, map_answer, path_of
from bridge.tools.targets import parse_node_id
from map import SymbolKind

ALL_MATCHES = 1_000_000
"""A limit no search reaches: how map_search counts the hits its own limit left out."""

LISTED_FILES = 50
"""Files a rebuild report lists per kind (the counts have them all)."""


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
        teamStore=app.team.info(),
        graphLoaded=code_map.graph_loaded,
        linkLoaded=code_map.link_loaded,
        caches=cast("CacheCounts", app.cache_counts()),
        languageServers=cast("list[LanguageServerInfo]", app.language_servers()),
    )
    if data["watcher"]["status"] != "watching":
        # nothing flags edits as they happen: compare every file with the disk now
        # (a stat each; a hash only where the stamp moved)
        data["staleFiles"] = sorted(set(data["staleFiles"]) | set(changed_files(code_map)))
    return map_answer(app, code_map, data, paths=data["staleFiles"], budget=None)


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
    return map_answer(app, code_map, data, paths=(), budget=None)


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
    kinds = [kind] if kind else None
    hits = code_map.search(query, kinds=kinds, limit=limit + 1)
    cuts: list[Cut] = []
    if len(hits) > limit:  # count what the limit leaves out: a cut is never silent
        matched = len(code_map.search(query, kinds=kinds, limit=ALL_MATCHES))
        hits = hits[:limit]
        cuts.append(Cut(items="hits", kept=limit, dropped=matched - limit))
    found = []
    for h in hits:
        hit = SearchHit(nodeId=h.node_id, kind=cast(NodeKind, h.kind), path=h.path)
        if h.lines:
            hit["lines"] = list(h.lines)
        found.append(hit)
    data = SearchData(query=query, hits=found)
    return map_answer(
        app,
        code_map,
        data,
        paths={h.path for h in hits},
        budget=budget,
        items_key="hits",
        cuts=cuts,
        notes=[
            f"{cut['dropped']} more hits past limit {limit}: raise limit (up to 500) "
            "or narrow the query"
            for cut in cuts
        ],
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
    return map_answer(app, code_map, data, paths=[file_id], budget=budget, items_key="symbols")


async def map_overview(app: AppContext, budget: Budget = None) -> OverviewAnswer:
    """The repo map: the most central symbols (PageRank over the graph), grouped
    by file, within the budget. The compact overview to read first."""
    budget_tokens = app.budget(budget)
    code_map = await app.code_map(graph=True)
    overview = code_map.overview(max(budget_tokens - 150, 50))
    shown = len(overview.entries)
    data = OverviewData(text=overview.text, symbols=shown, truncated=overview.truncated)
    cut = Cut(items="symbols", kept=shown, dropped=overview.ranked - shown)
    return map_answer(
        app,
        code_map,
        data,
        paths={path_of(e) for e in overview.entries},
        budget=budget_tokens,
        cuts=[cut] if overview.truncated else [],
    )
