"""The languages' own checkers, run from the command line, and the errors a change adds.

ty check (concise output); tsc --noEmit from .tools/node; Go: go build and
go test -run ^$ with -gcflags=-e (the type checker stops at 10 errors a
package without it; `go test` compiles the test files too), and go vet.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NODE_BIN = ROOT / ".tools" / "node" / "node_modules" / ".bin"

Line = tuple[str, int]


def _run(root: Path, *command: str) -> str:
    env = {**os.environ, "GOPROXY": "off", "GOTOOLCHAIN": "local", "GOFLAGS": "-mod=mod"}
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, env=env, check=False)
    return done.stdout + done.stderr


_TY = re.compile(r"^(?P<path>[^:\s]+\.pyi?):(?P<line>\d+):\d+: error\[[^\]]*\] (?P<msg>.*)$")
_TSC = re.compile(r"^(?P<path>[^(\s]+)\((?P<line>\d+),\d+\): error (?P<msg>.*)$")
_GO = re.compile(r"^(?:\.\/)?(?P<path>[^:\s]+\.go):(?P<line>\d+):\d+: (?P<msg>.*)$")


def checker_errors(language: str, root: Path) -> list[tuple[str, int, str]]:
    """(path, line, message) of every error the language's own checker reports."""
    if language == "python":
        out, pattern = (
            _run(root, str(ROOT / ".venv/bin/ty"), "check", "--output-format", "concise"),
            _TY,
        )
    elif language == "typescript":
        out, pattern = _run(root, str(NODE_BIN / "tsc"), "--noEmit", "-p", "."), _TSC
    else:
        # the type checker stops at 10 errors a package: -e lifts that; `go test -run ^$`
        # compiles the test files too
        out = _run(root, "go", "build", "-gcflags=-e", "./...") + _run(
            root, "go", "test", "-count=1", "-run", "^$", "-gcflags=-e", "./..."
        )
        out += _run(root, "go", "vet", "./...")
        pattern = _GO
    found = set()
    for raw in out.splitlines():
        match = pattern.match(raw.strip())
        if match is not None:
            path = (
                os.path.relpath(root / match["path"], root) if language == "go" else match["path"]
            )
            found.add((path, int(match["line"]), match["msg"].strip()))
    return sorted(found)


def text_of(root: Path, path: str, line: int, cache: dict[str, list[str]]) -> str:
    if path not in cache:
        try:
            cache[path] = (root / path).read_text(encoding="utf-8").splitlines()
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1].strip() if 0 < line <= len(lines) else ""


def new_error_lines(
    before: list[tuple[str, int, str]],
    before_texts: dict[str, list[str]],
    after: list[tuple[str, int, str]],
    root: Path,
    renamed: tuple[str, str] | None = None,
) -> set[Line]:
    """The lines of the errors `after` has and `before` had not (file, message, line
    text; `renamed` (old, new): the new name read as the old one, in both)."""
    old = Counter((p, m, text_of(root, p, n, before_texts)) for p, n, m in before)
    now: dict[str, list[str]] = {}
    found = set()
    for p, n, m in after:
        text = text_of(root, p, n, now)
        if renamed is not None:
            m, text = m.replace(renamed[1], renamed[0]), text.replace(renamed[1], renamed[0])
        key = (p, m, text)
        if old[key] > 0:
            old[key] -= 1
        else:
            found.add((p, n))
    return found
