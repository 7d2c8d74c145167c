"""Running the map benchmark's measures, each in a fresh child process.

The parent (`bench_corpus`) starts `bench_map.py --child MEASURE ROOT ARGS`
once per run; the child (`child_main`) runs one in-process measure
(mapbench/build.py), one fresh CLI process (mapbench/cli_edit.py) or one MCP
session (mapbench/serve.py, mapbench/restart.py) and prints its figures, with
its peak RSS and the load as it began, as one JSON line.
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import subprocess
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from mapbench.build import IN_PROCESS, UPDATES
from mapbench.cli_edit import FRESH
from mapbench.corpora import Corpus
from mapbench.procs import WorkerPeaks
from mapbench.report import Figure

MEASURES = (
    "floor-read",
    "floor-parse",
    "floor-query",
    "extract-only",
    "cold",
    "update-median",
    "update-largest",
    "update-scan",
    "cli-edit",
    "serve-start",
    "serve-rebuild",
    "serve-watch",
    "serve-offline",
)
"""The measures run by default."""
CHOICES = (*MEASURES, "serve-loading", "team")
"""Every measure; serve-loading is serve-start's first answers alone (serve-start runs
them too, so it is not run by default); team needs PostgreSQL's server programs
(mapbench/team.py), so it runs when asked for."""
SESSIONS = frozenset(
    {"serve-start", "serve-loading", "serve-rebuild", "serve-watch", "serve-offline"}
)
"""The measures run through an MCP session with `codeanchor serve` (mapbench/serve.py,
mapbench/restart.py)."""
SYNC = {**IN_PROCESS, **FRESH}
"""The measures run as a plain call in the child."""
EDITING = UPDATES | SESSIONS | set(FRESH)
"""The measures that need a valid map store and a file to edit (the median one)."""
SESSION_REPEATS = 5
"""Edits per serve-rebuild / serve-watch session, and calls per query p50."""
DEFAULT_WORKERS = min(os.cpu_count() or 1, 4)  # what the map picks by default
SCRIPT = Path(__file__).resolve().parents[1] / "bench_map.py"
"""The entry script; `--child` makes it run one measure (`child_main`)."""

err = Console(stderr=True)


# ------------------------------------------------------------- child side


async def _session(measure: str, root: Path, args: dict[str, Any]) -> dict[str, Any]:
    # Imported here, not at the top: the MCP client SDK they import holds ~45 MB, which
    # the peak RSS of an in-process measure (a cold build) would carry as its own.
    from mapbench import restart, serve

    return await {**serve.SESSIONS, **restart.SESSIONS}[measure](root, args)


def child_main(measure: str, root: str, args_json: str) -> None:
    """Run one measurement and print its result, with peak RSS, as one JSON line."""
    load = os.getloadavg()[0]
    args = json.loads(args_json)
    with WorkerPeaks() as workers:
        if measure in SESSIONS:
            result = asyncio.run(_session(measure, Path(root), args))
        elif measure == "team":
            from mapbench.team import team  # the PostgreSQL driver: this measure's only

            result = team(Path(root), args)
        else:
            result = SYNC[measure](Path(root), args)
    result["load_1m"] = load
    kib = 1024  # ru_maxrss is in KiB on Linux
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * kib / 1e6
    result["worker_rss_mb"] = workers.largest_mb()
    print(json.dumps(result))


# ------------------------------------------------------------ parent side


def run_child(measure: str, corpus: Corpus, extra: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter; raises RuntimeError with its stderr."""
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--child", measure, str(corpus.root), json.dumps(extra)],
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr else "no output")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def bench_corpus(
    corpus: Corpus, runs: int, workers: int, measures: tuple[str, ...]
) -> list[Figure]:
    """Each measure on `corpus`, `runs` times (a failed run ends its measure)."""
    figures: list[Figure] = []
    for measure in measures:
        figure = Figure(corpus.name, measure)
        figures.append(figure)
        if measure in EDITING and not (corpus.root / ".codeanchor").is_dir():
            run_child("cold", corpus, {"workers": workers})  # a valid map store to start from
        for run in range(runs):
            extra: dict[str, Any] = {"workers": workers, "seq": run, "n": SESSION_REPEATS}
            if measure in EDITING:
                extra["file"] = corpus.median_file
            if measure == "team":
                extra |= {"file": corpus.median_file, "others": [corpus.largest_file]}
                extra["megabytes"] = corpus.megabytes
            if measure in UPDATES:
                largest = measure == "update-largest"
                extra["file"] = corpus.largest_file if largest else corpus.median_file
                extra["told"] = measure != "update-scan"
            err.log(f"{corpus.name}: {measure} run {run + 1}/{runs}")
            try:
                figure.runs.append(run_child(measure, corpus, extra))
            except RuntimeError as exc:
                figure.error = str(exc)
                err.log(f"[red]{corpus.name}: {measure} failed: {exc}")
                break
    return figures
