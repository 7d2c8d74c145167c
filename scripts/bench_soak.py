"""Soak `codeanchor serve`: a steady loop of edits, rebuilds, questions and memory
checks for N minutes, and how the server's memory and latency hold up.

One server on a copy of a real repository (the installed `rich` package, ~100
Python files; with --typescript, bash-language-server's ~60 TypeScript sources
from .tools/node), driven through the mcp SDK's stdio client. Each cycle appends
a function to a file, rebuilds the map, finds it with map_search (it must be
there), asks map_neighbors and nav_references about it; every fifth cycle saves a
memory and checks every memory (each must be listed); then undoes the edit
(scripts/soakbench/loop.py).

Every minute it prints the RSS of each process of the server's tree (from /proc),
cycles and calls per second, errors, lost answers and the median latency of each
tool over that minute. At the end it compares, in this run, the growth of the
tree's RSS after minute --settle (5) with the goal (at most 50 MB over 60
minutes; a shorter run is also extrapolated linearly to 60 minutes) and each
tool's median latency in the last minute with that of minute --settle (goal:
within 20%; memory_check per memory checked, as the memories pile up). The growth
is given for the whole tree and for codeanchor's own process (the rest is the language
servers').

    .venv/bin/python scripts/bench_soak.py --minutes 15
    .venv/bin/python scripts/bench_soak.py --minutes 10 --typescript --json > soak.json
    .venv/bin/python scripts/bench_soak.py --minutes 3 --in-process   # what grows, and where

With --in-process the tools run in this process (no MCP transport), and each minute
also prints the allocation sites (tracemalloc) and the types of live objects that
grew most since the minute before (scripts/soakbench/inproc.py): how issue 36's
growth was found.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))  # the tests' git and MCP session helpers

from benchinfo import code_commit  # noqa: E402
from mcp import Client  # noqa: E402
from soakbench.corpus import python_corpus, typescript_corpus  # noqa: E402
from soakbench.inproc import Growth, InProcessClient  # noqa: E402
from soakbench.loop import CALL_TIMEOUT_S, Soak, Tally, run_for  # noqa: E402
from soakbench.tree import SERVE, server_tree  # noqa: E402

from bridge.context import AppContext  # noqa: E402
from tests.bridge.mcp_session import server_params  # noqa: E402

GOAL_GROWTH_MB = 50.0
GOAL_MINUTES = 60
GOAL_LATENCY_RATIO = 1.2


def minute_row(
    minute: int, tally: Tally, seconds: float, memories: int, servers: list[dict[str, Any]]
) -> dict[str, Any]:
    """One minute's figures: the process tree's RSS, what the loop did, and how often
    each language server was restarted so far (`recycles`: for its size)."""
    tree = server_tree()  # in-process: this process is the server (see soakbench.tree)
    return {
        "minute": minute,
        "rssMb": {f"{p.name} ({p.pid})": round(p.rss_mb, 1) for p in tree},
        "rssTotalMb": round(sum(p.rss_mb for p in tree), 1),
        "rssServeMb": round(sum(p.rss_mb for p in tree if p.name.startswith(SERVE)), 1),
        "cycles": tally.cycles,
        "callsPerSecond": round(tally.calls / seconds, 1),
        "errors": len(tally.errors),
        "firstError": tally.errors[0] if tally.errors else None,
        "lost": len(tally.lost),
        "firstLost": tally.lost[0] if tally.lost else None,
        "memories": memories,
        "servers": {
            s["name"]: {k: s[k] for k in ("restarts", "recycles", "heldMb", "boundMb")}
            for s in servers
        },
        "medianMs": {t: round(statistics.median(v) * 1000, 1) for t, v in tally.latency.items()},
        "checkMsPerMemory": round(statistics.median(tally.checked_per_memory) * 1000, 2)
        if tally.checked_per_memory
        else None,
    }


def show(row: dict[str, Any]) -> None:
    tree = ", ".join(f"{name} {mb:.0f}" for name, mb in row["rssMb"].items())
    latency = " ".join(f"{t} {ms:.0f}" for t, ms in sorted(row["medianMs"].items()))
    print(
        f"min {row['minute']:>3}: RSS {row['rssTotalMb']:7.1f} MB [{tree}] | "
        f"{row['cycles']} cycles, {row['callsPerSecond']} calls/s, {row['errors']} errors, "
        f"{row['lost']} lost, {row['memories']} memories | median ms: {latency}"
        f" | check/memory {row['checkMsPerMemory']} ms"
        + "".join(
            f" | {name}: {s['recycles']} recycled, {s['restarts']} restarts, bound {s['boundMb']}"
            for name, s in row["servers"].items()
        ),
        file=sys.stderr,
        flush=True,
    )
    for what in ("firstError", "firstLost"):
        if row[what]:
            print(f"         {what}: {row[what]}", file=sys.stderr, flush=True)


async def soak(
    typescript: bool, minutes: int, keep: bool, in_process: bool
) -> list[dict[str, Any]]:
    """Run the loop for `minutes`; one row per minute (row 0: after the first build)."""
    tmp = Path(tempfile.mkdtemp(prefix="codeanchor-soak-"))
    try:
        corpus = typescript_corpus(tmp) if typescript else python_corpus(tmp)
        print(f"corpus: {corpus.root} ({corpus.language})", file=sys.stderr)
        if not in_process:
            params = server_params(corpus.root)
            async with Client(params, read_timeout_seconds=CALL_TIMEOUT_S) as client:
                return await minutes_of(Soak(client, corpus), minutes, None)
        app = AppContext(corpus.root, serving=True)
        try:
            app.open_map_early()
            app.load_graph_early()
            return await minutes_of(Soak(InProcessClient(app), corpus), minutes, Growth)
        finally:
            await app.aclose()
    finally:
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)


async def minutes_of(
    loop: Soak, minutes: int, growth: Callable[[], Growth] | None
) -> list[dict[str, Any]]:
    """The loop's rows, minute by minute; with `growth`, what grew in this process too."""
    started = time.monotonic()
    await loop.prepare()
    rows = [minute_row(0, loop.take_tally(), time.monotonic() - started, 0, await loop.servers())]
    show(rows[-1])
    traced = growth() if growth is not None else None
    stop = asyncio.Event()
    for minute in range(1, minutes + 1):
        begun = time.monotonic()
        await run_for(loop, 60.0, stop)
        seconds, servers = time.monotonic() - begun, await loop.servers()
        rows.append(minute_row(minute, loop.take_tally(), seconds, len(loop.memories), servers))
        show(rows[-1])
        if traced is not None:
            traced.report()
    return rows


