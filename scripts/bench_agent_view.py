"""Benchmark what an agent is shown (issue 21): one MCP session per project, every
answer checked against the source.

On small real projects none of the tests or the accuracy benchmark use (jinja2
3.1.6 from PyPI; immer 11.2.10's src/ from npm; spf13/pflag from Debian's
golang-github-spf13-pflag-dev; libyaml's C sources from the ruamel.yaml.clib
0.2.15 sdist), cached under ~/.cache/codeanchor-bench/agent-view and never
committed, it starts `codeanchor serve` on a scratch clone under the mcp SDK's
stdio client, default settings, and asks as an agent would. The ground truth
is tree-sitter's (scripts/accuracy/truth.py: where a symbol's name occurs as
code that can mean it; its call sites; each call's enclosing symbol is a
caller). The rows, one per point of the issue:

    1a-c  a node ID whose path is wrong (no such file; a one-letter typo in the
          file's or a folder's name), asked of resolve and nav_references:
          misleading = answered at all (an answer for another symbol); details
          count silent answers, unknown_id failures, right ID suggested first
    2a    default budget: count > 0, zero locations, unconfirmed items listed
    2b    default budget: `complete` while true sites (listed with the largest
          budget) or counted locations were dropped
    3a    `unconfirmed` shorter than `unconfirmedCount` with the budget (50,000)
          far from used: a fixed cap
    3b    nav_references: a list cut inside data (shorter than its own count) or
          a `truncated: true` inside data that the envelope's `truncated` omits
    3c    unconfirmed sites labelled `text`/`mention` that the parse shows to be
          code (not inside a comment or string)
    4a    map_neighbors/map_impact/map_path/map_changes answers with no
          `completeness`
    4b    map callers (map_neighbors in, calls) against the truth's callers, per
          language: recall, precision; misleading = short of the truth and not
          saying `partial`
    4c    map_impact with default settings: no depth stated, or dependents cut
          without saying how the shown ones were chosen
    4d    map_path from a function to one its body calls: not found, unflagged
    5a    a required parameter added to a function another file calls (every call
          the parse ties to it, without spread arguments, is then broken), then
          `nav_diagnostics {}`: no error on a broken call, `complete` claimed
    5b    the same, `nav_diagnostics {path}` for each broken caller file
    6     a memory on a function whose callee then changes (fresh; stale after its
          own symbol was edited and committed): not listed by `map_changes`
    7a    nav_workspace_symbols: node ID, container or name line wrong or missing
    7b    that result's path:LINE + name fed to nav_references fails or answers
          for another line
    7c    every answer of the session: a cut inside data not in `truncated`

Below the table: each session's wall times (first answer, i.e. the map's build;
the outlines; the whole session) and each tool's median/p95 wait. The server
runs from `--code` (default: this checkout), so the same script measures any
branch. Progress goes to stderr; `--json` prints the report as JSON.

    .venv/bin/python scripts/bench_agent_view.py              # a few minutes
    .venv/bin/python scripts/bench_agent_view.py --languages go,c --callers 30 --examples
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(
    0, str(Path(__file__).resolve().parents[1])
)  # tests.gitrepo, map.extraction.languages

from accuracy.corpora import corpus
from agentview.chaining import check_chaining, check_envelopes
from agentview.changes import check_diagnostics, check_memories
from agentview.corpora import DEFAULT_CACHE, PROJECTS
from agentview.mapview import check_map
from agentview.references import check_references
from agentview.report import as_json, print_report, waits_ms
from agentview.session import session
from agentview.tally import Findings
from agentview.targets import check_targets
from agentview.workspace import open_workspace, scratch_clone
from benchinfo import code_commit
from rich.console import Console

CODE = Path(__file__).resolve().parents[1]
err = Console(stderr=True)


async def run_project(language: str, args: argparse.Namespace, scratch: Path) -> Findings:
    """One project: a scratch clone, one session, every check in turn."""
    project = PROJECTS[language]
    err.log(f"{language}: corpus {project.source}")
    cached = await asyncio.to_thread(corpus, project, args.cache)
    root = scratch_clone(cached, scratch / project.key)
    findings = Findings(language, project.source)
    started = time.perf_counter()
    async with session(args.code, root) as agent:
        status = await agent.ask("map_status")
        findings.figures["first_answer_s"] = status.wall_s
        surveyed = time.perf_counter()
        ws = await open_workspace(agent, root, language, args.seed)
        findings.figures["survey_s"] = time.perf_counter() - surveyed
        findings.figures["declared"] = len(ws.declared)
        findings.figures["symbols"] = len(ws.symbols)
        err.log(f"{language}: {len(ws.symbols)} judgeable symbols of {len(ws.declared)}")
        steps = (
            ("1 wrong paths", check_targets(agent, ws, findings, args.targets)),
            ("2-3 references", check_references(agent, ws, findings, args.refs, args.mentions)),
            ("4 map", check_map(agent, ws, findings, (args.callers, args.impact, args.paths))),
            ("7 chaining", check_chaining(agent, ws, findings, args.chain)),
            ("5 diagnostics", check_diagnostics(agent, ws, findings, args.edits)),
            ("6 memories", check_memories(agent, ws, findings)),
        )
        for label, step in steps:
            err.log(f"{language}: {label}")
            await step
        check_envelopes(agent, findings)
        samples: dict[str, list[float]] = {}
        for answer in agent.answers:
            samples.setdefault(answer.tool, []).append(answer.wall_s)
        findings.figures["waits_ms"] = waits_ms(samples)
        findings.figures["calls"] = len(agent.answers)
    findings.figures["session_s"] = time.perf_counter() - started
    err.log(f"{language}: done in {findings.figures['session_s']:.1f} s")
    return findings


async def bench(args: argparse.Namespace) -> dict[str, Any]:
    """Every requested language, one session at a time."""
    found = []
    with tempfile.TemporaryDirectory(prefix="agent-view-") as tmp:
        for language in args.languages:
            found.append(await run_project(language, args, Path(tmp)))
    meta = {"commit": code_commit(args.code), "seed": args.seed, "load": os.getloadavg()[0]}
    return as_json(found, meta)


def main(argv: list[str] | None = None) -> int:
    """Parse the options, run the sessions, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--languages", default=",".join(PROJECTS), help="default: all")
    parser.add_argument("--targets", type=int, default=2, help="symbols given wrong paths")
    parser.add_argument("--refs", type=int, default=6, help="symbols asked for references")
    parser.add_argument("--mentions", type=int, default=2, help="more, named most in text")
    parser.add_argument("--callers", type=int, default=12, help="functions asked for map callers")
    parser.add_argument("--impact", type=int, default=2, help="functions asked for map_impact")
    parser.add_argument("--paths", type=int, default=2, help="caller->callee map_path asked")
    parser.add_argument("--chain", type=int, default=4, help="workspace symbols chained")
    parser.add_argument("--edits", type=int, default=1, help="functions given a parameter")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE, help="where corpora are kept")
    parser.add_argument("--code", type=Path, default=CODE, help="checkout whose serve runs")
    parser.add_argument("--examples", action="store_true", help="print misleading examples")
    parser.add_argument("--json", action="store_true", help="machine output on stdout")
    args = parser.parse_args(argv)
    args.languages = [lang.strip() for lang in args.languages.split(",") if lang.strip()]
    unknown = [lang for lang in args.languages if lang not in PROJECTS]
    if unknown:
        parser.error(f"unknown language(s) {', '.join(unknown)}; known: {', '.join(PROJECTS)}")
    report = asyncio.run(bench(args))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report, examples=args.examples)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
