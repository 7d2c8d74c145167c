"""Benchmark the bridge: each tool's latency in-process, through MCP, and the LSP's own.

The corpus is a real repository of a few hundred files: the sources of an
installed package (pygments by default: ~340 files, ~130k lines) copied into a
git repository kept in a cache folder (by package version); nothing is
downloaded. `codeanchor serve` runs without the file watcher unless --watch.
Targets are picked from the map (the class referenced from the most files, its
most-called method, the member that calls the most), never hard-coded lines.

For every tool it measures, over --runs calls after a warm-up:

    raw      the live layer's own call (`app.live.references(...)` etc.): the
             language server's time plus disk sync; live tools only
    inproc   `await tool(app, ...)`: raw plus target parsing and the envelope
    mcp      the same call through `codeanchor serve` over the MCP stdio
             transport (a subprocess started with the mcp SDK's client)

and prints the median and p95 of each, the envelope's cost (inproc - raw), the
transport's (mcp - inproc) and the whole overhead MCP - raw (for the map tools,
which have no raw call: MCP - inproc). Cold starts (the first call, which
starts the language server, and the MCP session's start) are left out of the
figures and reported apart. Progress goes to stderr, the table to stdout (JSON with --json).
The corpus, targets, cases, measuring and report are in scripts/bridgebench/.

    .venv/bin/python scripts/bench_bridge.py --quick     # 5 runs, 5 tools, < 1 min
    .venv/bin/python scripts/bench_bridge.py --json      # every tool, 30 runs
    .venv/bin/python scripts/bench_bridge.py --tools map_search,nav_hover --runs 50
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))  # the tests' git and MCP session helpers

from benchinfo import code_commit  # noqa: E402
from bridgebench.cases import all_cases  # noqa: E402
from bridgebench.corpus import DEFAULT_CACHE, DEFAULT_PACKAGE, corpus  # noqa: E402
from bridgebench.measure import Samples, err, measure_inproc, measure_mcp  # noqa: E402
from bridgebench.report import print_table, rows  # noqa: E402
from bridgebench.targets import pick_targets  # noqa: E402

from map.live.codemap import CodeMap  # noqa: E402

QUICK_TOOLS = ("nav_references", "nav_hover", "resolve", "map_search", "map_status")
QUICK_RUNS = 5


async def bench(
    package: str, cache: Path, runs: int, tools: tuple[str, ...] | None, *, watch: bool
) -> dict[str, Any]:
    """Make the corpus and its map, measure every case in both modes; the report."""
    root, reused = corpus(package, cache)
    (root / "codeanchor.toml").write_text(f"watch = {str(watch).lower()}\n")
    files = sum(1 for _ in (root / package).rglob("*.py"))
    err.log(f"corpus: {package}, {files} Python files in {root}")
    started = time.perf_counter()
    code_map = await asyncio.to_thread(CodeMap.open, root)
    map_open_s = time.perf_counter() - started
    how = "from the cached snapshot" if reused else "built from scratch"
    err.log(f"map opened in {map_open_s:.1f} s ({how})")
    targets = pick_targets(code_map, root)
    err.log(f"targets: {targets}")
    cases = [c for c in all_cases(targets) if tools is None or c.tool in tools]
    unknown = set(tools or ()) - {c.tool for c in cases}
    if unknown:
        raise SystemExit(f"no such tool to benchmark: {', '.join(sorted(unknown))}")
    samples = {c.label: Samples() for c in cases}
    inproc_cold = await measure_inproc(root, cases, runs, samples)
    mcp_cold = await measure_mcp(root, cases, runs, samples)
    return {
        "corpus": {"package": package, "files": files, "root": str(root)},
        "runs": runs,
        "commit": code_commit(),
        "watch": watch,
        "load": os.getloadavg()[0],
        "targets": asdict(targets),
        "cold": {
            "map_open_s": round(map_open_s, 3),
            "map_from_snapshot": reused,
            "first_tool": cases[0].tool,
            "inproc": inproc_cold,
            "mcp": mcp_cold,
        },
        "tools": rows(samples),
    }


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the benchmark, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=30, help="measured calls per tool and mode")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_RUNS} runs of 5 tools")
    parser.add_argument("--json", action="store_true", help="machine output on stdout")
    parser.add_argument(
        "--watch",
        action="store_true",
        help="serve with the file watcher on, as by default (off: the figures hold the call alone)",
    )
    parser.add_argument(
        "--tools", help="comma-separated tool names (default: all, or the quick set)"
    )
    parser.add_argument("--package", default=DEFAULT_PACKAGE, help="installed package as corpus")
    parser.add_argument(
        "--cache", type=Path, default=DEFAULT_CACHE, help="where the corpus is kept between runs"
    )
    args = parser.parse_args(argv)
    runs = QUICK_RUNS if args.quick else args.runs
    if runs < 1:
        parser.error("--runs must be at least 1")
    tools = tuple(args.tools.split(",")) if args.tools else QUICK_TOOLS if args.quick else None
    report = asyncio.run(bench(args.package, args.cache, runs, tools, watch=args.watch))
    if args.json:
        sys.stdout.write(json.dumps(report, indent=2) + "\n")
    else:
        print_table(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
