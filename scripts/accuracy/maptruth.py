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

import json
import os
import posixpath
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
from lsp.model import Location
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
    "rust": (".rs",),
    "php": (".php",),
}
C_FILES = (".c", ".h", ".hpp", ".cc", ".cpp")
"""Where a function taken as a value, and a macro's body, are counted apart (C, C++)."""
BUDGET = 50_000
_FIXTURE = "a pytest fixture (conftest.py) gives it; ty does not type fixtures"
_WIN32 = "code for `sys.platform == 'win32'`: ty checks for this host's platform and skips it"


def _linked(package: str) -> str:
    """Why tsserver leaves out a TanStack example's call of a workspace package's own."""
    return (
        f"the example imports @tanstack/{package}, which pnpm-lock.yaml links to "
        f"packages/{package} (`version: link:../../../packages/{package}`); tsserver, with "
        "no node_modules installed, does not resolve the package"
    )


SERVER_WRONG: dict[tuple[str, str], dict[tuple[str, int], str]] = {
    ("cli", "flag_impl.go#FlagBase.GetEnvVars"): {
        ("flag_test.go", 430): "`f := tc.fl.(DocGenerationFlag); f.GetEnvVars()`: gopls counts "
        "the same call through DocGenerationFlag in docs.go:127 and leaves this one (a test "
        "file's) out"
    },
    ("pflag", "float32.go#float32Value.Set"): {
        ("golangflag_test.go", 98): "`pf.Value.Set(value)` through the Value interface in a "
        "test file: gopls listed it in one run of this bench and left it out in the next, on "
        "the same code (its test variant's interface calls come and go)"
    },
    ("store", "packages/react-store/src/useCreateStore.ts#useCreateStore"): {
        ("examples/react/store-context/src/index.tsx", 30): _linked("react-store")
    },
    ("store", "packages/preact-store/src/useCreateStore.ts#useCreateStore~3"): {
        ("examples/preact/store-context/src/index.tsx", 30): _linked("preact-store")
    },
    ("store", "packages/angular-store/src/_injectStore.ts#_injectStore"): {
        ("examples/angular/store-actions/src/app/app.component.ts", 63): _linked("angular-store")
    },
    ("click", "tests/test_context.py#test_with_resource_nested_exception.TestContext.__init__"): {
        (path, line): "after a `with` block whose body raises, ty takes the rest for "
        "unreachable; TestContext(handle_exception=True) suppresses the exception and the "
        "asserts that follow run"
        for path, line in (("tests/test_context.py", n) for n in (646, 648, 656, 658))
    },
    ("jinja", "src/jinja2/lexer.py#Lexer.tokenize"): {
        ("tests/test_lexnparse.py", 110): f"`env.lexer.tokenize`: {_FIXTURE}"
    },
    ("rich", "rich/live.py#Live.__init__"): {
        ("rich/live.py", 371): "`Live(...)` under `if __name__ == '__main__'`, through its "
        "module's own class imported again there (`from .live import Live as Live`)"
    },
    ("rich", "rich/live_render.py#LiveRender.__rich_console__"): {
        ("tests/test_live_render.py", 41): f"`live_render.__rich_console__`: {_FIXTURE}",
        ("tests/test_live_render.py", 44): f"`live_render.__rich_console__`: {_FIXTURE}",
    },
    ("rich", "rich/_win32_console.py#LegacyWindowsTerm.erase_start_of_line"): {
        ("rich/_win32_console.py", 642): _WIN32,
        ("rich/_windows_renderer.py", 51): _WIN32,
        ("tests/test_win32_console.py", 240): _WIN32,
    },
    ("rich", "rich/_win32_console.py#WindowsCoordinates.from_param"): {
        ("tests/test_win32_console.py", 31): _WIN32
    },
    ("zlib", "gzclose.c#gzclose"): {
        ("contrib/iostream2/zstream.h", line): "`::gzclose(m_fp)` in a C++ header that no "
        "entry of compile_commands.json compiles (nor includes): clangd indexes nothing there "
        "and its go-to-definition on the call finds nothing"
        for line in (81, 203)
    },
    ("zlib", "contrib/iostream2/zstream.h#ozstream.os_flush"): {
        ("contrib/iostream2/zstream.h", 220): "`os_flush();` in ozstream's own `flush`, in "
        "that header: clangd indexes nothing there"
    },
}
"""Call lines the live server leaves out and the map lists, read by hand: (project
name, the node ID) -> {(path, line): why the server is wrong}. `grade` counts them in
the truth and says how many (`Graded.server_wrong`)."""
_PHP_NO_CALL = re.compile(
    r"\s*(use\s[^(]*|[\w\\]+(::\w+)?\s+(as|insteadof)\b[^(]*);\s*|\s*(\*|/\*|//|#).*"
)
"""A PHP import (`use function A\\f;`), trait adaptation (`f as protected;`) or comment
line (a docblock's `@see Writer::force()`)."""
_DIRECTIVE = re.compile(r"\s*#\s*(ifndef|ifdef|if|endif)\b\s*(\w*)")


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
    confirmed: int = 0
    """Call lines the server's call hierarchy left out and its own go-to-definition at
    the call confirms (in `truth`)."""
    in_macros: int = 0
    """Call lines in the bodies of C macros the map lists and a call hierarchy never
    does (a macro body is no call until expanded): left out of `listed`."""
    inactive: int = 0
    """Lines of C the map lists and the truth does not, where the server's go-to-definition
    finds nothing inside a preprocessor conditional (code its configuration leaves out),
    or that reach the symbol through a macro in a file its index does not cover (not
    in compile_commands.json) or where it cannot resolve the macro; lines of Go in a
    folder the go command ignores, where gopls does not follow interfaces: left out of
    `listed`."""
    as_values: int = 0
    """Lines of C or C++ the map lists and the truth does not, where the symbol is taken
    as a value (a function pointer) and not called: left out of `listed`."""
    server_wrong: frozenset[tuple[str, int]] = frozenset()
    """Call lines the server left out wrongly (`SERVER_WRONG`), counted in `truth`."""

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


