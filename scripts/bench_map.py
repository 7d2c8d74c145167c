"""Benchmark the map on real code: the Python sources inside PyPI wheels.

Corpora (wheels pinned, downloaded once into a cache with `pip download`):
click (small), sympy (large) and a mix of large packages (~5,000 files).
Per corpus, over --runs runs, it measures the median and the spread of:

    floor-read    list + read + hash every file (what any build must do)
    floor-parse   ... + tree-sitter parse, no queries, in the same pool size
    extract-only  ... + extraction (queries, symbols, references), no graph
    cold          CodeMap.open with no map store: full build and save
    update-median one-file edit of a median-size file, then what a watcher
                  runs: rebuild(paths=[file]) and save (persistence included)
    update-largest the same for the largest file
    update-scan   the median edit, then a rebuild that stat-checks every file, and save

and through a real `codeanchor serve` MCP stdio session (scripts/mapbench/serve.py),
what the user waits for, with the serving process's peak RSS:

    serve-start   a fresh server on a valid store: process start -> first
                  map_search answer, initialize -> that answer, then the p50
                  of each map query once warm
    serve-rebuild one-file edit, then map_rebuild over MCP (rebuild + persist)
    serve-watch   one-file edit -> map_search finds the new symbol (watcher)

Every measurement runs in a fresh child process, so its peak RSS (ours plus
the largest pool worker, or the server's) is its own. Progress goes to
stderr, the table to stdout, or JSON with --json.

With --scale it runs floor-parse, cold (split into scan, link and save),
serve-start and serve-rebuild on corpora of growing size (click, sympy, mix,
large = mix + transformers + kubernetes, huge = large + pulumi-aws: 0.4 to
332 MB of source) and ends in a cost per MB per measure (mapbench/scale.py).

    .venv/bin/python scripts/bench_map.py --quick          # click only, seconds
    .venv/bin/python scripts/bench_map.py --runs 3 --json  # click, sympy, mix
    .venv/bin/python scripts/bench_map.py --scale --runs 1 # about an hour on 2 cores
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mapbench.corpora import (
    CORPORA,
    DEFAULT_CACHE,
    DEFAULT_CORPORA,
    Corpus,
    accepted,
    describe,
    fetch_wheels,
    unpack_sources,
)
from mapbench.procs import WorkerPeaks
from mapbench.scale import SCALE_CORPORA, SCALE_MEASURES, scale_rows, scale_table
from mapbench.serve import SESSIONS
from rich.console import Console
from rich.table import Table

from disk.stamps import content_hash
from map.codemap import CodeMap, MapSettings
from map.extract import extract_file
from map.ingest import CHUNK_FILES, POOL_THRESHOLD
from map.languages import grammar, language_for
from map.walk import list_files

MEASURES = (
    "floor-read",
    "floor-parse",
    "extract-only",
    "cold",
    "update-median",
    "update-largest",
    "update-scan",
    "serve-start",
    "serve-rebuild",
    "serve-watch",
)
UPDATES = frozenset({"update-median", "update-largest", "update-scan"})
FULL_TREE = frozenset({"floor-read", "floor-parse", "extract-only", "cold"})
SESSION_REPEATS = 5
"""Edits per serve-rebuild / serve-watch session, and calls per query p50."""
DEFAULT_WORKERS = min(os.cpu_count() or 1, 4)  # what the map picks by default
PROBE = "\n\ndef _codeanchor_bench_probe_{seq}():\n    return {seq}\n"

err = Console(stderr=True)


# ------------------------------------------------- measurements (child side)


def _parse_chunk(root: str, rels: list[str]) -> int:
    """Parse each file with its grammar (no queries); the count of top-level nodes."""
    from tree_sitter import Parser

    parsers: dict[str, Parser] = {}
    total = 0
    for rel in rels:
        language = language_for(rel)
        if language is None:
            continue
        parser = parsers.setdefault(language, Parser(grammar(language)))
        total += parser.parse((Path(root) / rel).read_bytes()).root_node.child_count
    return total


def floor_read(root: Path, _args: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    rels = list_files(root, accept=accepted).files
    for rel in rels:
        content_hash((root / rel).read_bytes())
    return {"seconds": time.perf_counter() - started}


def _extract_chunk(root: str, rels: list[str]) -> int:
    """Extract each file as the map does; the count of symbols found."""
    return sum(len(extract_file(rel, (Path(root) / rel).read_bytes()).symbols) for rel in rels)


def _in_pool(root: Path, workers: int, task: Callable[[str, list[str]], int]) -> dict[str, Any]:
    """List the files, then run `task` over them as the map's loader would; timed.

    Same settings as `map.ingest.load_many`: in this process up to its pool
    threshold, else `workers` forkserver processes fed chunks of its size.
    """
    started = time.perf_counter()
    rels = list(list_files(root, accept=accepted).files)
    if len(rels) <= POOL_THRESHOLD or workers <= 1:
        task(str(root), rels)
    else:
        chunks = [rels[index : index + CHUNK_FILES] for index in range(0, len(rels), CHUNK_FILES)]
        context = multiprocessing.get_context("forkserver")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            sum(pool.map(task, [str(root)] * len(chunks), chunks))
    return {"seconds": time.perf_counter() - started}


def floor_parse(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    return _in_pool(root, int(args["workers"]), _parse_chunk)


def extract_only(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    return _in_pool(root, int(args["workers"]), _extract_chunk)


def _settings(args: dict[str, Any]) -> MapSettings:
    return MapSettings(workers=int(args["workers"]))


class GcTimer:
    """Sums the pauses of the cyclic garbage collector inside a `with` block."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def __enter__(self) -> GcTimer:
        gc.callbacks.append(self._on_gc)
        return self

    def __exit__(self, *exc_info: object) -> None:
        gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started


