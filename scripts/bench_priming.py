"""What priming costs and what it buys: references recall before and after, on TS
trees whose tests live outside every tsconfig `include` (ky's layout).

Two corpora, both made here (nothing is downloaded):

    fixture   tests/fixtures/ts_outside (the test suite's tree)
    ky-like   a generated tree: `--modules` source modules, each exporting one
              function that the next one calls, and `--tests` test files outside
              the tsconfig `include`, each calling `--calls` of those functions

For each function, the ground truth is every line naming it (the generated
tree has no comments or strings that do; on the fixture, the same-name helper
and its comment are left out). Figures:

    raw       `LivePool.references` (the live layer alone, no priming): recall,
              and its time as the floor
    primed    `nav_references` (scan + first answer + priming + second answer
              + cross-check): recall, files opened, priming ms, scan ms, whole ms,
              and the completeness it reported

Each mode runs on its own fresh server, questions in the same order; the
first question of a session is shown apart (it waits for tsserver to load).

    .venv/bin/python scripts/bench_priming.py [--modules 20 --tests 30 --calls 4] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

from bridge.context import AppContext
from bridge.tools.nav import nav_references

REPO_ROOT = Path(__file__).resolve().parents[1]
FIXTURE = REPO_ROOT / "tests" / "fixtures" / "ts_outside"
# (function, its file, lines the truth leaves out: same-name other symbols)
FIXTURE_QUESTIONS = (
    ("retryDelay", "source/utils/delay.ts", ()),
    ("mergeHeaders", "source/utils/merge.ts", ("test/helpers.ts",)),
)
T = TypeVar("T")
Place = tuple[str, int]
TSCONFIG = '{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["source"]}\n'


@dataclass
class Row:
    """One question, answered raw and primed."""

    corpus: str
    name: str
    truth: int
    raw_recall: float
    raw_ms: float
    primed_recall: float
    primed_ms: float
    files_opened: int
    priming_ms: float
    scan_ms: float
    completeness: str
    first: bool


def generate(
    root: Path, modules: int, tests: int, calls: int
) -> list[tuple[str, str, tuple[str, ...]]]:
    """Write the ky-like tree; the questions about it."""
    (root / "source").mkdir(parents=True)
    (root / "test").mkdir()
    (root / "tsconfig.json").write_text(TSCONFIG)
    for n in range(modules):
        head = f'import {{ step{n - 1} }} from "./m{n - 1}";\n\n' if n else ""
        body = f"step{n - 1}(x) + 1" if n else "x + 1"
        (root / "source" / f"m{n}.ts").write_text(
            f"{head}export function step{n}(x: number): number {{\n  return {body};\n}}\n"
        )
    for t in range(tests):
        used = sorted({(t * 7 + k * 3) % modules for k in range(calls)})
        lines = [f'import {{ step{n} }} from "../source/m{n}";' for n in used]
        lines += ["", f"export function test{t}(): number {{"]
        lines += [f"  const v{n} = step{n}({t});" for n in used]
        lines += ["  return " + " + ".join(f"v{n}" for n in used) + ";", "}", ""]
        (root / "test" / f"t{t}.test.ts").write_text("\n".join(lines))
    return [(f"step{n}", f"source/m{n}.ts", ()) for n in range(0, modules, max(1, modules // 6))]


def truth(root: Path, name: str, left_out: tuple[str, ...]) -> set[tuple[str, int]]:
    """Every line of a .ts file naming `name`, outside the `left_out` files."""
    word = re.compile(rf"(?<![\w$]){re.escape(name)}(?![\w$])")
    found = set()
    for path in root.rglob("*.ts"):
        rel = path.relative_to(root).as_posix()
        if rel in left_out:
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if word.search(line):
                found.add((rel, number))
    return found


def position(root: Path, path: str, name: str) -> tuple[int, int]:
    """The 0-based line and column of `name`'s declaration."""
    for number, line in enumerate((root / path).read_text().splitlines()):
        if f"function {name}(" in line:
            return number, line.index(name)
    raise SystemExit(f"{name} not declared in {path}")


