"""Ask codeanchor's own tools about the sampled symbols and judge the answers.

Every question goes through the tool functions an agent's call reaches
(bridge/tools/nav.py, bridge/tools/mapgraph.py) on an AppContext, and is timed
end to end, as the user waits for it. Live answers are judged against the
parse-based ground truth; the map's callers against the live server's call
hierarchy (the oracle).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from accuracy.sample import Symbol
from accuracy.truth import Occurrence
from bridge.context import AppContext
from bridge.contract.envelope import Envelope
from bridge.contract.errors import ToolError
from bridge.tools import mapgraph, nav
from lsp.errors import LspError
from map.live.codemap import CodeMap

BUDGET = 50_000
"""The largest budget a tool accepts: the benchmark wants whole answers."""
PARTIAL = "partial"


@dataclass(frozen=True)
class Judged:
    """One live answer, judged against the ground truth."""

    node_id: str
    expected: int
    """Sites in the ground truth (reference sites, or call lines)."""
    confirmed: int
    """Of those, how many the answer lists."""
    expected_direct: int
    """Sites the parse ties to the symbol without types (see Occurrence.direct)."""
    confirmed_direct: int
    completeness: str
    """What the answer says of itself: `complete`, `partial`, or `unstated`."""
    wait_ms: float
    opened: int
    """Documents the server had open after the answer that it had not before."""
    priming: dict[str, float]
    """The answer's own priming figures, when it reports them."""
    missed: tuple[tuple[str, int], ...] = ()
    """The truth's (path, line) sites the answer did not list."""
    error: str | None = None

    @property
    def recall(self) -> float:
        """Confirmed over expected (1.0 when nothing was expected)."""
        return self.confirmed / self.expected if self.expected else 1.0

    @property
    def silent(self) -> bool:
        """Partial without saying so."""
        return self.recall < 1.0 and self.completeness != PARTIAL


@dataclass(frozen=True)
class MapJudged:
    """The map's callers of one symbol against the live callers (the oracle), and
    against the live callers plus the ground truth's call sites."""

    node_id: str
    agreed: int
    map_only: tuple[str, ...]
    """Callers the map lists and the live server does not (node IDs)."""
    live_only: tuple[str, ...]
    """Callers the live server lists and the map does not (as map node IDs)."""
    parse_only: int
    """Of `map_only`, those around a call site of the ground truth (a call the
    server could not type, such as `app.run()` on an unannotated pytest fixture)."""
    wait_ms: float


@dataclass
class Run:
    """Everything measured for one project with one server."""

    label: str
    server: str
    candidates: int = 0
    map_open_s: float = 0.0
    cold_s: float = 0.0
    references: list[Judged] = field(default_factory=list)
    callers: list[Judged] = field(default_factory=list)
    map_callers: list[MapJudged] = field(default_factory=list)
    docs_open: int = 0


def completeness_of(envelope: Envelope) -> str:
    """The answer's own completeness claim (a string, or a dict with a status)."""
    data = envelope["data"]
    value = data.get("completeness") if isinstance(data, dict) else None
    if isinstance(value, dict):
        value = value.get("status") or value.get("value") or value.get("state")
    if envelope.get("truncated"):
        return PARTIAL
    return str(value) if value else "unstated"


def priming_of(envelope: Envelope) -> dict[str, float]:
    """The answer's own priming figures (`priming`: filesOpened, ms, capHit), if any."""
    data = envelope["data"]
    priming = data.get("priming") if isinstance(data, dict) else None
    if not isinstance(priming, dict):
        return {}
    return {
        key: float(priming[key])
        for key in ("filesOpened", "ms", "capHit")
        if isinstance(priming.get(key), int | float)
    }


