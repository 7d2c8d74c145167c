"""Benchmark how complete and how right codeanchor's answers are, per language.

On pinned real projects fetched from the registries (flask 3.1.2 and httpx
0.28.1 sdists from PyPI; zod 4.6.7's src/v3 from npm; gorilla/mux 1.8.0 and chi 5.0.7
from Debian's golang-github-gorilla-mux-dev and golang-github-go-chi-chi-dev; ujson
5.11.0's C sources and the cmark-gfm library bundled in cmarkgfm 2025.10.22, from
their PyPI sdists),
cached under ~/.cache/codeanchor-bench/accuracy and never committed, it asks
codeanchor's own tools (nav_references, nav_callers, map_neighbors, on an
AppContext, timed end to end) about a seeded sample of symbols and prints:

    live refs recall        nav_references' sites / the ground truth's, summed
                            over the sample (the truth: identifier occurrences
                            of the name that can mean the symbol, by tree-sitter;
                            see scripts/accuracy/truth.py); (direct): over the
                            sites the parse ties to the symbol without types
    live callers recall     nav_callers' call lines / the truth's call lines
    map callers R / P       map_neighbors(direction="in", kinds=["calls"]) against
                            the live callers (call hierarchy) as the oracle; below
                            the table, the precision when a map caller around a
                            call site of the truth counts as right too (the oracle
                            misses calls on receivers it cannot type)
    silent partial          answers with recall < 100% whose `completeness` is not
                            `partial` (a missing field counts as complete claimed);
                            in brackets, the answers saying `partial`, and of those,
                            how many were complete after all (needless alarms)
    wait                    each answer's wall time, median / p95, ms; cold = the
                            first (warm-up) answer of the server, excluded above
    opened/answer           documents the server had open after an answer and not
                            before (the priming cost in files), mean per answer

Progress goes to stderr, the table to stdout (JSON with --json).

    .venv/bin/python scripts/bench_accuracy.py                    # a few minutes
    .venv/bin/python scripts/bench_accuracy.py --languages go,c --refs 10
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.gitrepo, for the corpora

from accuracy.corpora import PROJECTS, Project, corpus
from accuracy.figures import median_p95, percent
from accuracy.measure import Asker, Run
from accuracy.options import emit, parsed, parser_for
from accuracy.sample import candidates, pick
from accuracy.truth import Truth
from benchinfo import code_commit
from rich.console import Console
from rich.table import Table

from bridge.config import BridgeConfig, Config
from bridge.context import AppContext
from bridge.contract.errors import ToolError
from lsp.errors import LspError

LANGUAGES = {
    "python": ("flask-3.1.2", "httpx-0.28.1"),
    "typescript": ("zod-4.6.7-v3",),
    "go": ("gorilla-mux-1.8.0", "go-chi-5.0.7"),
    "c": ("ujson-5.11.0-c", "cmark-gfm-2025.10.22-c"),
}
SERVERS = {"typescript": "typescript-language-server", "go": "gopls", "c": "clangd"}
LIVE_SETTINGS = {"request_timeout": 60.0, "cold_start_deadline": 30.0}
GOAL_LIVE = 95.0
GOAL_MAP_RECALL = 90.0
GOAL_MAP_PRECISION = 95.0
TABLE_WIDTH = 250

err = Console(stderr=True, width=TABLE_WIDTH)


async def measure(
    project: Project,
    root: Path,
    server: str,
    sizes: tuple[int, int],
    seed: int,
    *,
    details: bool,
) -> Run:
    """One project with one server: sample, ask, judge."""
    language = project.language
    run = Run(f"{_language_label(language)} ({server}), {project.name}", server)
    config = Config(
        bridge=BridgeConfig(watch=False), servers={language: server}, live=LIVE_SETTINGS
    )
    app = AppContext(root, config)
    try:
        started = time.perf_counter()
        code_map = await app.code_map()
        run.map_open_s = time.perf_counter() - started
        found = candidates(code_map, Truth(root, language))
        run.candidates = len(found)
        ref_sample = pick(found, sizes[0], seed, callable_only=False)
        call_sample = pick(found, sizes[1], seed, callable_only=True)
        err.log(
            f"{run.label}: {len(found)} candidates; {len(ref_sample)} + {len(call_sample)} asked"
        )
        asker = Asker(app, language)
        warm = next((s for s in found if s not in ref_sample), found[0])
        started = time.perf_counter()
        await asker.references(warm)
        run.cold_s = time.perf_counter() - started
        for symbol in ref_sample:
            run.references.append(await asker.references(symbol))
        for symbol in call_sample:
            judged, live = await asker.callers(symbol)
            run.callers.append(judged)
            if judged.error is None:
                run.map_callers.append(await asker.map_callers(code_map, symbol, live))
        run.docs_open = len(asker.open_documents())
        log_misses(run, root, details=details)
    finally:
        await app.aclose()
    return run


def log_misses(run: Run, root: Path, *, details: bool) -> None:
    """Log each answer short of the truth; with `details`, every missed site (with
    its line, to judge the truth by) and every map caller disagreeing with the live one."""
    for judged in (*run.references, *run.callers):
        if judged.recall < 1.0 or judged.error:
            err.log(
                f"  {judged.node_id}: {judged.confirmed}/{judged.expected} "
                f"[{judged.completeness}] {judged.error or ''}"
            )
            for path, line in judged.missed if details else ():
                text = (root / path).read_text(errors="replace").splitlines()[line - 1]
                err.log(f"    missed {path}:{line}: {text.strip()}")
    for judged_map in run.map_callers if details else ():
        for node in judged_map.map_only:
            err.log(f"  map caller of {judged_map.node_id} not live: {node}")
        for node in judged_map.live_only:
            err.log(f"  live caller of {judged_map.node_id} not in the map: {node}")


def _language_label(language: str) -> str:
    return {"python": "Python", "typescript": "TypeScript", "go": "Go", "c": "C"}[language]


def summarize(run: Run, project: Project) -> dict[str, Any]:
    """The figures of one run, as printed."""

    def recall(answers: list[Any]) -> float | None:
        return percent(sum(a.confirmed for a in answers), sum(a.expected for a in answers))

    def direct(answers: list[Any]) -> float | None:
        return percent(
            sum(a.confirmed_direct for a in answers), sum(a.expected_direct for a in answers)
        )

    agreed = sum(m.agreed for m in run.map_callers)
    answers = [*run.references, *run.callers]
    primed = [a.priming for a in answers if a.priming]
    return {
        "label": run.label,
        "project": project.source,
        "candidates": run.candidates,
        "asked_references": len(run.references),
        "asked_callers": len(run.callers),
        "live_refs_recall_pct": recall(run.references),
        "live_callers_recall_pct": recall(run.callers),
        "live_refs_direct_recall_pct": direct(run.references),
        "live_callers_direct_recall_pct": direct(run.callers),
        "map_callers_recall_pct": percent(
            agreed, agreed + sum(len(m.live_only) for m in run.map_callers)
        ),
        "map_callers_precision_pct": percent(
            agreed, agreed + sum(len(m.map_only) for m in run.map_callers)
        ),
        "map_callers_precision_live_or_parse_pct": percent(
            agreed + sum(m.parse_only for m in run.map_callers),
            agreed + sum(len(m.map_only) for m in run.map_callers),
        ),
        "silent_partial": sum(a.silent for a in answers),
        "said_partial": sum(a.completeness == "partial" for a in answers),
        "needless_partial": sum(
            a.completeness == "partial" and a.recall == 1.0 and a.error is None for a in answers
        ),
        "errors": sum(a.error is not None for a in answers),
        "refs_wait_ms": median_p95([a.wait_ms for a in run.references]),
        "callers_wait_ms": median_p95([a.wait_ms for a in run.callers]),
        "map_wait_ms": median_p95([m.wait_ms for m in run.map_callers]),
        "cold_s": run.cold_s,
        "map_open_s": run.map_open_s,
        "opened_per_answer": (sum(a.opened for a in answers) / len(answers)) if answers else None,
        "docs_open_at_end": run.docs_open,
        "priming_reported": len(primed),
        "priming_ms_mean": _mean([p.get("ms", 0.0) for p in primed]),
        "priming_files_mean": _mean([p.get("filesOpened", 0.0) for p in primed]),
        "priming_cap_hits": sum(int(p.get("capHit", 0)) for p in primed),
    }


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def goals_missed(row: dict[str, Any]) -> list[str]:
    """Which goals a row misses."""
    missed = []
    for key, label in (("live_refs_recall_pct", "refs"), ("live_callers_recall_pct", "callers")):
        if row[key] is not None and row[key] < GOAL_LIVE:
            missed.append(label)
    r, p = row["map_callers_recall_pct"], row["map_callers_precision_pct"]
    if r is None or r < GOAL_MAP_RECALL or p is None or p < GOAL_MAP_PRECISION:
        missed.append("map")
    if row["silent_partial"]:
        missed.append("silent")
    return missed


def print_table(report: dict[str, Any]) -> None:
    """The human report on stdout."""
    table = Table(
        title=f"accuracy of answers, code at {report['commit']}, seed {report['seed']}, "
        f"load average {report['load']:.1f} on {os.cpu_count()} CPUs",
        caption=f"goals: live refs and callers recall >= {GOAL_LIVE:.0f}% in every language; "
        f"map callers recall >= {GOAL_MAP_RECALL:.0f}% at precision >= "
        f"{GOAL_MAP_PRECISION:.0f}% in every language; 0 silent partial answers. Waits: "
        "median / p95 ms per answer through the tool functions; cold = the server's first "
        "answer (excluded).",
    )
    columns = (
        "language (server)",
        "asked refs/callers",
        "live refs recall (direct)",
        "live callers recall (direct)",
        "map callers R / P",
        "silent partial (said; of those complete)",
        "refs wait ms",
        "callers wait ms",
        "cold s",
        "priming ms / files",
        "opened/answer",
        "goals missed",
    )
    for column in columns:
        left = column.startswith(("lang", "goals"))
        table.add_column(column, justify="left" if left else "right", no_wrap=left)

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}%"

    def wait(value: tuple[float, float] | None) -> str:
        return "-" if value is None else f"{value[0]:.0f} / {value[1]:.0f}"

    for row in report["rows"]:
        table.add_row(
            row["label"],
            f"{row['asked_references']}/{row['asked_callers']}",
            f"{pct(row['live_refs_recall_pct'])} ({pct(row['live_refs_direct_recall_pct'])})",
            f"{pct(row['live_callers_recall_pct'])} ({pct(row['live_callers_direct_recall_pct'])})",
            f"{pct(row['map_callers_recall_pct'])} / {pct(row['map_callers_precision_pct'])}",
            f"{row['silent_partial']} ({row['said_partial']}; {row['needless_partial']})"
            + (f", {row['errors']} errors" if row["errors"] else ""),
            wait(row["refs_wait_ms"]),
            wait(row["callers_wait_ms"]),
            f"{row['cold_s']:.1f}",
            "-"
            if row["priming_ms_mean"] is None
            else f"{row['priming_ms_mean']:.0f} / {row['priming_files_mean']:.1f}",
            "-" if row["opened_per_answer"] is None else f"{row['opened_per_answer']:.1f}",
            "; ".join(goals_missed(row)) or "none",
        )
    out = Console(highlight=False)
    out = Console(highlight=False, width=max(out.width, TABLE_WIDTH))
    out.print(table)
    for row in report["rows"]:
        priming = (
            f"; priming reported by {row['priming_reported']} answers, cap hit "
            f"{row['priming_cap_hits']} times"
            if row["priming_reported"]
            else "; no answer reports priming"
        )
        out.print(
            f"{row['label']}: {row['project']}; {row['candidates']} judgeable symbols; "
            f"map callers precision against live or parse "
            f"{pct(row['map_callers_precision_live_or_parse_pct'])}; "
            f"map opened in {row['map_open_s']:.1f} s; map_neighbors wait "
            f"{wait(row['map_wait_ms'])} ms; {row['docs_open_at_end']} documents open at the end"
            + priming
        )


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    """Every requested language and server, in turn (one server at a time)."""
    rows = []
    for language in args.languages:
        for key in LANGUAGES[language]:
            rows.extend(await _project_rows(PROJECTS[key], args))
    return {
        "commit": code_commit(),
        "seed": args.seed,
        "load": os.getloadavg()[0],
        "rows": rows,
    }


async def _project_rows(project: Project, args: argparse.Namespace) -> list[dict[str, Any]]:
    """One project with each of its language's servers, in turn."""
    rows = []
    err.log(f"corpus {project.source}")
    root = await asyncio.to_thread(corpus, project, args.cache)
    language = project.language
    servers = args.python_servers if language == "python" else [SERVERS[language]]
    for server in servers:
        try:
            run = await measure(
                project, root, server, (args.refs, args.callers), args.seed, details=args.details
            )
        except (LspError, ToolError) as exc:
            err.log(f"{project.name} with {server} left out: {exc}")
            continue
        rows.append(summarize(run, project))
    return rows


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the benchmark, print the report."""
    parser = parser_for(__doc__, list(LANGUAGES))
    parser.add_argument("--python-servers", default="ty,pyright", help="default: ty,pyright")
    parser.add_argument("--refs", type=int, default=40, help="symbols asked for references")
    parser.add_argument("--callers", type=int, default=30, help="functions asked for callers")
    parser.add_argument(
        "--details", action="store_true", help="log each missed site (stderr) to judge the truth"
    )
    args = parsed(parser, argv, list(LANGUAGES))
    args.python_servers = args.python_servers.split(",")
    if args.refs < 1 or args.callers < 1:
        parser.error("--refs and --callers must be at least 1")
    return emit(asyncio.run(bench(args)), args.json, print_table)


if __name__ == "__main__":
    sys.exit(main())
