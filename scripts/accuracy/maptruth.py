"""The map's callers graded against a live server's call hierarchy, on namesake-heavy samples.

A sample takes the functions and methods of a project whose name is called somewhere
(`name(` in a file of the language other than its definition's line; definitions only,
not a C prototype, whose callers the map gives its definition, nor a macro), at least half
of them namesakes (a name the project defines more than once, or a common method name:
Run, String, Close, get, update, create, parse, init ...), seeded. For each, the live
server's incoming calls (asked directly, `LivePool.incoming_calls`: no cross-check, no
map) are the truth, as call lines (path, line); the map's answer
(`map_neighbors(direction="in", kinds=["calls"])`, the tool an agent calls) gives its
callers' `at` lines. An answer is falsely complete when it says `complete` while its
lines differ from the truth's.
"""

from __future__ import annotations

import os
import random
import re
import statistics
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bridge.context import AppContext
from bridge.contract.errors import ToolError
from bridge.tools import mapgraph
from lsp.errors import LspError
from map.live.codemap import CodeMap

COMMON_NAMES = frozenset(
    {"Run", "String", "Close", "Get", "Set", "Add", "Init", "Parse", "Update", "Create"}
    | {"run", "get", "set", "update", "create", "parse", "init", "close", "add", "invoke"}
    | {"main", "new", "open", "read", "write", "start", "stop", "__init__", "Execute"}
)
CALLABLE = frozenset({"function", "method", "constructor"})
EXTENSIONS = {
    "go": (".go",),
    "python": (".py",),
    "c": (".c", ".h"),
    "typescript": (".ts", ".tsx", ".js"),
    "php": (".php",),
}
BUDGET = 50_000


@dataclass(frozen=True)
class Graded:
    """One symbol's map callers against the live server's."""

    node_id: str
    namesake: bool
    truth: frozenset[tuple[str, int]]
    listed: frozenset[tuple[str, int]]
    completeness: str
    unresolved: int
    error: str | None = None

    @property
    def right(self) -> int:
        """Call lines both list."""
        return len(self.truth & self.listed)

    @property
    def falsely_complete(self) -> bool:
        """Said complete while missing or adding a call line."""
        return self.completeness == "complete" and self.truth != self.listed


@dataclass
class ProjectRun:
    """Everything measured on one project."""

    label: str
    language: str
    server: str
    symbols: int = 0
    graded: list[Graded] = field(default_factory=list)
    cold_s: float = 0.0
    rebuild_s: float = 0.0


def sample(
    code_map: CodeMap, root: Path, language: str, size: int, seed: int
) -> list[tuple[str, bool]]:
    """Up to `size` (node ID, namesake) of callable symbols whose name is called
    somewhere, at least half namesakes when there are that many."""
    symbols = []
    names: Counter[str] = Counter()
    for path in sorted(code_map.files()):
        if not path.endswith(EXTENSIONS[language]):
            continue
        lines = (root / path).read_text(errors="replace").splitlines()
        for symbol in code_map.symbols_in(path):
            if symbol.kind in CALLABLE and not symbol.name.startswith("Test"):
                names[symbol.name] += 1
                text = (
                    lines[symbol.selection.start_line]
                    if symbol.selection.start_line < len(lines)
                    else ""
                )
                if not symbol.declaration and not text.lstrip().startswith("#"):
                    symbols.append(symbol)  # a definition, not a prototype nor a macro
    called = _called_names(root, code_map, language, set(names))
    pool = [s for s in symbols if called.get(s.name, 0) > names[s.name]]
    namesakes = [s for s in pool if names[s.name] > 1 or s.name in COMMON_NAMES]
    unique = [s for s in pool if not (names[s.name] > 1 or s.name in COMMON_NAMES)]
    chooser = random.Random(seed)
    chooser.shuffle(namesakes)
    chooser.shuffle(unique)
    half = (size + 1) // 2
    taken = namesakes[:half]
    taken += unique[: size - len(taken)]
    taken += namesakes[half : half + size - len(taken)]
    return [(s.node_id, s in namesakes) for s in taken]


def _called_names(root: Path, code_map: CodeMap, language: str, names: set[str]) -> Counter[str]:
    """How many times each of `names` is written before `(` in the project's files."""
    pattern = re.compile(r"(?<![\w$])([A-Za-z_$][\w$]*)\s*\(")
    found: Counter[str] = Counter()
    for path in code_map.files():
        if path.endswith(EXTENSIONS[language]):
            text = (root / path).read_text(errors="replace")
            found.update(n for n in pattern.findall(text) if n in names)
    return found