async def _answers(
    root: Path, questions: list[Any], ask: Callable[[AppContext, str, str, int, int], Awaitable[T]]
) -> list[tuple[T, float]]:
    """Each question asked in turn on a fresh server (`ask(app, name, path, line,
    column)`), with the milliseconds it took."""
    app = AppContext(root)
    try:
        out = []
        for name, path, _ in questions:
            line, col = position(root, path, name)
            started = time.perf_counter()
            answer = await ask(app, name, path, line, col)
            out.append((answer, _ms(started)))
        return out
    finally:
        await app.aclose()


async def raw_answers(root: Path, questions: list[Any]) -> list[tuple[set[tuple[str, int]], float]]:
    """The live layer's own references, no priming, on a fresh server."""

    async def ask(app: AppContext, _name: str, path: str, line: int, col: int) -> set[Place]:
        return {(loc.path, loc.line) for loc in await app.live.references(path, line, col)}

    return await _answers(root, questions, ask)


async def primed_answers(root: Path, questions: list[Any]) -> list[tuple[dict[str, Any], float]]:
    """`nav_references` (primed and checked) on a fresh server."""

    async def ask(app: AppContext, name: str, path: str, line: int, _col: int) -> dict[str, Any]:
        envelope = await nav_references(app, f"{path}:{line + 1}", name, budget=50_000)
        return dict(envelope["data"])

    return await _answers(root, questions, ask)


def _ms(started: float) -> float:
    return (time.perf_counter() - started) * 1000


def measure(corpus: str, root: Path, questions: list[Any]) -> list[Row]:
    raw = asyncio.run(raw_answers(root, questions))
    primed = asyncio.run(primed_answers(root, questions))
    rows = []
    for index, ((name, _path, left_out), (raw_found, raw_ms), (data, primed_ms)) in enumerate(
        zip(questions, raw, primed, strict=True)
    ):
        expected = truth(root, name, left_out)
        got = {(loc["path"], loc["line"]) for loc in data["locations"]}
        priming = data.get("priming") or {}
        rows.append(
            Row(
                corpus=corpus,
                name=name,
                truth=len(expected),
                raw_recall=len(raw_found & expected) / len(expected),
                raw_ms=raw_ms,
                primed_recall=len(got & expected) / len(expected),
                primed_ms=primed_ms,
                files_opened=int(priming.get("filesOpened", 0)),
                priming_ms=float(priming.get("ms", 0.0)),
                scan_ms=float((data.get("crossCheck") or {}).get("scanMs", 0.0)),
                completeness=str(data.get("completeness")),
                first=index == 0,
            )
        )
    return rows


def report(rows: list[Row]) -> None:
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    header = (
        f"{'corpus':8} {'symbol':14} {'truth':>5} {'raw recall':>10} {'raw ms':>8} "
        f"{'primed recall':>13} {'primed ms':>9} {'opened':>6} {'priming ms':>10} "
        f"{'scan ms':>7}  completeness"
    )
    print(header)
    for r in rows:
        mark = "*" if r.first else " "
        print(
            f"{r.corpus:8} {r.name + mark:14} {r.truth:5} {r.raw_recall:10.0%} {r.raw_ms:8.0f} "
            f"{r.primed_recall:13.0%} {r.primed_ms:9.0f} {r.files_opened:6} "
            f"{r.priming_ms:10.1f} {r.scan_ms:7.1f}  {r.completeness}"
        )
    later = [r for r in rows if not r.first]
    if later:
        print(
            "after the first question (median): raw "
            f"{statistics.median(r.raw_ms for r in later):.0f} ms, primed "
            f"{statistics.median(r.primed_ms for r in later):.0f} ms, priming "
            f"{statistics.median(r.priming_ms for r in later):.1f} ms for "
            f"{statistics.median(r.files_opened for r in later):.0f} files opened"
        )
    print("* the session's first question (includes tsserver loading the project)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modules", type=int, default=20)
    parser.add_argument("--tests", type=int, default=30)
    parser.add_argument("--calls", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_priming_") as tmp:
        fixture = Path(tmp) / "fixture"
        shutil.copytree(FIXTURE, fixture)
        rows = measure("fixture", fixture, list(FIXTURE_QUESTIONS))
        generated = Path(tmp) / "ky-like"
        questions = generate(generated, args.modules, args.tests, args.calls)
        rows += measure("ky-like", generated, questions)
    if args.json:
        json.dump([asdict(r) for r in rows], sys.stdout, indent=2)
        print()
    else:
        report(rows)


if __name__ == "__main__":
    main()
