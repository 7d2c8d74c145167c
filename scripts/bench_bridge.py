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

    .venv/bin/python scripts/bench_bridge.py --quick     # 5 runs, 5 tools, < 1 min
    .venv/bin/python scripts/bench_bridge.py --json      # every tool, 30 runs
    .venv/bin/python scripts/bench_bridge.py --tools map_search,nav_hover --runs 50
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import importlib.metadata
import importlib.util
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))  # the tests' git and MCP session helpers

from benchinfo import code_commit  # noqa: E402
from mcp import Client  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from bridge.context import AppContext  # noqa: E402
from bridge.targets import LspPosition, PositionTarget, to_lsp_position  # noqa: E402
from bridge.tools import mapping, nav, resolve  # noqa: E402
from lsp.pool import LivePool  # noqa: E402
from map.codemap import CodeMap  # noqa: E402
from tests.bridge.mcp_session import server_params  # noqa: E402
from tests.gitrepo import commit_all  # noqa: E402

DEFAULT_PACKAGE = "pygments"
DEFAULT_CACHE = Path.home() / ".cache" / "codeanchor-bench" / "bridge"
TABLE_WIDTH = 130
USE_EDGES = ("calls", "references", "inherits")
MIN_METHODS = 3
QUICK_TOOLS = ("nav_references", "nav_hover", "resolve", "map_search", "map_status")
QUICK_RUNS = 5
WARMUP_CALLS = 2
CALL_TIMEOUT_S = 120.0

err = Console(stderr=True)

Raw = Callable[[AppContext], Awaitable[object]]
PositionQuery = Callable[[LivePool, str, int, int], Awaitable[object]]
"""A live-layer call at a position, e.g. `LivePool.references`."""
T = TypeVar("T")


# ----------------------------------------------------------------- corpus


def corpus(package: str, cache: Path) -> tuple[Path, bool]:
    """The corpus repository of `package` in the cache, made on first use; and
    whether it was already there.

    Keyed by the package's version; the benchmark never edits it, so a later run
    reuses it (and its map snapshot, when still valid).
    """
    root = cache / f"{package}-{importlib.metadata.version(package)}"
    if (root / ".git").is_dir():
        return root, True
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        made = make_corpus(package, Path(tmp) / "repo")
        made.rename(root)
    return root, False


def make_corpus(package: str, root: Path) -> Path:
    """A git repository holding the installed `package`'s sources (tests and caches left out)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{package} is not an installed package; pass --package NAME")
    source = Path(next(iter(spec.submodule_search_locations)))
    shutil.copytree(
        source, root / package, ignore=shutil.ignore_patterns("__pycache__", "tests", "*.so")
    )
    (root / "pyproject.toml").write_text(f'[project]\nname = "{package}-bench"\nversion = "0"\n')
    commit_all(root, "corpus")
    return root


# ----------------------------------------------------------------- targets


@dataclass(frozen=True)
class Site:
    """A symbol to ask about: its node ID, and a `path:LINE` + name for position targets."""

    node_id: str
    path: str
    line: int
    name: str

    @property
    def position(self) -> str:
        """The `path:LINE` form (with `name`, the column is found for you)."""
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class Targets:
    """What the benchmark asks about, all found in the map."""

    cls: Site
    method: Site
    caller: Site
    use: Site


def _site(code_map: CodeMap, node_id: str) -> Site:
    attrs = code_map.node(node_id)
    line = attrs["selection"].start_line + 1
    return Site(node_id, attrs["path"], line, attrs["name"])


def pick_targets(code_map: CodeMap, root: Path) -> Targets:
    """The most widely referenced class (with a few methods), its most-called
    method, the member calling the most, and a use of the class in another file."""
    graph = code_map.graph
    referring: defaultdict[str, set[str]] = defaultdict(set)
    for source, target, kind in graph.edges(keys=True):
        if kind in USE_EDGES and graph.nodes[target].get("kind") == "class":
            referring[target].add(graph.nodes[source]["path"])

    def members(cls: str) -> list[str]:
        """The class's methods, dunders left out (they make poor questions)."""
        return [
            m
            for _, m, k in graph.out_edges(cls, keys=True)
            if k == "contains" and not graph.nodes[m]["name"].startswith("__")
        ]

    def edge_count(node: str, incoming: bool) -> int:
        edges = graph.in_edges(node, keys=True) if incoming else graph.out_edges(node, keys=True)
        return sum(1 for *_, k in edges if k == "calls")

    classes = [c for c in referring if len(members(c)) >= MIN_METHODS]
    if not classes:
        raise SystemExit("the map has no referenced class with methods to ask about")
    cls = max(classes, key=lambda c: (len(referring[c]), c))
    method = max(members(cls), key=lambda m: (edge_count(m, incoming=True), m))
    caller = max(members(cls), key=lambda m: (edge_count(m, incoming=False), m))
    return Targets(
        _site(code_map, cls),
        _site(code_map, method),
        _site(code_map, caller),
        _use(code_map, root, cls),
    )


