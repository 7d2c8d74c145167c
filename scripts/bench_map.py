"""Benchmark the map on real code: the Python sources inside PyPI wheels.

Corpora (wheels pinned, downloaded once into a cache with `pip download`):
click (small), sympy (large) and a mix of large packages (~5,000 files).
Per corpus, over --runs runs, it measures the median and the spread of:

    floor-read    list + read + hash every file (what any build must do)
    floor-parse   ... + tree-sitter parse, no queries, in the same pool size
    floor-query   ... + the extraction query's matches (tree-sitter's C matcher and
                  the nodes it hands back), nothing done with them: what any
                  extraction by query pays before its own Python work
    extract-only  ... + extraction (queries, symbols, references), no graph
    cold          CodeMap.open with no map store: full build and save
    update-median one-file edit of a median-size file, then what a watcher
                  runs: rebuild(paths=[file]) and save (persistence included)
    update-largest the same for the largest file
    update-scan   the median edit, then a rebuild that stat-checks every file, and save

what a fresh CLI process waits for (scripts/mapbench/cli_edit.py), with that
process's peak RSS:

    cli-edit      one-file edit of the median file, then a fresh `codeanchor map
                  build --root R --json` process: start -> exit ("fresh CLI process:
                  one-file edit -> map build exits"); the run fails unless it
                  re-extracted that file and a fresh `map search` finds the new function

and through a real `codeanchor serve` MCP stdio session (scripts/mapbench/serve.py,
restart.py), what the user waits for, with the serving process's peak RSS:

    serve-start   a fresh server on a valid store: process start -> first
                  map_search answer, initialize -> that answer, the first one-hop
                  map_neighbors (in) of the hub symbol (most incoming edges in the
                  store) asked right after it (ask -> answer; the note says whether
                  map_status still said the graph was loading after these), process
                  start -> a map_impact answered after them (it waits for the
                  graph's background load), the server's peak RSS at each answer,
                  then the p50 of each map query once warm
    serve-loading serve-start's first answers alone (not run by default: serve-start
                  runs them)
    serve-rebuild one-file edit, then map_rebuild over MCP (rebuild + persist)
    serve-watch   one-file edit -> map_search finds the new symbol (watcher)
    serve-offline no server running, a new function appended to the median file and
                  a caller of it to a sibling file, then a fresh server (watching):
                  initialize -> the first map_search that finds the function,
                  initialize -> the first map_neighbors (in) that lists its caller
                  (each polled until its answer includes the edit), process start ->
                  map_impact answered (graph loaded; it must list the caller too)

Every measurement runs in a fresh child process, so its peak RSS (ours plus
the largest pool worker, or the server's) is its own (mapbench/runner.py;
the in-process measures are in mapbench/build.py, their pool workers run
as the map's do, with no automatic garbage collection, the table in
mapbench/report.py). Progress goes to stderr, the table to stdout, or JSON
with --json.

and, when asked for (`--measure team`: it needs PostgreSQL's server programs), the
map shared by a team (scripts/mapbench/team.py) through a throwaway PostgreSQL
server, each a fresh `map build` process in its own git clone of the corpus:

    team          a cold local build (no store) beside a first clone with an empty
                  store, a second clone at another path with the filled store (its
                  map must equal the local build's), a clone one commit later (3
                  files changed: only those extracted), and the store's size per MB

With --languages it runs floor-parse and cold (or the --measure given) on one
real project per language the map reads instead (mapbench/languages.py: flask,
zod, mux, ujson and the projects of issue 24, pinned, fetched into a cache on
first use; --language picks some), each as it is and copied to about 10 MB, and ends
in each language's cold build per MB (the slope between the two) and fixed cost.

With --scale it runs floor-parse, cold (split into scan, link and save),
cli-edit, serve-start, serve-rebuild and serve-offline on corpora of growing
size (click, sympy, mix, large = mix + transformers + kubernetes, huge = large
+ pulumi-aws: 0.4 to 332 MB of source) and ends in a cost per MB per measure
(mapbench/scale.py).

    .venv/bin/python scripts/bench_map.py --quick          # click only, seconds
    .venv/bin/python scripts/bench_map.py --runs 3 --json  # click, sympy, mix
    .venv/bin/python scripts/bench_map.py --scale --runs 1 # about an hour on 2 cores
    .venv/bin/python scripts/bench_map.py --languages      # minutes (first: fetches)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.gitrepo, for the corpora

from mapbench.corpora import (
    CORPORA,
    DEFAULT_CACHE,
    DEFAULT_CORPORA,
    Corpus,
    describe,
    fetch_wheels,
    unpack_sources,
)
from mapbench.languages import (
    LANGUAGE_MEASURES,
    LanguageCorpus,
    language_corpora,
    language_rows,
    language_table,
    languages_known,
)
from mapbench.report import render
from mapbench.runner import CHOICES, DEFAULT_WORKERS, MEASURES, bench_corpus, child_main, err
from mapbench.scale import SCALE_CORPORA, SCALE_MEASURES, scale_rows, scale_table
from rich.console import Console


def main() -> None:
    """Parse the options, unpack each corpus, measure it, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per measure (default 3)")
    parser.add_argument("--quick", action="store_true", help="click only: seconds, for development")
    parser.add_argument(
        "--scale",
        action="store_true",
        help=f"scale series: {', '.join(SCALE_MEASURES)} on {', '.join(SCALE_CORPORA)} "
        "(or the --corpus given), then a cost per MB per measure (the largest takes long)",
    )
    parser.add_argument(
        "--languages",
        action="store_true",
        help=f"{', '.join(LANGUAGE_MEASURES)} on one real project per language instead",
    )
    parser.add_argument(
        "--language", action="append", choices=languages_known(), help="with --languages"
    )
    parser.add_argument("--corpus", action="append", choices=sorted(CORPORA), help="repeatable")
    parser.add_argument("--measure", action="append", choices=CHOICES, help="repeatable")
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
    default_measures: tuple[str, ...] = SCALE_MEASURES if args.scale else MEASURES
    if args.languages:
        default_measures = LANGUAGE_MEASURES
    measures = tuple(args.measure or default_measures)
    corpora: list[Corpus] = []
    rows: list[dict[str, Any]] = []
    per_language: list[LanguageCorpus] = []
    with tempfile.TemporaryDirectory(prefix="codeanchor-bench-") as scratch:
        if args.languages:
            per_language = language_corpora(Path(scratch), args.language)
            corpora = [c for lang in per_language for c in (lang.single, lang.replicated)]
        for name in [] if args.languages else names:
            root = Path(scratch) / name
            unpack_sources(fetch_wheels(args.cache, CORPORA[name]), root)
            corpora.append(describe(name, root))
        for corpus in corpora:
            err.log(f"{corpus.name}: {corpus.files} files, {corpus.megabytes:.1f} MB")
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
        if per_language:
            payload["languages"] = language_rows(per_language, rows)
        print(json.dumps(payload, indent=2))
    else:
        render(corpora, rows, args.runs, args.workers, args.label)
        if per_language:
            Console(width=max(Console().width, 170)).print(language_table(per_language, rows))
        if args.scale:
            sizes = {corpus.name: corpus.megabytes for corpus in corpora}
            Console(width=max(Console().width, 170)).print(scale_table(sizes, rows))


if __name__ == "__main__":
    main()