def cold(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    """No map store: `open` builds everything and saves.

    Also split into its phases: the scan (list, read, extract in the pool) ends
    with the last progress report, the rebuild (scan + link) with its
    report's duration, and the rest is the save.
    """
    shutil.rmtree(root / ".codeanchor", ignore_errors=True)
    scanned = [0.0]

    def progress(_done: int, _total: int) -> None:
        scanned[0] = time.perf_counter()

    with GcTimer() as collector:
        started = time.perf_counter()
        codemap = CodeMap.open(root, _settings(args), progress)
        seconds = time.perf_counter() - started
    status = codemap.status()
    rebuilt = codemap.last_report.duration_s if codemap.last_report else seconds
    scan_s = scanned[0] - started if scanned[0] else rebuilt
    return {
        "seconds": seconds,
        "gc_seconds": collector.seconds,
        "phases": {"scan": scan_s, "link": rebuilt - scan_s, "save": seconds - rebuilt},
        "symbols": status.symbols,
        "edges": status.edges,
    }


def update(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    """Append a function to one file, then time the rebuild that takes it in and
    the save that persists it (what a watcher runs after an edit).

    The graph is loaded first (untimed), as in a server that has been answering.
    """
    path = root / str(args["file"])
    original = path.read_bytes()
    codemap = CodeMap.open(root, _settings(args))
    nodes = codemap.graph.number_of_nodes()  # a running server has its graph loaded already
    try:
        path.write_bytes(original + PROBE.format(seq=args["seq"]).encode())
        with GcTimer() as collector:
            started = time.perf_counter()
            report = codemap.rebuild(paths=[args["file"]]) if args["told"] else codemap.rebuild()
            codemap.save()
            seconds = time.perf_counter() - started
    finally:
        path.write_bytes(original)
        codemap.rebuild(paths=[args["file"]])  # untimed: leave the store as the disk is
        codemap.save()
    if report.files_changed != [args["file"]]:
        raise RuntimeError(f"expected one re-extracted file, got {report.files_changed[:5]}")
    return {
        "seconds": seconds,
        "gc_seconds": collector.seconds,
        "files_relinked": report.files_relinked,
        "nodes": nodes,
    }


CHILD_MEASURES: dict[str, Callable[[Path, dict[str, Any]], dict[str, Any]]] = {
    "floor-read": floor_read,
    "floor-parse": floor_parse,
    "extract-only": extract_only,
    "cold": cold,
    "update-median": update,
    "update-largest": update,
    "update-scan": update,
}


async def _session(measure: str, root: Path, args: dict[str, Any]) -> dict[str, Any]:
    return await SESSIONS[measure](root, args)


def child_main(measure: str, root: str, args_json: str) -> None:
    """Run one measurement and print its result, with peak RSS, as one JSON line."""
    load = os.getloadavg()[0]
    args = json.loads(args_json)
    with WorkerPeaks() as workers:
        if measure in SESSIONS:
            result = asyncio.run(_session(measure, Path(root), args))
        else:
            result = CHILD_MEASURES[measure](Path(root), args)
    result["load_1m"] = load
    kib = 1024  # ru_maxrss is in KiB on Linux
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * kib / 1e6
    result["worker_rss_mb"] = workers.largest_mb()
    print(json.dumps(result))


# ------------------------------------------------ orchestration (parent side)


@dataclass
class Figure:
    """One measure on one corpus over all runs."""

    corpus: str
    measure: str
    runs: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def summaries(self, megabytes: float) -> list[dict[str, Any]]:
        """One row per timing: a session measure reports several (each its own row)."""
        if self.error is not None or not self.runs:
            return [{"corpus": self.corpus, "measure": self.measure, "error": self.error}]
        if "timings" not in self.runs[0]:
            return [self._row(self.measure, [run["seconds"] for run in self.runs], megabytes)]
        labels = list(self.runs[0]["timings"])
        return [
            self._row(label, [run["timings"][label] for run in self.runs], megabytes)
            for label in labels
        ]

    def _row(self, label: str, seconds: list[float], megabytes: float) -> dict[str, Any]:
        ms = [value * 1000 for value in seconds]
        median = statistics.median(ms)
        server = "server_rss_mb" in self.runs[0]
        rss_key = "server_rss_mb" if server else "peak_rss_mb"
        return {
            "corpus": self.corpus,
            "measure": label,
            "median_ms": round(median, 1),
            "min_ms": round(min(ms), 1),
            "max_ms": round(max(ms), 1),
            "ms_per_mb": round(median / megabytes, 1) if self.measure in FULL_TREE else None,
            "peak_rss_mb": round(statistics.median(run[rss_key] for run in self.runs)),
            "rss_of": "server" if server else "measuring process",
            "worker_rss_mb": 0
            if server
            else round(statistics.median(run["worker_rss_mb"] for run in self.runs)),
            "load_1m": round(statistics.median(run["load_1m"] for run in self.runs), 1),
            "rss_first_mb": round(statistics.median(run["rss_first_mb"] for run in self.runs))
            if "rss_first_mb" in self.runs[0]
            else None,
            "phases_ms": {
                phase: round(statistics.median(run["phases"][phase] for run in self.runs) * 1000)
                for phase in self.runs[0].get("phases", {})
            },
            "note": _note(self.runs),
            "runs_ms": [round(value, 1) for value in ms],
        }


def _note(runs: list[dict[str, Any]]) -> str:
    """What else the runs reported, in a few words."""
    words: list[str] = []
    if "files_relinked" in runs[0]:
        words.append(f"{statistics.median(run['files_relinked'] for run in runs):.0f} relinked")
    if "symbols" in runs[0]:
        words.append(f"{runs[0]['symbols']} symbols, {runs[0]['edges']} edges")
    if "phases" in runs[0]:
        words.extend(
            f"{phase} {statistics.median(run['phases'][phase] for run in runs):.1f} s"
            for phase in runs[0]["phases"]
        )
    if "gc_seconds" in runs[0]:
        words.append(f"GC {statistics.median(run['gc_seconds'] for run in runs) * 1000:.0f} ms")
    if "rss_first_mb" in runs[0]:
        first = statistics.median(run["rss_first_mb"] for run in runs)
        words.append(f"server RSS at first answer {first:.0f} MB")
    return ", ".join(words)


def run_child(measure: str, corpus: Corpus, extra: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement in a fresh interpreter; raises RuntimeError with its stderr."""
    done = subprocess.run(
        [sys.executable, __file__, "--child", measure, str(corpus.root), json.dumps(extra)],
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
    figures: list[Figure] = []
    for measure in measures:
        figure = Figure(corpus.name, measure)
        figures.append(figure)
        if measure in UPDATES | set(SESSIONS) and not (corpus.root / ".codeanchor").is_dir():
            run_child("cold", corpus, {"workers": workers})  # a valid map store to start from
        for run in range(runs):
            extra: dict[str, Any] = {"workers": workers, "seq": run, "n": SESSION_REPEATS}
            if measure in SESSIONS:
                extra["file"] = corpus.median_file
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


def render(
    corpora: list[Corpus], rows: list[dict[str, Any]], runs: int, workers: int, label: str
) -> None:
    table = Table(
        title=f"map benchmark{f' ({label})' if label else ''}: median and min-max over "
        f"{runs} runs, {workers} workers",
        caption=(
            "RSS: peak of the measuring process (the serve process for serve-* rows); "
            "worker: the largest pool worker's peak; "
            f"load: 1-minute load average as each run began ({os.cpu_count()} cores)"
        ),
    )
    numbers = ("median ms", "min-max ms", "ms/MB", "RSS MB", "worker MB", "load")
    for column in ("corpus", "measure", *numbers, "note"):
        numeric = column not in ("corpus", "measure", "note")
        table.add_column(column, justify="right" if numeric else "left", no_wrap=column != "note")
    by_name = {corpus.name: corpus for corpus in corpora}
    floors = {
        r["corpus"]: r["median_ms"]
        for r in rows
        if r["measure"] == "floor-parse" and "median_ms" in r
    }
    shown = ""
    for row in rows:
        corpus = by_name[row["corpus"]]
        label = ""
        if corpus.name != shown:
            if shown:
                table.add_section()
            shown = corpus.name
            label = f"{corpus.name} ({corpus.files} files, {corpus.megabytes:.1f} MB)"
        measure = row["measure"]
        if measure in ("update-median", "update-scan"):
            measure += f" {corpus.median_bytes / 1e3:.0f} kB"
        elif measure == "update-largest":
            measure += f" {corpus.largest_bytes / 1e3:.0f} kB"
        if row.get("error"):
            table.add_row(label, measure, "", "", "", "", "", "", f"[red]{row['error']}")
            continue
        per_mb = "" if row["ms_per_mb"] is None else f"{row['ms_per_mb']:.1f}"
        note = row["note"]
        if row["measure"] == "cold" and floors.get(corpus.name):
            note = f"{row['median_ms'] / floors[corpus.name]:.1f}x floor-parse, {note}"
        table.add_row(
            label,
            measure,
            f"{row['median_ms']:.1f}",
            f"{row['min_ms']:.1f}-{row['max_ms']:.1f}",
            per_mb,
            str(row["peak_rss_mb"]),
            str(row["worker_rss_mb"] or ""),
            f"{row['load_1m']:.1f}",
            note,
        )
    Console(width=max(Console().width, 170)).print(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per measure (default 3)")
    parser.add_argument("--quick", action="store_true", help="click only: seconds, for development")
    parser.add_argument(
        "--scale",
        action="store_true",
        help=f"scale series: {', '.join(SCALE_MEASURES)} on {', '.join(SCALE_CORPORA)} "
        "(or the --corpus given), then a cost per MB per measure (the largest takes long)",
    )
    parser.add_argument("--corpus", action="append", choices=sorted(CORPORA), help="repeatable")
    parser.add_argument("--measure", action="append", choices=MEASURES, help="repeatable")
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS, help="pool size for parse")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="wheel cache directory")
    parser.add_argument("--json", action="store_true", help="JSON on stdout instead of a table")
    parser.add_argument("--label", default="", help="what this run measures (in the title)")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child_main(*args.child)
        return
    default_names = SCALE_CORPORA if args.scale else DEFAULT_CORPORA
    names = ["click"] if args.quick else (args.corpus or list(default_names))
    measures = tuple(args.measure or (SCALE_MEASURES if args.scale else MEASURES))
    corpora: list[Corpus] = []
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="codeanchor-bench-") as scratch:
        for name in names:
            root = Path(scratch) / name
            unpack_sources(fetch_wheels(args.cache, CORPORA[name]), root)
            corpus = describe(name, root)
            corpora.append(corpus)
            err.log(f"{name}: {corpus.files} files, {corpus.megabytes:.1f} MB")
            for figure in bench_corpus(corpus, args.runs, args.workers, measures):
                rows.extend(figure.summaries(corpus.megabytes))
    if args.json:
        payload = {
            "label": args.label,
            "runs": args.runs,
            "workers": args.workers,
            "cpus": os.cpu_count(),
            "corpora": [
                {k: v for k, v in asdict(corpus).items() if k != "root"} for corpus in corpora
            ],
            "figures": rows,
        }
        if args.scale:
            payload["scale"] = scale_rows({c.name: c.megabytes for c in corpora}, rows)
        print(json.dumps(payload, indent=2))
    else:
        render(corpora, rows, args.runs, args.workers, args.label)
        if args.scale:
            sizes = {corpus.name: corpus.megabytes for corpus in corpora}
            Console(width=max(Console().width, 170)).print(scale_table(sizes, rows))


if __name__ == "__main__":
    main()