def _use(code_map: CodeMap, root: Path, cls: str) -> Site:
    """A line in another file that names the class (from the map's edges)."""
    graph = code_map.graph
    name = graph.nodes[cls]["name"]
    word = re.compile(rf"\b{re.escape(name)}\b")
    home = graph.nodes[cls]["path"]
    for source, _, kind in sorted(graph.in_edges(cls, keys=True)):
        path = graph.nodes[source]["path"]
        data = code_map.edge_attrs(source, cls, kind)
        if path == home or data is None:
            continue
        lines = (root / path).read_text().splitlines()
        for line in sorted(data["lines"]):
            if word.search(lines[line - 1]):
                return Site(source, path, line, name)
    raise SystemExit(f"no use of {cls} outside its file")


# ----------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    """One tool call: the function, its arguments, and the raw live call it wraps."""

    tool: str
    fn: Callable[..., Awaitable[Any]]
    args: dict[str, Any]
    raw: Raw | None = None
    variant: str = ""
    """Set when the same tool is benched a second way (e.g. targeted by node ID)."""

    @property
    def label(self) -> str:
        """The tool's name in the report."""
        return f"{self.tool} ({self.variant})" if self.variant else self.tool


def _position(app: AppContext, site: Site) -> LspPosition:
    return to_lsp_position(app.root, PositionTarget(site.path, site.line, name=site.name))


def all_cases(t: Targets) -> list[Case]:
    """Every benchmarked tool. Nav tools are pointed at positions, so raw and tool ask
    the same; nav_references is also asked by node ID, the way an agent coming from
    map_search asks (which adds the live lookup of the node)."""

    def at(site: Site) -> dict[str, Any]:
        return {"target": site.position, "name": site.name}

    def live(site: Site, ask: PositionQuery) -> Raw:
        def raw(app: AppContext) -> Awaitable[object]:
            p = _position(app, site)
            return ask(app.live, p.path, p.line, p.character)

        return raw

    return [
        Case("nav_references", nav.nav_references, at(t.cls), live(t.cls, LivePool.references)),
        Case(
            "nav_references",
            nav.nav_references,
            {"target": t.cls.node_id},
            live(t.cls, LivePool.references),
            variant="node ID",
        ),
        Case("nav_definition", nav.nav_definition, at(t.use), live(t.use, LivePool.definition)),
        Case("nav_hover", nav.nav_hover, at(t.method), live(t.method, LivePool.hover)),
        Case(
            "nav_symbols",
            nav.nav_symbols,
            {"path": t.cls.path},
            lambda app: app.live.document_symbols(t.cls.path),
        ),
        Case(
            "nav_workspace_symbols",
            nav.nav_workspace_symbols,
            {"query": t.cls.name},
            lambda app: app.live.workspace_symbols(t.cls.name, language="python"),
        ),
        Case("nav_callers", nav.nav_callers, at(t.method), live(t.method, LivePool.incoming_calls)),
        Case("nav_callees", nav.nav_callees, at(t.caller), live(t.caller, LivePool.outgoing_calls)),
        Case(
            "resolve",
            resolve.resolve,
            {"target": t.method.node_id},
            lambda app: app.live.document_symbols(t.method.path),
        ),
        Case("map_search", mapping.map_search, {"query": t.cls.name}),
        Case(
            "map_neighbors", mapping.map_neighbors, {"node_id": t.method.node_id, "direction": "in"}
        ),
        Case("map_impact", mapping.map_impact, {"node_id": t.method.node_id}),
        Case("map_overview", mapping.map_overview, {}),
        Case("map_status", mapping.map_status, {}),
    ]


