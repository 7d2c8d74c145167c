"""Parse reference strings (`path`, `path#Qual.Name`, `path:START-END`).

Paths are confined to the workspace root and stored repo-relative in POSIX
form. Parsing never touches the content: whether the reference resolves now
is for `anchor` to decide.
"""

from __future__ import annotations

import re
from pathlib import Path

from disk.errors import OutsideRootError
from disk.paths import relative_posix, resolve_in_root
from memory.errors import MemoryInputError
from memory.model import RefSpec

_RANGE = re.compile(r"^(?P<path>.+):(?P<start>\d+)(?:-(?P<end>\d+))?$")
_QUALNAME = re.compile(r"^#?(?:[^\s#]|\.#)+$")  # `#` only starts a name (`Q.#bump`)

MAX_LINE_DIGITS = 9  # no source file has a billion lines
SYNTAX_HINT = "write a reference as `path`, `path#Qual.Name` or `path:START-END` (1-based lines)"


def parse_ref(root: Path, text: str) -> RefSpec:
    """Parse one reference; raises MemoryInputError when malformed or outside the root."""
    return RefParser(root).parse(text)


class RefParser:
    """Parses references against one root, confining each distinct path once."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._paths: dict[str, str] = {}

    def parse(self, text: str) -> RefSpec:
        """Parse one reference; raises MemoryInputError when malformed or outside the root."""
        raw = text.strip()
        if not raw:
            raise MemoryInputError("empty reference", hint=SYNTAX_HINT)
        if "#" in raw:
            path_part, _, symbol = raw.partition("#")
            if not symbol or not _QUALNAME.match(symbol) or ".." in symbol:
                raise MemoryInputError(f"malformed symbol reference {text!r}", hint=SYNTAX_HINT)
            return RefSpec("symbol", self._confine(path_part, text), symbol=symbol)
        match = _RANGE.match(raw)
        if match:
            if max(len(match["start"]), len(match["end"] or "")) > MAX_LINE_DIGITS:
                where = match["path"][:200]
                raise MemoryInputError(f"line number out of range in a ref to {where!r}")
            start = int(match["start"])
            end = int(match["end"]) if match["end"] is not None else start
            if start < 1 or end < start:
                raise MemoryInputError(
                    f"bad line range in {text!r}: lines are 1-based and START <= END",
                    hint=SYNTAX_HINT,
                )
            path = self._confine(match["path"], text)
            return RefSpec("line_range", path, start_line=start, end_line=end)
        return RefSpec("file", self._confine(raw, text))

    def _confine(self, path: str, ref: str) -> str:
        if path not in self._paths:
            self._paths[path] = _confine(self.root, path, ref)
        return self._paths[path]


def _confine(root: Path, path: str, ref: str) -> str:
    if not path:
        raise MemoryInputError(f"reference {ref!r} names no file", hint=SYNTAX_HINT)
    try:
        resolved = resolve_in_root(root, path, must_exist=False)
    except OutsideRootError as exc:
        raise MemoryInputError(str(exc), hint="references must name files inside --root") from exc
    if resolved == root:
        raise MemoryInputError(f"reference {ref!r} names the root itself, not a file")
    return relative_posix(root, resolved)