def verdict(rows: list[dict[str, Any]], settle: int) -> dict[str, Any]:
    """Growth after minute `settle` and latency drift, against the goals."""
    base = rows[min(settle, len(rows) - 2)]
    last = rows[-1]
    span = last["minute"] - base["minute"]
    growth = last["rssTotalMb"] - base["rssTotalMb"]
    own = last["rssServeMb"] - base["rssServeMb"]
    per_minute = growth / span if span else 0.0
    own_per_minute = own / span if span else 0.0
    drift = {  # memory_check checks every memory saved so far: compared per memory below
        tool: round(ms / base["medianMs"][tool], 2)
        for tool, ms in last["medianMs"].items()
        if base["medianMs"].get(tool) and tool != "memory_check"
    }
    if base["checkMsPerMemory"] and last["checkMsPerMemory"]:
        drift["memory_check per memory"] = round(
            last["checkMsPerMemory"] / base["checkMsPerMemory"], 2
        )
    errors = sum(r["errors"] for r in rows)
    lost = sum(r["lost"] for r in rows)
    projected = per_minute * (GOAL_MINUTES - settle)
    own_projected = own_per_minute * (GOAL_MINUTES - settle)
    return {
        "fromMinute": base["minute"],
        "toMinute": last["minute"],
        "rssGrowthMb": round(growth, 1),
        "rssGrowthMbPerMinute": round(per_minute, 2),
        "projectedGrowthOver60MinMb": round(projected, 1),
        "growthGoalMet": growth <= GOAL_GROWTH_MB and projected <= GOAL_GROWTH_MB,
        "serveGrowthMb": round(own, 1),
        "serveProjectedOver60MinMb": round(own_projected, 1),
        "serveGrowthGoalMet": own <= GOAL_GROWTH_MB and own_projected <= GOAL_GROWTH_MB,
        "latencyRatio": drift,
        "latencyGoalMet": all(r <= GOAL_LATENCY_RATIO for r in drift.values()),
        "errors": errors,
        "lost": lost,
        "cycles": sum(r["cycles"] for r in rows),
        "serverRecycles": {name: s["recycles"] for name, s in last["servers"].items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=int, default=15)
    parser.add_argument("--settle", type=int, default=5, help="minutes before growth counts")
    parser.add_argument("--typescript", action="store_true", help="a TypeScript corpus")
    parser.add_argument("--json", action="store_true", help="rows and verdict as JSON on stdout")
    parser.add_argument("--keep", action="store_true", help="keep the corpus copy")
    parser.add_argument(
        "--in-process",
        action="store_true",
        help="call the tools in this process and print what grew each minute (debugging)",
    )
    args = parser.parse_args()
    if args.minutes < 2:
        parser.error("--minutes must be at least 2")
    rows = asyncio.run(soak(args.typescript, args.minutes, args.keep, args.in_process))
    result = verdict(rows, args.settle)
    if args.json:
        print(json.dumps({"code": code_commit(), "rows": rows, "verdict": result}, indent=1))
        return
    print(f"code {code_commit()}; {'TypeScript' if args.typescript else 'Python'} corpus")
    print(
        f"RSS growth of the whole tree, minute {result['fromMinute']} -> {result['toMinute']}: "
        f"{result['rssGrowthMb']} MB ({result['rssGrowthMbPerMinute']} MB/min; "
        f"projected over minutes {args.settle}-60: {result['projectedGrowthOver60MinMb']} MB; "
        f"goal <= {GOAL_GROWTH_MB:.0f} MB: {'met' if result['growthGoalMet'] else 'NOT met'})"
    )
    print(
        f"  of which {SERVE} itself: {result['serveGrowthMb']} MB (projected over minutes "
        f"{args.settle}-60: {result['serveProjectedOver60MinMb']} MB; "
        f"{'met' if result['serveGrowthGoalMet'] else 'NOT met'}); the rest is the language "
        "servers'"
    )
    ratios = ", ".join(f"{t} x{r}" for t, r in sorted(result["latencyRatio"].items()))
    print(
        f"latency, last minute / minute {result['fromMinute']} (median): {ratios} "
        f"(goal <= x{GOAL_LATENCY_RATIO}: {'met' if result['latencyGoalMet'] else 'NOT met'})"
    )
    print(f"{result['cycles']} cycles, {result['errors']} errors, {result['lost']} lost")
    recycled = ", ".join(f"{n} {k} times" for n, k in result["serverRecycles"].items())
    print(f"language servers restarted for their size: {recycled or 'none started'}")


if __name__ == "__main__":
    main()
