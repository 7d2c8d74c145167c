"""The languages' own checkers, run from the command line, and the errors a change adds.

ty check (concise output); tsc --noEmit from .tools/node; Go: go build and
go test -run ^$ with -gcflags=-e (the type checker stops at 10 errors a
package without it; `go test` compiles the test files too), and go vet; C:
`cc -fsyntax-only` on every entry of the compilation database clangd is given
(the tree's own, else the one codeanchor generates under .codeanchor/clangd/),
with what clang makes errors by default in C99 and later made errors for gcc
too (an implicit declaration, incompatible pointers, int conversions).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
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
_CC = re.compile(r"^(?P<path>[^:\s]+):(?P<line>\d+):\d+: (?:fatal )?error: (?P<msg>.*)$")
_C_ERRORS = (
    "-Werror=implicit-function-declaration",
    "-Werror=incompatible-pointer-types",
    "-Werror=int-conversion",
)
_DATABASES = ("compile_commands.json", "build/compile_commands.json")
GENERATED_DATABASE = ".codeanchor/clangd/compile_commands.json"
_GO = re.compile(r"^(?:\.\/)?(?P<path>[^:\s]+\.go):(?P<line>\d+):\d+: (?P<msg>.*)$")


def checker_errors(language: str, root: Path) -> list[tuple[str, int, str]]:
    """(path, line, message) of every error the language's own checker reports."""
    if language == "python":
        out, pattern = (
            _run(root, str(ROOT / ".venv/bin/ty"), "check", "--output-format", "concise"),
            _TY,
        )
    elif language == "c":
        return _c_errors(root)
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


def _c_errors(root: Path) -> list[tuple[str, int, str]]:
    """`cc -fsyntax-only` on each entry of the tree's compilation database."""
    database = next(
        (root / p for p in (*_DATABASES, GENERATED_DATABASE) if (root / p).is_file()), None
    )
    if database is None:
        raise SystemExit(f"{root}: no compilation database (ask a C file's diagnostics first)")
    entries = json.loads(database.read_text(encoding="utf-8"))

    def one(entry: dict[str, object]) -> str:
        raw = entry.get("arguments") or shlex.split(str(entry["command"]))
        assert isinstance(raw, list)
        args, skip = [], False
        for arg in raw[1:]:
            if skip or arg == "-c" or arg.startswith("-ferror-limit"):  # clang's, not gcc's
                skip = False
                continue
            if arg == "-o":
                skip = True
                continue
            args.append(str(arg))
        return _run(Path(str(entry["directory"])), "cc", "-fsyntax-only", *_C_ERRORS, *args)

    with ThreadPoolExecutor(4) as pool:
        out = "\n".join(pool.map(one, entries))
    found = set()
    for raw in out.splitlines():
        match = _CC.match(raw.strip())
        if match is not None:
            path = os.path.relpath(root / match["path"], root)
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
