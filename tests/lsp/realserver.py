"""For the real-server tests: patient settings, outside edits to a fixture copy,
and result shapes to compare."""

from __future__ import annotations

import os
from pathlib import Path

from lsp.model import Location
from lsp.settings import LiveSettings

# The machine running the tests may be busy (tsserver took 8.5 s to load the
# two-file fixture at load average 9 on 2 cores): a cold start that outlasts
# the default deadline would pass a partial answer on and fail the test.
PATIENT = LiveSettings(request_timeout=30.0, cold_start_deadline=60.0)


def places(found: list[Location]) -> set[tuple[str, int]]:
    """(path, 1-based line) of each location."""
    return {(loc.path, loc.line) for loc in found}


def write(root: Path, path: str, text: str) -> None:
    """Write a file the way another tool would (no editor, no notification)."""
    target = root / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")


def insert_lines_at_top(root: Path, path: str, count: int, comment: str) -> None:
    """Put `count` comment lines (`comment` is the language's line-comment marker) first."""
    lines = "".join(f"{comment} inserted line {n}\n" for n in range(count))
    write(root, path, lines + (root / path).read_text(encoding="utf-8"))


def rewrite_keeping_mtime(root: Path, path: str, text: str) -> None:
    """Replace a file's text with the same number of bytes and put its mtime back,
    as `cp -p` or `rsync -t` leave it: only ctime and content tell the change."""
    target = root / path
    before = target.stat()
    target.write_text(text, encoding="utf-8")
    os.utime(target, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = target.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


def two_functions(first: str, second: str) -> tuple[str, str]:
    """A text holding `first` then `second`, and the same bytes in the other order."""
    return f"{first}\n{second}", f"{second}\n{first}"