# ----------------------------------------------------------------- measuring


@dataclass
class Samples:
    """Latencies (seconds) of one tool in each mode, and its answer's size."""

    raw: list[float] = field(default_factory=list)
    inproc: list[float] = field(default_factory=list)
    mcp: list[float] = field(default_factory=list)
    answer_bytes: int = 0


async def timed(call: Callable[[], Awaitable[T]]) -> tuple[float, T]:
    """Seconds one awaited call took, and its result."""
    started = time.perf_counter()
    result = await asyncio.wait_for(call(), CALL_TIMEOUT_S)
    return time.perf_counter() - started, result


async def measure_inproc(
    root: Path, cases: list[Case], runs: int, samples: dict[str, Samples]
) -> dict[str, float]:
    """Raw and in-process latencies, one shared AppContext; returns cold-start times."""
    app = AppContext(root)
    cold: dict[str, float] = {}
    try:
        cold["map_open_s"], _ = await timed(app.code_map)
        first = cases[0]
        cold["first_call_s"], _ = await timed(lambda: first.fn(app, **first.args))
        err.log(f"in-process cold start: first {first.tool} {cold['first_call_s']:.2f} s")

        async def one_round(case: Case, record: bool) -> None:
            if case.raw is not None:
                raw = case.raw
                seconds, _ = await timed(lambda: raw(app))
                if record:
                    samples[case.label].raw.append(seconds)
            seconds, _ = await timed(lambda: case.fn(app, **case.args))
            if record:
                samples[case.label].inproc.append(seconds)

        for case in cases:
            for _ in range(WARMUP_CALLS):
                await one_round(case, record=False)
        for run in range(runs):
            for case in cases:
                await one_round(case, record=True)
            err.log(f"in-process run {run + 1}/{runs}")
    finally:
        await app.aclose()
    return cold


async def measure_mcp(
    root: Path, cases: list[Case], runs: int, samples: dict[str, Samples]
) -> dict[str, float]:
    """Latencies through `codeanchor serve` over stdio; returns cold-start times."""
    cold: dict[str, float] = {}
    started = time.perf_counter()
    async with Client(server_params(root), read_timeout_seconds=CALL_TIMEOUT_S) as client:
        cold["session_start_s"] = time.perf_counter() - started

        async def call(case: Case) -> int:
            result = await client.call_tool(case.tool, case.args)
            text = result.content[0].text  # type: ignore[union-attr]
            if result.is_error:
                raise SystemExit(f"{case.tool} failed through MCP: {text}")
            return len(text.encode())

        first = cases[0]
        cold["first_call_s"], _ = await timed(lambda: call(first))
        err.log(
            f"MCP cold start: session {cold['session_start_s']:.2f} s, first {first.tool} "
            f"{cold['first_call_s']:.2f} s"
        )
        for case in cases:
            for _ in range(WARMUP_CALLS):
                await call(case)
        for run in range(runs):
            for case in cases:
                seconds, size = await timed(functools.partial(call, case))
                samples[case.label].mcp.append(seconds)
                samples[case.label].answer_bytes = size
            err.log(f"MCP run {run + 1}/{runs}")
    return cold


# ----------------------------------------------------------------- report


