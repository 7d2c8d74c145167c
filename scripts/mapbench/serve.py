"""What a user of `codeanchor serve` waits for, measured through a real MCP stdio session.

Each function runs one session against a corpus whose map store is valid
(the parent builds it first) and returns named timings in seconds plus the
serving process's peak RSS (and its peak so far when some answers came):

    loading      a fresh server, no edits: process start -> first map_search
                 answer, initialize -> that answer, the first one-hop map_neighbors
                 (in) of the hub symbol asked right after (ask -> answer), whether
                 map_status said the graph was still loading after those two, then
                 process start -> a map_impact answer (it waits for the graph load)
    start        loading, then the p50 of each map query once warm
    rebuild      one-file edit, then map_rebuild over MCP (rebuild + persist)
    watch        one-file edit -> map_search sees the new symbol (watcher,
                 debounce and persistence included)
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp import Client

from mapbench.build import PROBE
from mapbench.labels import FIRST_ANSWER, GRAPH_ANSWER, GRAPH_LOADING, HUB_NEIGHBORS, INIT_ANSWER
from mapbench.session import call, configure, serve, server_peak_mb, until
from mapbench.targets import pick_hub

Timings = dict[str, Any]


async def _timed(work: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await work()
    return time.perf_counter() - started


async def start(root: Path, args: dict[str, Any]) -> Timings:
    """The first answers of a fresh server on a valid store, then warm query p50s."""
    return await _fresh_server(root, args, warm=True)


async def loading(root: Path, args: dict[str, Any]) -> Timings:
    """The first answers of a fresh server on a valid store, no more."""
    return await _fresh_server(root, args, warm=False)


async def _fresh_server(root: Path, args: dict[str, Any], *, warm: bool) -> Timings:
    configure(root, watch=False)
    hub = pick_hub(root)
    launched = time.perf_counter()
    async with serve(root) as client:
        initialized = time.perf_counter()
        found = await _first_answers(client, str(args["file"]), hub, launched, initialized)
        p50 = await _warm_p50(client, str(args["file"]), int(args["n"])) if warm else {}
        peak = server_peak_mb()
    found["timings"].update({f"p50 {label}": seconds for label, seconds in p50.items()})
    return {**found, "rss_of": "server", "process_rss_mb": peak}


async def _first_answers(
    client: Client, rel: str, hub: str, launched: float, initialized: float
) -> Timings:
    """The first map_search, the first one-hop map_neighbors of the hub, whether the graph
    was loaded after them (map_status), then a map_impact (which waits for the graph)."""
    first = await call(client, "map_search", query=Path(rel).stem, limit=5)
    answered = time.perf_counter()
    first_rss = server_peak_mb()
    asked = time.perf_counter()
    around = await call(client, "map_neighbors", node_id=hub, direction="in")
    hub_answered = time.perf_counter()
    hub_rss = server_peak_mb()
    status = await call(client, "map_status")
    hits = [hit["nodeId"] for hit in first["data"]["hits"]]
    await call(client, "map_impact", node_id=hits[0] if hits else rel, depth=2)
    graph_answered = time.perf_counter()
    listed = len(around["data"]["neighbors"])
    hub_notes = [f"{hub}: {listed} listed{' (truncated)' if around['truncated'] else ''}"]
    loading = [] if status["data"]["graphLoaded"] else [GRAPH_LOADING]
    return {
        "timings": {
            FIRST_ANSWER: answered - launched,
            INIT_ANSWER: answered - initialized,
            HUB_NEIGHBORS: hub_answered - asked,
            GRAPH_ANSWER: graph_answered - launched,
        },
        "rss_first_mb": first_rss,
        "rss_at_mb": {HUB_NEIGHBORS: hub_rss, GRAPH_ANSWER: server_peak_mb()},
        "notes": {INIT_ANSWER: loading, HUB_NEIGHBORS: hub_notes + loading},
    }


async def _warm_p50(client: Client, rel: str, repeats: int) -> dict[str, float]:
    """The median time of each map query once the graph is loaded, over `repeats` calls."""
    outline = await call(client, "map_outline", path=rel)
    symbols = [s["nodeId"] for s in outline["data"]["symbols"]]
    node = symbols[0] if symbols else rel
    out = await call(client, "map_neighbors", node_id=node, direction="out", depth=2)
    far = [n["nodeId"] for n in out["data"]["neighbors"]]
    target = far[-1] if far else node
    stem = Path(rel).stem
    queries: dict[str, Callable[[], Awaitable[object]]] = {
        "map_search": lambda: call(client, "map_search", query=stem, limit=20),
        "map_outline": lambda: call(client, "map_outline", path=rel),
        "map_neighbors": lambda: call(client, "map_neighbors", node_id=node, direction="in"),
        "map_impact d2": lambda: call(client, "map_impact", node_id=node, depth=2),
        "map_path": lambda: call(client, "map_path", source=node, target=target),
        "map_overview": lambda: call(client, "map_overview"),
        "map_status": lambda: call(client, "map_status"),
    }
    p50: dict[str, float] = {}
    for label, query in queries.items():
        await query()  # warm: the graph is loaded by the first that needs it
        p50[label] = statistics.median([await _timed(query) for _ in range(repeats)])
    return p50


async def rebuild(root: Path, args: dict[str, Any]) -> Timings:
    """Edit one file, then map_rebuild over MCP (the graph loaded, as in a busy server)."""
    configure(root, watch=False)
    path = root / str(args["file"])
    original = path.read_bytes()
    spent: list[float] = []
    async with serve(root) as client:
        await call(client, "map_overview")
        try:
            for seq in range(int(args["n"])):
                path.write_bytes(original + PROBE.format(seq=seq).encode())
                started = time.perf_counter()
                report = await call(client, "map_rebuild")
                spent.append(time.perf_counter() - started)
                if report["data"]["filesChanged"] != [args["file"]]:
                    raise RuntimeError(f"rebuilt {report['data']['filesChanged'][:5]}")
                path.write_bytes(original)
                await call(client, "map_rebuild")
        finally:
            path.write_bytes(original)
            await call(client, "map_rebuild")
        peak = server_peak_mb()
    timings = {"edit+map_rebuild": statistics.median(spent)}
    return {"timings": timings, "rss_of": "server", "process_rss_mb": peak}


async def watch(root: Path, args: dict[str, Any]) -> Timings:
    """Edit one file; time until map_search finds the new symbol (the watcher's work)."""
    configure(root, watch=True)
    path = root / str(args["file"])
    original = path.read_bytes()
    spent: list[float] = []
    async with serve(root) as client:
        await call(client, "map_overview")
        await until(client, lambda s: s["data"]["watcher"]["status"] == "watching", "map_status")
        try:
            for seq in range(int(args["n"])):
                name = f"_codeanchor_bench_probe_{seq}"
                started = time.perf_counter()
                path.write_bytes(original + PROBE.format(seq=seq).encode())
                await until(client, lambda s: bool(s["data"]["hits"]), "map_search", query=name)
                spent.append(time.perf_counter() - started)
                path.write_bytes(original)
                await until(client, lambda s: not s["data"]["hits"], "map_search", query=name)
        finally:
            path.write_bytes(original)
        peak = server_peak_mb()
    timings = {"edit-to-fresh (watcher)": statistics.median(spent)}
    return {"timings": timings, "rss_of": "server", "process_rss_mb": peak}


SESSIONS: dict[str, Callable[[Path, dict[str, Any]], Awaitable[Timings]]] = {
    "serve-start": start,
    "serve-loading": loading,
    "serve-rebuild": rebuild,
    "serve-watch": watch,
}
