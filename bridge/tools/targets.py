"""What a tool is pointed at: a node ID, or a position in a file.

node ID      src/auth/tokens.py            a file
             src/auth/tokens.py#Store.issue    a symbol (`~2` for the second
                                               of that name in the file)
position     src/auth/tokens.py:42         line 42 (1-based), first non-blank
             src/auth/tokens.py:42:9       line 42, column 9 (1-based code points)
             src/auth/tokens.py:42 + name  the column of `name` on line 42
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from bridge.contract.errors import BadInputError
from bridge.contract.inputs import check_path_length, check_text, shown
from disk.columns import to_utf16
from disk.errors import DiskError
from disk.paths import relative_posix, resolve_in_root
from disk.text import read_source
from map import Symbol, outline_file
from verify import LspPosition, NodeTarget

_POSITION = re.compile(r"^(?P<path>[^#]+?):(?P<line>\d+)(?::(?P<col>\d+))?$")
_ORDINAL = re.compile(r"^(?P<qualname>.+?)~(?P<n>\d+)$")
_MAX_DIGITS = 9
"""No line, column or repeat count needs more digits (and Python refuses 4,300)."""


@dataclass(frozen=True, slots=True)
class PositionTarget:
    """A 1-based line, with a 1-based column or a name to find on it."""

    path: str
    line: int
    column: int | None = None
    name: str | None = None


def parse_node_id(text: str) -> NodeTarget:
    """Parse `path` or `path#Qual.Name[~N]`; raises BadInputError on a malformed ID."""
    text = check_text("node ID", text).strip()
    path, hash_mark, rest = text.partition("#")
    example = "expected `path` or `path#Qual.Name` (e.g. src/app.py#Store.get)"
    # `#` starts a private member's name (TypeScript `Q.#bump`), nowhere else
    if not path or "#" in rest.replace(".#", ".").removeprefix("#") or (hash_mark and not rest):
        raise BadInputError(f"malformed node ID {shown(text)}", hint=example)
    check_path_length(path)
    if not hash_mark:
        return NodeTarget(path=path)
    ordinal = 1
    match = _ORDINAL.match(rest)
    if match:
        rest, ordinal = match["qualname"], _number(match["n"], "repeat count")
        if ordinal < 2:
            raise BadInputError(
                f"malformed node ID {shown(text)}: repeats start at ~2", hint=example
            )
    if any(not part for part in rest.split(".")):
        raise BadInputError(f"malformed node ID {shown(text)}: empty name part", hint=example)
    return NodeTarget(path=path, qualname=rest, ordinal=ordinal)


def parse_target(text: str, *, name: str | None = None) -> NodeTarget | PositionTarget:
    """Parse a TARGET: a position (`path:LINE[:COL]`) or else a node ID."""
    if not check_text("target", text).strip():
        raise BadInputError("empty target", hint="pass a node ID or path:LINE[:COL]")
    if name is not None and not check_text("name", name).strip():
        raise BadInputError(
            "empty name", hint="pass the name to find on the line, or leave name out"
        )
    match = _POSITION.match(text.strip())
    if match:
        column = _number(match["col"], "column") if match["col"] else None
        line = _number(match["line"], "line")
        if line < 1 or (column is not None and column < 1):
            raise BadInputError(f"{shown(text)}: lines and columns are 1-based")
        if column is not None and name is not None:
            raise BadInputError(f"{shown(text)}: give a column or a name, not both")
        path = check_path_length(match["path"])
        return PositionTarget(path=path, line=line, column=column, name=name)
    if name is not None:
        raise BadInputError(f"--name needs a path:LINE target, not {shown(text)}")
    return parse_node_id(text)


def _number(digits: str, what: str) -> int:
    """`digits` as an int; a BadInputError when there are too many to mean anything."""
    if len(digits) > _MAX_DIGITS:
        raise BadInputError(
            f"{what} {shown(digits)} is out of range", hint=f"a {what} this big is not in any file"
        )
    return int(digits)


def checked_path(root: Path, path: str) -> str:
    """The repo-relative POSIX form of `path`, which must be a file inside `root`."""
    return relative_posix(root, resolve_in_root(root, path))


def to_lsp_position(root: Path, target: PositionTarget) -> LspPosition:
    """Check a position against the file on disk and convert it for LSP."""
    absolute = resolve_in_root(root, target.path)
    source = read_source(absolute)
    lines = source.splitlines()
    path = relative_posix(root, absolute)
    if target.line > len(lines):
        raise BadInputError(f"{path}:{target.line}: past the end of the file ({len(lines)} lines)")
    text = lines[target.line - 1]
    if target.column is None and _above_a_definition(text):
        definition = definition_below(path, source, target.line, target.name)
        if definition is not None:
            line, column = definition
            return LspPosition(path, line - 1, to_utf16(lines[line - 1], column), lines[line - 1])
    if target.name is not None:
        found = re.search(rf"(?<![\w$]){re.escape(target.name.strip())}(?![\w$])", text)
        if found is None:
            raise BadInputError(
                f"{path}:{target.line}: {target.name!r} does not appear on that line",
                hint=f"the line reads: {text.strip()[:120]!r}",
            )
        column = found.start()
    elif target.column is not None:
        if target.column > len(text) + 1:
            raise BadInputError(
                f"{path}:{target.line}:{target.column}: past the end of the line "
                f"({len(text)} characters)"
            )
        column = target.column - 1
    else:
        column = len(text) - len(text.lstrip())
    return LspPosition(path, target.line - 1, to_utf16(text, column), text)


_ABOVE_A_DEFINITION = ("@", "#[", "#", "//", "/*", "*", "--")
"""How a decorator, an attribute or a comment line starts (Python, Java and TypeScript
decorators and annotations, Rust attributes, doc comments)."""


_DIRECTIVE = re.compile(
    r"#\s*(?:include|import|define|undef|if|ifdef|ifndef|elif|else|endif|pragma)\b"
)
"""A C preprocessor line: it starts with `#` but belongs to no definition."""


def _above_a_definition(text: str) -> bool:
    """Whether a line may be a decorator, an attribute or a doc comment of a definition."""
    stripped = text.lstrip()
    return stripped.startswith(_ABOVE_A_DEFINITION) and not _DIRECTIVE.match(stripped)


def definition_below(path: str, source: str, line: int, name: str | None) -> tuple[int, int] | None:
    """The name of the definition (1-based line, 0-based character) whose decorator,
    attribute or doc comment is at 1-based `line`, named `name` when given; None when
    the line belongs to none (or the file's language has no map extraction)."""
    try:
        symbols = outline_file(path, source.encode()).symbols
    except (ValueError, DiskError):
        return None
    lines = source.splitlines()
    owners = [
        symbol
        for symbol in symbols
        if (name is None or symbol.name == name.strip()) and _owns(symbol, line, lines)
    ]
    if not owners:
        return None
    found = max(owners, key=lambda symbol: symbol.range.first_line)  # the innermost
    return found.selection.first_line, _character(lines[found.selection.start_line], found)


def _owns(symbol: Symbol, line: int, lines: list[str]) -> bool:
    """Whether 1-based `line` is one of the symbol's decorator or attribute lines (its
    range starts there, its name comes later), or in the comment block right above it."""
    first, named = symbol.range.first_line, symbol.selection.first_line
    if first <= line < named:
        return True
    return line < first and all(_above_a_definition(text) for text in lines[line - 1 : first - 1])


def _character(text: str, symbol: Symbol) -> int:
    """The character column of the symbol's name on its line (selections count bytes)."""
    return len(text.encode()[: symbol.selection.start_char].decode(errors="ignore"))
