"""Benchmark map_changes: a 20-file diff on a PyPI wheel corpus, with the map warm.

The corpus is one of scripts/bench_map.py's (the same pinned wheels, the same
cache and unpacking: its helpers are imported, not copied), committed to a
fresh git repository with one memory anchored in each file the diff edits.
The diff then edits FILES Python files (each: its first top-level function
modified in half of them, renamed in the other half; a function added), the
map is brought up to date (warm), and `map_changes` (the bridge tool, in
process, memories included, no live verification) is timed end to end, --runs
times:

    map_changes        the whole answer: git diff, both sides of each file
                       extracted and matched, blast radius (depth 2), the
                       memories the diff touches
    diff_files         git alone (name-status and untracked files)
    symbol_changes     extraction (the map's for the working tree) and matching,
                       no blast radius, no memories

    .venv/bin/python scripts/bench_changes.py --corpus click --runs 3   # seconds
    .venv/bin/python scripts/bench_changes.py                          # the mix (~5,000 files)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from mapbench.corpora import CORPORA, DEFAULT_CACHE, fetch_wheels, unpack_sources  # noqa: E402

from bridge.config import Config  # noqa: E402
from bridge.context import AppContext  # noqa: E402
from bridge.tools.changes import map_changes  # noqa: E402
from memory.changes import diff_files, symbol_changes  # noqa: E402
from memory.service import MemoryService, NewMemory  # noqa: E402
from memory.workspace import Workspace  # noqa: E402
from tests.gitrepo import commit_all  # noqa: E402

FILES = 20
_TOP_DEF = re.compile(r"^def ([A-Za-z_]\w*)\(", re.MULTILINE)


def _edited_files(root: Path) -> list[tuple[str, str]]:
    """FILES Python files with a top-level function, spread over the corpus: (path, name)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        match = _TOP_DEF.search(path.read_text(encoding="utf-8", errors="replace"))
        if match is not None and path.stat().st_size < 60_000:
            found.append((path.relative_to(root).as_posix(), match.group(1)))
    step = max(1, len(found) // FILES)
    return found[::step][:FILES]


def _prepare(corpus: str, cache: Path, into: Path) -> tuple[Path, list[tuple[str, str]]]:
    root = into / corpus
    unpack_sources(fetch_wheels(cache, CORPORA[corpus]), root)
    (root / ".gitignore").write_text(".codeanchor/\n")
    commit_all(root, "corpus")
    edited = _edited_files(root)
    with MemoryService(root) as service:
        service.save_many(
            [NewMemory(f"what {name} does", (f"{path}#{name}",)) for path, name in edited]
        )
    for index, (path, name) in enumerate(edited):
        target = root / path
        text = target.read_text(encoding="utf-8")
        text = _renamed(text, name) if index % 2 else _modified(text, name)
        target.write_text(text + f"\n\ndef _bench_added_{name}():\n    return 1\n")
    return root, edited


def _renamed(text: str, name: str) -> str:
    """The function `name` renamed, its body kept."""
    return re.sub(rf"^def {name}\(", f"def {name}_renamed(", text, count=1, flags=re.M)


def _modified(text: str, name: str) -> str:
    """A statement put first in the body of the top-level function `name`."""
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith(f"def {name}("))
    colon = next(i for i in range(start, len(lines)) if lines[i].rstrip().endswith(":"))
    body = next(i for i in range(colon + 1, len(lines)) if lines[i].strip())
    indent = lines[body][: len(lines[body]) - len(lines[body].lstrip())] or "    "
    lines.insert(colon + 1, f"{indent}_bench_edit = 1\n")
    return "".join(lines)


async def _timed(runs: int, call: Callable[[], Awaitable[Any]]) -> dict[str, Any]:
    seconds = []
    result: Any = None
    for _ in range(runs):
        start = time.perf_counter()
        result = await call()
        seconds.append(time.perf_counter() - start)
    return {
        "median_s": round(statistics.median(seconds), 3),
        "min_s": round(min(seconds), 3),
        "max_s": round(max(seconds), 3),
        "result": result,
    }


async def bench(root: Path, runs: int) -> dict[str, Any]:
    app = AppContext(root, Config())
    try:
        start = time.perf_counter()
        await app.code_map()
        await app.rebuild_map()
        warmup_s = time.perf_counter() - start
        answer = await _timed(runs, lambda: map_changes(app, budget=50_000))
        data = answer.pop("result")["data"]
        git = await _timed(runs, lambda: asyncio.to_thread(diff_files, root))
        git.pop("result")
        diff = diff_files(root)
        known = (await app.code_map()).extract_of
        symbols = await _timed(
            runs,
            lambda: asyncio.to_thread(lambda: symbol_changes(diff, Workspace(root, known=known))),
        )
        symbols.pop("result")
        return {
            "map warm-up (open + rebuild) s": round(warmup_s, 1),
            "map_changes": answer,
            "diff_files": git,
            "symbol_changes": symbols,
            "counts": data["counts"],
            "memories touched": len(data["memories"]),
            "dependents listed": sum(len(s["dependents"]) for s in data["symbols"]),
            "map files": (await app.code_map()).status().files,
        }
    finally:
        await app.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=sorted(CORPORA), default="mix")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_changes_") as tmp:
        root, edited = _prepare(args.corpus, args.cache, Path(tmp))
        figures = asyncio.run(bench(root, args.runs))
    figures = {"corpus": args.corpus, "files edited": len(edited), **figures}
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