async def grade(app: AppContext, code_map: CodeMap, node_id: str, namesake: bool) -> Graded:
    """The map's callers of `node_id` against the live server's incoming calls."""
    details = code_map.node(node_id)
    assert details["kind"] != "file"
    path, selection = details["path"], details["selection"]
    try:
        truth = await _live_lines(app, path, selection.start_line, selection.start_char)
    except (LspError, ToolError) as exc:
        return Graded(node_id, namesake, frozenset(), frozenset(), "error", 0, str(exc))
    kinds: list[Any] = ["calls", "references"] if _property(app.root / path, details) else ["calls"]
    answer = await mapgraph.map_neighbors(app, node_id, direction="in", kinds=kinds, budget=BUDGET)
    data: dict[str, Any] = dict(answer["data"])
    listed = frozenset(
        (n["nodeId"].partition("#")[0], line) for n in data["neighbors"] for line in n["at"]
    )
    truth = frozenset(place for place in truth if not place[0].startswith("/"))
    return Graded(
        node_id, namesake, truth, listed, data["completeness"], data.get("unresolvedCount", 0)
    )


async def _live_lines(
    app: AppContext, path: str, line: int, character: int
) -> frozenset[tuple[str, int]]:
    """The live server's call lines of the symbol at the position: its incoming calls,
    or in PHP (intelephense has no call hierarchy) its references whose go-to-definition
    is this symbol (intelephense's references of a method list the calls of its whole
    family: an interface's method those of each implementation, an override those of its
    siblings; a PHP method or function is referred to by calling it, or by name in a
    callable string the map does not read either)."""
    if not path.endswith(EXTENSIONS["php"]):
        calls = await app.live.incoming_calls(path, line, character)
        return frozenset(
            (call.location.path, span.start_line + 1) for call in calls for span in call.call_spans
        )
    found = await app.live.references(path, line, character, include_declaration=False)
    own: set[tuple[str, int]] = set()
    for ref in found:
        if (ref.path, ref.line) != (path, line + 1):
            targets = await app.live.definition(ref.path, ref.line - 1, ref.span.start_char)
            if any((t.path, t.line) == (path, line + 1) for t in targets):
                own.add((ref.path, ref.line))
    return frozenset(own)


def _property(file: Path, details: Any) -> bool:
    """Whether a Python method is a property (its reads are calls to the server's call
    hierarchy, and `references` edges in the map)."""
    first = details["lines"][0]
    head = file.read_text(errors="replace").splitlines()[
        first - 1 : details["selection"].start_line
    ]
    return any("@property" in line or ".setter" in line for line in head)


def build_seconds(tree: Path, root: Path, rounds: int) -> tuple[list[float], list[float]]:
    """Cold build and one-file rebuild of `root`'s map by the code in `tree`, each in a
    fresh process and a fresh store, `rounds` times: (cold seconds, rebuild seconds)."""
    cold: list[float] = []
    rebuild: list[float] = []
    for _ in range(rounds):
        out = subprocess.run(
            [sys.executable, "-c", _BUILD, str(root)],
            env={**os.environ, "PYTHONPATH": str(tree)},
            capture_output=True,
            text=True,
            check=True,
        )
        first, second = out.stdout.split()
        cold.append(float(first))
        rebuild.append(float(second))
    return cold, rebuild


_BUILD = """
import sys, tempfile, time
from pathlib import Path
from map import CodeMap, MapSettings
root = Path(sys.argv[1])
with tempfile.TemporaryDirectory() as store:
    started = time.perf_counter()
    code_map = CodeMap.open(root, MapSettings(snapshot_dir=store))
    code_map.graph
    cold = time.perf_counter() - started
    victim = sorted(code_map.files())[len(code_map.files()) // 2]
    original = (root / victim).read_bytes()
    try:
        (root / victim).write_bytes(original + b"\\n")
        started = time.perf_counter()
        code_map.rebuild()
        again = time.perf_counter() - started
    finally:
        (root / victim).write_bytes(original)
print(cold, again)
"""


def median(samples: list[float]) -> float:
    """The median (0 when there is none)."""
    return statistics.median(samples) if samples else 0.0