class Asker:
    """Times tool calls and counts the documents each one opened."""

    def __init__(self, app: AppContext, language: str) -> None:
        self.app = app
        self.language = language

    def open_documents(self) -> set[Path]:
        """The documents the language's server has open now."""
        return set(self.app.live.session(self.language).open_documents())

    async def timed(
        self, call: Callable[[], Awaitable[Envelope]]
    ) -> tuple[Envelope | None, float, int, str | None]:
        """The answer (None on error), its wait in ms, documents it opened, the error."""
        before = self.open_documents()
        started = time.perf_counter()
        try:
            answer: Envelope | None = await call()
            error = None
        except (ToolError, LspError) as exc:
            answer, error = None, f"{type(exc).__name__}: {exc}"
        wait_ms = (time.perf_counter() - started) * 1000
        return answer, wait_ms, len(self.open_documents() - before), error

    async def references(self, symbol: Symbol) -> Judged:
        """nav_references, judged against the symbol's ground truth."""
        answer, wait_ms, opened, error = await self.timed(
            lambda: nav.nav_references(self.app, symbol.target, symbol.name, budget=BUDGET)
        )
        listed = Counter(
            (loc["path"], loc["line"]) for loc in (answer["data"]["locations"] if answer else [])
        )
        return _judged(symbol.node_id, symbol.truth, listed, answer, (wait_ms, opened), error)

    async def callers(self, symbol: Symbol) -> tuple[Judged, list[dict[str, Any]]]:
        """nav_callers, judged against the symbol's call sites; and the callers listed."""
        answer, wait_ms, opened, error = await self.timed(
            lambda: nav.nav_callers(self.app, symbol.target, symbol.name, budget=BUDGET)
        )
        found: list[dict[str, Any]] = answer["data"]["callers"] if answer else []
        listed = Counter({(c["path"], line): 1 for c in found for line in c["callLines"]})
        judged = _judged(
            symbol.node_id, _per_line(symbol.calls), listed, answer, (wait_ms, opened), error
        )
        return judged, found

    async def map_callers(
        self, code_map: CodeMap, symbol: Symbol, live: list[dict[str, Any]]
    ) -> MapJudged:
        """map_neighbors (callers by `calls` edges) against the live callers."""
        answer, wait_ms, _, _ = await self.timed(
            lambda: mapgraph.map_neighbors(
                self.app, symbol.node_id, direction="in", kinds=["calls"], budget=BUDGET
            )
        )
        listed = {n["nodeId"] for n in (answer["data"]["neighbors"] if answer else [])}
        oracle = {map_node_at(code_map, c["path"], c["line"], c["name"]) for c in live}
        parsed = {map_node_at(code_map, o.path, o.line, "") for o in symbol.calls}
        return MapJudged(
            symbol.node_id,
            len(listed & oracle),
            tuple(sorted(listed - oracle)),
            tuple(sorted(oracle - listed)),
            len((listed - oracle) & parsed),
            wait_ms,
        )


def _per_line(calls: tuple[Occurrence, ...]) -> tuple[Occurrence, ...]:
    """One call per line (call hierarchy answers lines), direct if any call there is."""
    first: dict[tuple[str, int], Occurrence] = {}
    for call in sorted(calls, key=lambda o: not o.direct):
        first.setdefault((call.path, call.line), call)
    return tuple(first.values())


def _judged(
    node_id: str,
    truth: tuple[Occurrence, ...],
    listed: Counter[tuple[str, int]],
    answer: Envelope | None,
    cost: tuple[float, int],
    error: str | None,
) -> Judged:
    expected = Counter((o.path, o.line) for o in truth)
    direct = Counter((o.path, o.line) for o in truth if o.direct)
    return Judged(
        node_id,
        sum(expected.values()),
        sum((expected & listed).values()),
        sum(direct.values()),
        sum((direct & listed).values()),
        completeness_of(answer) if answer else "error",
        cost[0],
        cost[1],
        priming_of(answer) if answer else {},
        tuple(sorted((expected - listed).keys())),
        error,
    )


def map_node_at(code_map: CodeMap, path: str, line: int, name: str) -> str:
    """The map's node for a live caller defined at `path:line` (1-based): the symbol
    named there, else the innermost symbol around the line, else the file."""
    around = []
    for symbol in code_map.symbols_in(path):
        if symbol.selection.start_line + 1 == line and symbol.name == name:
            return symbol.node_id
        if symbol.range.first_line <= line <= symbol.range.last_line:
            around.append((symbol.range.last_line - symbol.range.first_line, symbol.node_id))
    return min(around)[1] if around else path