async def grade(
    app: AppContext, code_map: CodeMap, node_id: str, namesake: bool, project: str = ""
) -> Graded:
    """The map's callers of `node_id` against the live server's incoming calls (with the
    lines `SERVER_WRONG` lists for `project`, a checkout's name, that the map lists)."""
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
    macros = frozenset(
        (n["nodeId"].partition("#")[0], line)
        for n in data["neighbors"]
        if _is_macro(app.root, code_map.node(n["nodeId"]))
        for line in n["at"]
    )
    listed -= macros
    values = frozenset(
        p
        for p in listed - truth
        if p[0].endswith(C_FILES) and not _called_at(app.root, details["name"], p)
    )
    listed -= values
    seen = {place: await _definitions_at(app, details["name"], place) for place in listed - truth}
    home = (details["path"], details["selection"].start_line + 1)
    prototype = re.compile(rf"(?<![\w$]){re.escape(details['name'])}\s*\(.*\)\s*;")
    confirmed = frozenset(
        place
        for place, targets in seen.items()
        if any((t.path, t.line) == home or prototype.search(t.text) for t in targets or ())
    )
    inactive = frozenset(
        place
        for place, targets in seen.items()
        if targets == [] and place[0].endswith(C_FILES) and _conditional(app.root, place)
    )
    indexed = _compiled(app.root)
    unread = frozenset(  # a call through a macro, where the server's index cannot see it
        [
            place
            for place, targets in seen.items()
            if targets is None
            and place[0].endswith(C_FILES)
            and (
                (indexed is not None and place[0] not in indexed)
                or await _definitions_at(app, None, place) == []
            )
        ]
    )
    listed -= inactive | unread
    wrong = next(
        (
            lines
            for (name, node), lines in SERVER_WRONG.items()
            if node == node_id and project.endswith(name)
        ),
        {},
    )
    truth |= confirmed
    ignored = frozenset(p for p in listed - truth if _go_ignored(app.root, p[0]))
    listed -= ignored
    wrong = {**_test_variant_crossings(code_map, node_id, data["neighbors"]), **wrong}
    corrected = frozenset(place for place in wrong if place in listed and place not in truth)
    return Graded(
        node_id,
        namesake,
        truth | corrected,
        listed,
        data["completeness"],
        data.get("unresolvedCount", 0),
        server_wrong=corrected,
        confirmed=len(confirmed),
        in_macros=len(macros),
        as_values=len(values),
        inactive=len(inactive | unread | ignored),
    )


def _go_ignored(root: Path, path: str) -> bool:
    """Whether the Go file at `path` lies in a folder the go command ignores (a name
    beginning with `_` or `.`, or `testdata`, below its module's go.mod): in no package,
    so gopls sees its calls of a method directly and not across an interface."""
    if not path.endswith(".go"):
        return False
    folders = Path(path).parent.parts
    for depth in range(len(folders), -1, -1):
        if (root.joinpath(*folders[:depth]) / "go.mod").is_file():
            below = folders[depth:]
            return any(f.startswith(("_", ".")) or f == "testdata" for f in below)
    return False


