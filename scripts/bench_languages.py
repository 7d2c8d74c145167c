"""Benchmark the map's callers in the languages of issue 24, against the parse.

On one pinned real project per language (sinatra, composer, Newtonsoft.Json,
kotlinpoet, Alamofire, os-lib, Penlight, acme.sh: scripts/accuracy/corpora.py,
LANGUAGE_PROJECTS), cloned at a pinned commit into ~/.cache/codeanchor-bench/accuracy
and never committed, it builds the map and asks `map_neighbors(direction="in",
kinds=["calls"])` (through the tool function, on an AppContext) about a seeded
sample of functions and methods the ground truth can judge, and prints per language:

    sites            the truth's call lines of the sampled symbols (tree-sitter
                     identifier occurrences that a call calls, locals and foreign
                     names dropped: scripts/accuracy/truth.py, which says what each
                     language's rules leave out); (direct): those the parse ties to
                     the symbol without types
    map recall       truth call lines the map's callers call the symbol at / sites;
                     (direct): over the direct sites
    map precision    those lines / every line the map's callers call it at
    map build s      the cold build (no map store) as this run saw it, through the
                     AppContext (scripts/bench_map.py --languages times it properly)

No live server is asked: of these languages only PHP and Bash have one here, and
neither answers a call hierarchy. The git source of the corpora is
CODEANCHOR_BENCH_GIT (see scripts/accuracy/corpora.py). Progress goes to stderr,
the table to stdout (JSON with --json).

    .venv/bin/python scripts/bench_languages.py                     # a few minutes
    .venv/bin/python scripts/bench_languages.py --languages ruby,lua --details
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.gitrepo, for the corpora

from accuracy.corpora import LANGUAGE_PROJECTS, Project, corpus
from accuracy.figures import percent
from accuracy.mapsites import SitesJudged, map_sites
from accuracy.options import emit, parsed, parser_for
from accuracy.sample import candidates, pick
from accuracy.truth import Truth
from benchinfo import code_commit
from rich.console import Console
from rich.table import Table

from bridge.config import BridgeConfig, Config
from bridge.context import AppContext
from disk.statedir import STATE_DIR

LANGUAGES = {project.language: project for project in LANGUAGE_PROJECTS.values()}
err = Console(stderr=True)


async def measure(project: Project, root: Path, size: int, seed: int) -> dict[str, Any]:
    """One project: build the map (cold: no store), sample, judge each symbol's map callers."""
    shutil.rmtree(root / STATE_DIR, ignore_errors=True)
    app = AppContext(root, Config(bridge=BridgeConfig(watch=False)))
    try:
        started = time.perf_counter()
        code_map = await app.code_map()
        build_s = time.perf_counter() - started
        found = candidates(code_map, Truth(root, project.language))
        sample = pick(found, size, seed, callable_only=True)
        err.log(f"{project.name}: {len(found)} candidates, {len(sample)} asked")
        judged = [await map_sites(app, symbol) for symbol in sample]
    finally:
        await app.aclose()
    return summarize(project, root, build_s, len(found), judged)


def summarize(
    project: Project, root: Path, build_s: float, found: int, judged: list[SitesJudged]
) -> dict[str, Any]:
    """The figures of one project's row."""
    sites = sum(len(j.expected) for j in judged)
    direct = sum(len(j.direct) for j in judged)
    listed = sum(len(j.listed) for j in judged)
    confirmed = sum(j.confirmed for j in judged)
    files = [
        p
        for p in root.rglob("*")
        if p.is_file() and ".git" not in p.parts and STATE_DIR not in p.parts
    ]
    return {
        "language": project.language,
        "project": project.source,
        "files": len(files),
        "megabytes": round(sum(p.stat().st_size for p in files) / 1e6, 2),
        "candidates": found,
        "asked": len(judged),
        "sites": sites,
        "direct_sites": direct,
        "map_lines": listed,
        "map_recall_pct": percent(confirmed, sites),
        "map_direct_recall_pct": percent(sum(j.confirmed_direct for j in judged), direct),
        "map_precision_pct": percent(confirmed, listed),
        "map_build_s": round(build_s, 2),
        "missed": {j.node_id: sorted(j.missed) for j in judged if j.missed},
        "extra": {j.node_id: sorted(j.extra) for j in judged if j.extra},
    }


def log_details(row: dict[str, Any], root: Path) -> None:
    """Each missed and each extra line, with its text, to judge the truth by."""
    for label, key in (("missed", "missed"), ("map only", "extra")):
        for node_id, places in row[key].items():
            for path, line in places:
                text = (root / path).read_text(errors="replace").splitlines()[line - 1].strip()
                err.log(f"  {label}: {node_id} <- {path}:{line}: {text[:100]}")


def print_table(report: dict[str, Any]) -> None:
    table = Table(
        title=f"map callers against the parse, code at {report['commit']}, seed "
        f"{report['seed']}, load average {report['load']:.1f} on {os.cpu_count()} CPUs",
        caption="sites: the truth's call lines of the sampled functions and methods; "
        "recall and precision by call line (see the script's docstring)",
    )
    for column in (
        "language",
        "project",
        "files / MB",
        "judgeable / asked",
        "sites (direct)",
        "map recall (direct)",
        "map precision",
        "map build s",
    ):
        table.add_column(column, justify="left" if column in ("language", "project") else "right")

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}%"

    for row in report["rows"]:
        table.add_row(
            row["language"],
            row["project"],
            f"{row['files']} / {row['megabytes']:.2f}",
            f"{row['candidates']} / {row['asked']}",
            f"{row['sites']} ({row['direct_sites']})",
            f"{pct(row['map_recall_pct'])} ({pct(row['map_direct_recall_pct'])})",
            pct(row["map_precision_pct"]),
            f"{row['map_build_s']:.1f}",
        )
    Console(highlight=False, width=200).print(table)


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    rows = []
    for language in args.languages:
        project = LANGUAGES[language]
        err.log(f"corpus {project.source}")
        root = await asyncio.to_thread(corpus, project, args.cache)
        row = await measure(project, root, args.callers, args.seed)
        if args.details:
            log_details(row, root)
        rows.append(row)
    return {"commit": code_commit(), "seed": args.seed, "load": os.getloadavg()[0], "rows": rows}


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the benchmark, print the report."""
    parser = parser_for(__doc__, list(LANGUAGES))
    parser.add_argument("--callers", type=int, default=40, help="functions asked for callers")
    parser.add_argument(
        "--details", action="store_true", help="log each missed and extra line (stderr)"
    )
    args = parsed(parser, argv, list(LANGUAGES))
    if args.callers < 1:
        parser.error("--callers must be at least 1")
    return emit(asyncio.run(bench(args)), args.json, print_table)


if __name__ == "__main__":
    sys.exit(main())