def summary(values: list[float]) -> dict[str, float] | None:
    """Median and p95 in milliseconds (None when nothing was measured)."""
    if not values:
        return None
    ms = sorted(v * 1000 for v in values)
    p95 = statistics.quantiles(ms, n=20, method="inclusive")[18] if len(ms) > 1 else ms[0]
    return {"median_ms": round(statistics.median(ms), 2), "p95_ms": round(p95, 2)}


def _minus(a: dict[str, float] | None, b: dict[str, float] | None) -> float | None:
    """The difference of two medians (ms), when both were measured."""
    return round(a["median_ms"] - b["median_ms"], 2) if a and b else None


def rows(samples: dict[str, Samples]) -> list[dict[str, Any]]:
    """One result row per tool: the three summaries, the envelope's cost (in-process -
    raw), the transport's (MCP - in-process) and their sum against the base."""
    out = []
    for tool, s in samples.items():
        raw, inproc, mcp = summary(s.raw), summary(s.inproc), summary(s.mcp)
        base = raw or inproc
        row: dict[str, Any] = {
            "tool": tool,
            "raw": raw,
            "inproc": inproc,
            "mcp": mcp,
            "envelope_ms": _minus(inproc, raw),
            "transport_ms": _minus(mcp, inproc),
            "overhead_vs": "raw" if raw else "inproc",
            "overhead_ms": _minus(mcp, base),
            "overhead_pct": None,
            "answer_bytes": s.answer_bytes,
        }
        if base and row["overhead_ms"] is not None:
            row["overhead_pct"] = round(100 * row["overhead_ms"] / base["median_ms"], 1)
        out.append(row)
    return out


def print_table(report: dict[str, Any]) -> None:
    """The human report on stdout."""
    targets = report["targets"]
    table = Table(
        title=f"bridge latency on {report['corpus']['package']} "
        f"({report['corpus']['files']} files), {report['runs']} runs, ms (median / p95), "
        f"code at {report['commit']}",
        caption=f"class {targets['cls']['node_id']}, method {targets['method']['node_id']}; "
        "medians: envelope = in-process - raw, transport = MCP - in-process, overhead = "
        f"MCP - raw (* map tools: MCP - in-process); watcher {'on' if report['watch'] else 'off'}; "
        f"load average {report['load']:.1f} on {os.cpu_count()} CPUs",
    )
    columns = ("tool", "raw LSP", "in-process", "MCP stdio", "envelope", "transport", "overhead")
    for column in (*columns, "answer"):
        table.add_column(column, justify="left" if column == "tool" else "right")

    def cell(s: dict[str, float] | None) -> str:
        return f"{s['median_ms']:.1f} / {s['p95_ms']:.1f}" if s else "-"

    def delta(ms: float | None) -> str:
        return "-" if ms is None else f"{ms:+.1f}"

    for row in report["tools"]:
        mark = "" if row["overhead_vs"] == "raw" else "*"
        overhead = (
            f"{row['overhead_ms']:+.1f}{mark} ({row['overhead_pct']:+.0f}%)"
            if row["overhead_pct"] is not None
            else "-"
        )
        table.add_row(
            row["tool"],
            cell(row["raw"]),
            cell(row["inproc"]),
            cell(row["mcp"]),
            delta(row["envelope_ms"]),
            delta(row["transport_ms"]),
            overhead,
            f"{row['answer_bytes'] / 1024:.1f} KB",
        )
    out = Console(highlight=False)
    out = Console(highlight=False, width=max(out.width, TABLE_WIDTH))
    out.print(table)
    cold = report["cold"]
    out.print(
        f"cold (excluded above): map {'loaded' if cold['map_from_snapshot'] else 'built'} "
        f"in {cold['map_open_s']:.2f} s; in-process first "
        f"{cold['first_tool']} {cold['inproc']['first_call_s']:.2f} s; MCP session start "
        f"{cold['mcp']['session_start_s']:.2f} s, first {cold['first_tool']} "
        f"{cold['mcp']['first_call_s']:.2f} s"
    )


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
