"""What a user of `codeanchor serve` waits for, measured through a real MCP stdio session.

Each function runs one session against a corpus whose map store is valid
(the parent builds it first) and returns named timings in seconds plus the
serving process's peak RSS (and its peak so far when some answers came):

    start        process start -> first map_search answer, initialize -> that
                 answer, process start -> a map_impact answer asked right after
                 (it needs the loaded graph: the background load's end, as no
                 answer says when the graph is loaded), then the p50 of each
                 map query once warm
    rebuild      one-file edit, then map_rebuild over MCP (rebuild + persist)
    watch        one-file edit -> map_search sees the new symbol (watcher,
                 debounce and persistence included)
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment

from mapbench.build import PROBE
from mapbench.procs import command_line, descendants, vm_hwm_kib

CALL_TIMEOUT_S = 600.0
POLL_S = 0.01
FRESH_DEADLINE_S = 120.0
CODE = Path(__file__).resolve().parents[2]
"""The tree whose code the server runs (its working directory comes first on sys.path)."""

GRAPH_ANSWER = "start-to-map_impact (needs loaded graph)"
"""The timing of the first map_impact, asked right after the first answer: map_status
does not say when the background graph load ends, and map_impact waits for it."""

Timings = dict[str, Any]


def _params(root: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "bridge.cli", "serve", "--root", str(root)],
        env=dict(get_default_environment()),
        cwd=str(CODE),
    )


def _configure(root: Path, *, watch: bool) -> None:
    (root / "codeanchor.toml").write_text(f"watch = {str(watch).lower()}\n")


async def _call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    if result.is_error:
        raise RuntimeError(f"{tool} failed: {text[:300]}")
    envelope: dict[str, Any] = orjson.loads(text)
    return envelope


def _server_peak_mb() -> float:
    """The peak RSS of the `codeanchor serve` process below this one."""
    peaks = [vm_hwm_kib(p) for p in descendants(os.getpid()) if "serve" in command_line(p)]
    return max(peaks, default=0) * 1024 / 1e6


async def _timed(work: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await work()
    return time.perf_counter() - started


async def start(root: Path, args: dict[str, Any]) -> Timings:
    """A fresh server on a valid store: the first answer, then warm query p50s."""
    _configure(root, watch=False)
    stem = Path(str(args["file"])).stem
    launched = time.perf_counter()
    async with Client(_params(root), read_timeout_seconds=CALL_TIMEOUT_S) as client:
        initialized = time.perf_counter()
        first = await _call(client, "map_search", query=stem, limit=5)
        answered = time.perf_counter()
        first_rss = _server_peak_mb()
        hits = [hit["nodeId"] for hit in first["data"]["hits"]]
        await _call(client, "map_impact", node_id=hits[0] if hits else str(args["file"]), depth=2)
        graph_answered = time.perf_counter()
        graph_rss = _server_peak_mb()
        outline = await _call(client, "map_outline", path=str(args["file"]))
        symbols = [s["nodeId"] for s in outline["data"]["symbols"]]
        node = symbols[0] if symbols else str(args["file"])
        out = await _call(client, "map_neighbors", node_id=node, direction="out", depth=2)
        far = [n["nodeId"] for n in out["data"]["neighbors"]]
        target = far[-1] if far else node
        queries: dict[str, Callable[[], Awaitable[object]]] = {
            "map_search": lambda: _call(client, "map_search", query=stem, limit=20),
            "map_outline": lambda: _call(client, "map_outline", path=str(args["file"])),
            "map_neighbors": lambda: _call(client, "map_neighbors", node_id=node, direction="in"),
            "map_impact d2": lambda: _call(client, "map_impact", node_id=node, depth=2),
            "map_path": lambda: _call(client, "map_path", source=node, target=target),
            "map_overview": lambda: _call(client, "map_overview"),
            "map_status": lambda: _call(client, "map_status"),
        }
        p50: dict[str, float] = {}
        for label, query in queries.items():
            await query()  # warm: the graph is loaded by the first that needs it
            p50[label] = statistics.median([await _timed(query) for _ in range(int(args["n"]))])
        peak = _server_peak_mb()
    timings = {
        "start-to-answer": answered - launched,
        "init-to-answer": answered - initialized,
        GRAPH_ANSWER: graph_answered - launched,
        **{f"p50 {label}": seconds for label, seconds in p50.items()},
    }
    return {
        "timings": timings,
        "rss_first_mb": first_rss,
        "rss_at_mb": {GRAPH_ANSWER: graph_rss},
        "server_rss_mb": peak,
    }


async def rebuild(root: Path, args: dict[str, Any]) -> Timings:
    """Edit one file, then map_rebuild over MCP (the graph loaded, as in a busy server)."""
    _configure(root, watch=False)
    path = root / str(args["file"])
    original = path.read_bytes()
    spent: list[float] = []
    async with Client(_params(root), read_timeout_seconds=CALL_TIMEOUT_S) as client:
        await _call(client, "map_overview")
        try:
            for seq in range(int(args["n"])):
                path.write_bytes(original + PROBE.format(seq=seq).encode())
                started = time.perf_counter()
                report = await _call(client, "map_rebuild")
                spent.append(time.perf_counter() - started)
                if report["data"]["filesChanged"] != [args["file"]]:
                    raise RuntimeError(f"rebuilt {report['data']['filesChanged'][:5]}")
                path.write_bytes(original)
                await _call(client, "map_rebuild")
        finally:
            path.write_bytes(original)
            await _call(client, "map_rebuild")
        peak = _server_peak_mb()
    timings = {"edit+map_rebuild": statistics.median(spent)}
    return {"timings": timings, "server_rss_mb": peak}


async def watch(root: Path, args: dict[str, Any]) -> Timings:
    """Edit one file; time until map_search finds the new symbol (the watcher's work)."""
    _configure(root, watch=True)
    path = root / str(args["file"])
    original = path.read_bytes()
    spent: list[float] = []
    async with Client(_params(root), read_timeout_seconds=CALL_TIMEOUT_S) as client:
        await _call(client, "map_overview")
        await _until(client, lambda s: s["data"]["watcher"]["status"] == "watching", "map_status")
        try:
            for seq in range(int(args["n"])):
                name = f"_codeanchor_bench_probe_{seq}"
                started = time.perf_counter()
                path.write_bytes(original + PROBE.format(seq=seq).encode())
                await _until(client, lambda s: bool(s["data"]["hits"]), "map_search", query=name)
                spent.append(time.perf_counter() - started)
                path.write_bytes(original)
                await _until(client, lambda s: not s["data"]["hits"], "map_search", query=name)
        finally:
            path.write_bytes(original)
        peak = _server_peak_mb()
    timings = {"edit-to-fresh (watcher)": statistics.median(spent)}
    return {"timings": timings, "server_rss_mb": peak}


async def _until(
    client: Client, done: Callable[[dict[str, Any]], bool], tool: str, **arguments: Any
) -> None:
    deadline = time.monotonic() + FRESH_DEADLINE_S
    while not done(await _call(client, tool, **arguments)):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{tool} {arguments} never turned as expected")
        await asyncio.sleep(POLL_S)


SESSIONS: dict[str, Callable[[Path, dict[str, Any]], Awaitable[Timings]]] = {
    "serve-start": start,
    "serve-rebuild": rebuild,
    "serve-watch": watch,
}