def _test_variant_crossings(
    code_map: CodeMap, node_id: str, neighbors: list[Any]
) -> dict[tuple[str, int], str]:
    """Go call lines in a `_test.go` file of the method's own package that the map
    reaches only across an interface (the callers of an interface method that may
    dispatch to it, or of a method it may dispatch to), not by a call of the method
    itself: gopls counts such calls in the package's other files and in every other
    package, and not in the package's test variant (docs/benchmarks.md shows it on a
    package of one interface), so they are server-wrong."""
    folder = posixpath.dirname(node_id.partition("#")[0])
    if not node_id.partition("#")[0].endswith(".go"):
        return {}
    found: dict[tuple[str, int], str] = {}
    for item in neighbors:
        path = item["nodeId"].partition("#")[0]
        if not path.endswith("_test.go") or posixpath.dirname(path) != folder:
            continue
        direct = code_map.edge_attrs(item["nodeId"], node_id, "calls")
        own = set(direct["lines"]) if direct is not None else set()
        for line in item["at"]:
            if line not in own:
                found[(path, line)] = _TEST_VARIANT
    return found


_TEST_VARIANT = (
    "a call across an interface in a test file of the method's own package: gopls "
    "counts the same call in the package's other files and in other packages"
)


def _called_at(root: Path, name: str, place: tuple[str, int]) -> bool:
    """Whether the line at `place` calls `name` (`name(`, or through a macro that does
    not name it) rather than take it as a value (`.close = redisNetClose,`), which a
    call hierarchy may not list."""
    lines = (root / place[0]).read_text(errors="replace").splitlines()
    text = lines[place[1] - 1] if place[1] <= len(lines) else ""
    named = re.search(rf"(?<![\w$]){re.escape(name)}(?![\w$])", text) is not None
    return not named or re.search(rf"(?<![\w$]){re.escape(name)}\s*\(", text) is not None


def _is_macro(root: Path, caller: Any) -> bool:
    """Whether a caller the map lists (its details) is a C function-like macro."""
    path = caller["path"]
    if caller["kind"] == "file" or not path.endswith(C_FILES):
        return False
    lines = (root / path).read_text(errors="replace").splitlines()
    first = caller["lines"][0] - 1
    return first < len(lines) and lines[first].lstrip().startswith("#")


async def _definitions_at(
    app: AppContext, name: str | None, place: tuple[str, int]
) -> list[Location] | None:
    """The server's go-to-definition on the call of `name` (None: of the line's first
    call, a macro's when the line reaches the symbol through one) at `place` (a call
    line its call hierarchy left out); None when the line has no such call or the
    server failed."""
    path, line = place
    lines = (app.root / path).read_text(errors="replace").splitlines()
    text = lines[line - 1] if line <= len(lines) else ""
    called = r"[A-Za-z_]\w*" if name is None else re.escape(name)
    found = re.search(rf"(?<![\w$]){called}\s*\(", text)
    if found is None:
        return None
    try:
        return await app.live.definition(path, line - 1, found.start())
    except (LspError, ToolError):
        return None


def _compiled(root: Path) -> frozenset[str] | None:
    """The source files the project's compile_commands.json names (clangd's background
    index covers those and the headers they include); None without one."""
    listed = root / "compile_commands.json"
    if not listed.is_file():
        return None
    commands = json.loads(listed.read_text())
    files = (Path(c["directory"], c["file"]).resolve() for c in commands)
    return frozenset(str(f.relative_to(root)) for f in files if f.is_relative_to(root))


def _conditional(root: Path, place: tuple[str, int]) -> bool:
    """Whether the line at `place` sits inside a preprocessor conditional (`#if`,
    `#ifdef`, `#ifndef`; a header's include guard aside)."""
    lines = (root / place[0]).read_text(errors="replace").splitlines()
    depth = 0
    guard = None
    for number, text in enumerate(lines[: place[1] - 1]):
        directive = _DIRECTIVE.match(text)
        if directive is None:
            continue
        if directive[1].startswith("if"):
            depth += 1
            follows = lines[number + 1].split() if number + 1 < len(lines) else []
            name = directive[2] if directive[1] == "ifndef" else None
            if guard is None and depth == 1 and name and follows[-1:] == [name]:
                guard = depth
        elif directive[1] == "endif":
            depth -= 1
    return depth > (1 if guard else 0)


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
        if _php_no_call(app.root / ref.path, ref.line):
            continue
        if (ref.path, ref.line) != (path, line + 1):
            targets = await app.live.definition(ref.path, ref.line - 1, ref.span.start_char)
            if any((t.path, t.line) == (path, line + 1) for t in targets):
                own.add((ref.path, ref.line))
    return frozenset(own)


def _php_no_call(file: Path, line: int) -> bool:
    """Whether a PHP line names a function or method without calling it: an import
    (`use function A\\f;`), a trait's adaptation (`f as protected;`), a comment (a
    docblock's `@see`), which intelephense's references list."""
    try:
        text = file.read_text(errors="replace").splitlines()[line - 1]
    except (OSError, IndexError):
        return False
    return bool(_PHP_NO_CALL.fullmatch(text))


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
