"""Benchmark: what a one-shot `codeanchor` command costs before it does any work.

Each command runs as a user runs it, in its own process: `python -m
bridge.cli` (what the `codeanchor` console script runs) with this checkout
first on PYTHONPATH, on a private git copy of the bundled example
(scripts/example) with its map built and one memory saved. For every command
the run prints:

    wall       median and spread (min-max) of --runs whole-process runs, in ms
    imports    median over 3 runs of the summed top-level import times that
               `python -X importtime` reports (every module loaded, in ms)
    heavy      which of the heavy packages the command loaded (mcp, lsprotocol,
               pygls, networkx, psycopg, pydantic, rich)

The floor, measured in the same run: `python -c pass` (the interpreter's own
start, which no command can beat). Each command runs once untimed first, with
bytecode writing on (as a user's Python has it), so every figure reads
compiled modules.

    .venv/bin/python scripts/bench_cli.py [--runs 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.bridge.mcp_session import example_repo  # noqa: E402

HEAVY = ("mcp", "lsprotocol", "pygls", "networkx", "psycopg", "pydantic", "rich")
COMMANDS: tuple[tuple[str, ...], ...] = (
    ("--help",),
    ("nav", "refs", "--help"),
    ("memory", "recall", "--help"),
    ("map", "status", "--json"),
    ("memory", "recall", "pricing", "--json"),
    ("memory", "list", "--json"),
)
PREFIX = [sys.executable, "-m", "bridge.cli"]


def make_repo(workdir: Path) -> Path:
    """The bundled example in a fresh git repository, its map built, one memory saved."""
    root = example_repo(workdir, watch=False)
    for words in (
        ("map", "build"),
        ("memory", "add", "--text", "pricing rounds half up", "--ref", "shop/pricing.py"),
    ):
        run([*PREFIX, *words, "--root", str(root)], root)
    return root


def run(argv: list[str], root: Path, env: dict[str, str] | None = None) -> str:
    """Run one command to completion; returns its stderr (it must succeed)."""
    env = {**os.environ, **(env or {}), "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run(argv, cwd=root, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr}")
    return done.stderr


def wall_ms(argv: list[str], root: Path, runs: int) -> list[float]:
    """Wall time of `runs` whole-process runs of `argv`, in ms (after one untimed run)."""
    run(argv, root)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        run(argv, root)
        times.append((time.perf_counter() - started) * 1000)
    return times


def import_profile(argv: list[str], root: Path) -> tuple[float, set[str]]:
    """The summed top-level import time (ms) of one run, and the heavy packages it loaded."""
    total_us, loaded = 0, set()
    for line in run(argv, root, {"PYTHONPROFILEIMPORTTIME": "1"}).splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        _, cumulative, name = line.split("|")
        if not name.startswith("  "):  # top level: its cumulative time covers its children
            total_us += int(cumulative)
        package = name.strip().split(".")[0]
        if package in HEAVY:
            loaded.add(package)
    return total_us / 1000, loaded


def _root(words: tuple[str, ...], root: Path) -> list[str]:
    return [] if "--help" in words else ["--root", str(root)]


def main() -> None:
    """Run every command, print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    options = parser.parse_args()
    with open("/proc/loadavg") as loadavg:
        print(f"load average at start: {loadavg.read().strip()}")
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        root = make_repo(Path(tmp))
        print(f"checkout: {ROOT}; {options.runs} runs each; corpus: scripts/example")
        lines = [("python -c pass (floor)", [sys.executable, "-c", "pass"])]
        lines += [
            (f"codeanchor {' '.join(words)}", [*PREFIX, *words, *_root(words, root)])
            for words in COMMANDS
        ]
        for label, argv in lines:
            times = wall_ms(argv, root, options.runs)
            profiles = [import_profile(argv, root) for _ in range(3)]
            imports = statistics.median(total for total, _ in profiles)
            heavy = set().union(*(packages for _, packages in profiles))
            print(
                f"{label:42} wall median {statistics.median(times):6.0f} ms "
                f"(min {min(times):.0f}, max {max(times):.0f}); imports {imports:6.0f} ms; "
                f"heavy: {', '.join(sorted(heavy)) or 'none'}"
            )
    with open("/proc/loadavg") as loadavg:
        print(f"load average at end: {loadavg.read().strip()}")


if __name__ == "__main__":
    main()
