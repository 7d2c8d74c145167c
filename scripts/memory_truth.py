"""Ground truth for `bench_memory_accuracy.py`, from Python's `ast` and `tokenize` only.

Nothing here uses the product. Two versions of a repository are read as
`Snapshot`s; a reference anchored in the older one gets the status a careful
person would give it in the newer one (docs/contracts.md's statuses):

symbol `path#Q` (Q its qualified name; "new" = a (path, qualified name) that
did not exist in the older version):
    file untouched                              valid
    Q still in its file, or in the file's successor when it is gone (the
    new file with the most similar lines, as for whole files); the first
    of several (a second is `Q~2` by the node-ID contract)
                                                compare
    else Q new in exactly one place             compare (moved)
    else its name new under one other container with token similarity >= 0.6
                                                compare (moved to another class)
    else one new symbol whose tokens equal its own but for the name
                                                renamed
    two or more of any of these, unless exactly one has the very same
    tokens (then that one)                      ambiguous
    none                                        deleted
  compare: same tokens (whitespace and comments ignored) at the same path and
  lines -> valid; same tokens elsewhere -> relocated; else modified.

line range over a symbol's lines: found as its symbol, then judged on the
text of those lines: the same lines (stripped) inside the symbol's new span,
or the same tokens -> valid at the same place, else relocated; otherwise (a
renamed or edited symbol) -> modified at the symbol's new lines.

whole file: untouched, same bytes or same tokens -> valid; changed ->
modified; gone: one new file with the same tokens -> relocated (several:
ambiguous); else the new file with the most similar lines (difflib ratio
>= 0.5) -> modified; else deleted.
"""

from __future__ import annotations

import ast
import difflib
import io
import re
import tokenize
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

SAME_NAME_MIN = 0.6
FILE_SIMILAR_MIN = 0.5
_SKIP = {
    tokenize.COMMENT,
    tokenize.NL,
    tokenize.NEWLINE,
    tokenize.INDENT,
    tokenize.DEDENT,
    tokenize.ENCODING,
    tokenize.ENDMARKER,
}
_SPACE = re.compile(r"\s+")


@dataclass(frozen=True)
class Expected:
    """The true status, and where the reference is now when it is somewhere."""

    status: str
    path: str | None = None
    symbol: str | None = None
    start: int | None = None
    end: int | None = None

    def __str__(self) -> str:
        where = f" {self.path}#{self.symbol} {self.start}-{self.end}" if self.path else ""
        return self.status + where


@dataclass(frozen=True)
class Sym:
    """A def or class: where it is, its tokens, and its tokens with its own name masked."""

    path: str
    qualname: str
    name: str
    start: int
    end: int
    tokens: tuple[str, ...]
    blind: tuple[str, ...]
    anchorable: bool


@dataclass
class FileInfo:
    """One file of a snapshot."""

    text: str
    lines: list[str]
    tokens: tuple[str, ...]
    symbols: dict[str, list[Sym]] = field(default_factory=dict)


class Snapshot:
    """The .py files of one version of a repository, parsed."""

    def __init__(self, files: dict[str, FileInfo]) -> None:
        self.files = files
        self.successors: dict[str, str | None] = {}
        """Gone files of an older snapshot -> their successor here (see `successor`)."""

    @classmethod
    def of(cls, root: Path, paths: Iterable[str]) -> Snapshot:
        """Read and parse `paths` (those that exist) under `root`."""
        files = {}
        for path in paths:
            target = root / path
            if target.is_file():
                files[path] = _parse(path, target.read_bytes().decode("utf-8", "replace"))
        return cls(files)

    def anchorable(self, path: str) -> dict[str, tuple[int, int]]:
        """Module- and class-level defs whose qualified name is unique in the file."""
        info = self.files.get(path)
        if info is None:
            return {}
        return {
            q: (found[0].start, found[0].end)
            for q, found in info.symbols.items()
            if len(found) == 1 and found[0].anchorable
        }

    def symbols(self, path: str) -> list[Sym]:
        info = self.files.get(path)
        return [s for found in info.symbols.values() for s in found] if info else []

    def has_symbol(self, path: str, qualname: str) -> bool:
        info = self.files.get(path)
        return info is not None and qualname in info.symbols


def expect_symbol(
    path: str, qualname: str, before: Snapshot, after: Snapshot, old: set[str], new: set[str]
) -> Expected:
    """The true status of `path#qualname` (anchored in `before`) in `after`."""
    mine = before.files[path].symbols[qualname][0]
    if path not in old:
        return Expected("valid", path, qualname, mine.start, mine.end)
    lineage = path if path in after.files else successor(path, before, after, new)
    here = after.files[lineage].symbols.get(qualname, []) if lineage else []
    if here:  # a second one of the name is `~2` (node IDs): the first keeps the ID
        return _compare(mine, here[0])
    fresh = [
        s for p in sorted(new) for s in after.symbols(p) if not before.has_symbol(p, s.qualname)
    ]
    same_qualname = [s for s in fresh if s.qualname == qualname]
    same_name = [
        s for s in fresh if s.name == mine.name and _ratio(mine.tokens, s.tokens) >= SAME_NAME_MIN
    ]
    for found in (same_qualname, same_name):
        verbatim = [s for s in found if s.tokens == mine.tokens]
        if len(found) == 1 or len(verbatim) == 1:
            return _compare(mine, verbatim[0] if len(verbatim) == 1 else found[0])
        if len(found) > 1:
            return Expected("ambiguous")
    renamed = [s for s in fresh if s.name != mine.name and s.blind == mine.blind]
    if len(renamed) == 1:
        s = renamed[0]
        return Expected("renamed", s.path, s.qualname, s.start, s.end)
    return Expected("ambiguous") if renamed else Expected("deleted")


def expect_range(
    path: str, start: int, end: int, before: Snapshot, after: Snapshot, old: set[str], new: set[str]
) -> Expected:
    """The true status of lines `start`-`end` (a symbol's lines in `before`) in `after`."""
    if path not in old:
        return Expected("valid", path, None, start, end)
    mine = next(s for s in before.symbols(path) if (s.start, s.end) == (start, end))
    symbol = expect_symbol(path, mine.qualname, before, after, old, new)
    if symbol.path is None or symbol.start is None or symbol.end is None:
        return Expected(symbol.status)
    then = [line.strip() for line in before.files[path].lines[start - 1 : end]]
    lines = after.files[symbol.path].lines
    for first in range(symbol.start, symbol.end - len(then) + 2):
        if [line.strip() for line in lines[first - 1 : first - 1 + len(then)]] == then:
            last = first + len(then) - 1
            same_place = (symbol.path, first) == (path, start)
            return Expected("valid" if same_place else "relocated", symbol.path, None, first, last)
    if symbol.status in ("valid", "relocated"):
        same_place = (symbol.path, symbol.start) == (path, start)
        status = "valid" if same_place else "relocated"
        return Expected(status, symbol.path, None, symbol.start, symbol.end)
    return Expected("modified", symbol.path, None, symbol.start, symbol.end)


def expect_file(
    path: str, before: Snapshot, after: Snapshot, old: set[str], new: set[str]
) -> Expected:
    """The true status of the whole file `path` in `after`."""
    if path not in old:
        return Expected("valid", path)
    mine = before.files[path]
    if path in after.files:
        same = after.files[path].tokens == mine.tokens
        return Expected("valid" if same else "modified", path)
    fresh = [p for p in sorted(new) if p not in before.files and p in after.files]
    copies = [p for p in fresh if after.files[p].tokens == mine.tokens]
    if len(copies) == 1:
        return Expected("relocated", copies[0])
    if copies:
        return Expected("ambiguous")
    follower = successor(path, before, after, new)
    return Expected("modified", follower) if follower else Expected("deleted")


def successor(path: str, before: Snapshot, after: Snapshot, new: set[str]) -> str | None:
    """The new file (absent before) whose lines are most like the gone file `path`'s
    (difflib ratio >= FILE_SIMILAR_MIN), or None: the file's lineage by content."""
    if path not in after.successors:
        mine = before.files[path].lines
        fresh = [p for p in sorted(new) if p not in before.files and p in after.files]
        base = path.rpartition("/")[2]
        namesakes = [p for p in fresh if p.rpartition("/")[2] == base]
        after.successors[path] = _most_alike(mine, namesakes, after) or _most_alike(
            mine, [p for p in fresh if p not in namesakes], after
        )
    return after.successors[path]


def _most_alike(lines: list[str], paths: list[str], after: Snapshot) -> str | None:
    best, found = FILE_SIMILAR_MIN, None
    for path in paths:
        matcher = difflib.SequenceMatcher(None, lines, after.files[path].lines)
        if matcher.real_quick_ratio() >= best and matcher.quick_ratio() >= best:
            score = matcher.ratio()
            if score >= best:
                best, found = score, path
    return found


def _compare(mine: Sym, now: Sym) -> Expected:
    if now.tokens != mine.tokens:
        return Expected("modified", now.path, now.qualname, now.start, now.end)
    same = (now.path, now.qualname, now.start, now.end) == (
        mine.path,
        mine.qualname,
        mine.start,
        mine.end,
    )
    return Expected("valid" if same else "relocated", now.path, now.qualname, now.start, now.end)


def _ratio(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _parse(path: str, text: str) -> FileInfo:
    lines = text.splitlines(keepends=True)
    located = _tokens(text)
    info = FileInfo(text, lines, tuple(t for _, t in located))
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return info
    for node, qualname, anchorable in _defs(tree.body, (), False):
        start = min([d.lineno for d in node.decorator_list] + [node.lineno])
        end = node.end_lineno or node.lineno
        own = tuple(t for line, t in located if start <= line <= end)
        blind = tuple("<name>" if t == node.name else t for t in own)
        sym = Sym(path, qualname, node.name, start, end, own, blind, anchorable)
        info.symbols.setdefault(qualname, []).append(sym)
    return info


Def = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


def _defs(
    body: list[ast.stmt], container: tuple[str, ...], in_function: bool
) -> Iterable[tuple[Def, str, bool]]:
    for node in body:
        if isinstance(node, Def):
            chain = (*container, node.name)
            yield node, ".".join(chain), not in_function
            inner = in_function or not isinstance(node, ast.ClassDef)
            yield from _defs(node.body, chain, inner)
            continue
        for name in ("body", "orelse", "finalbody"):
            yield from _defs(getattr(node, name, []) or [], container, in_function)
        for handler in getattr(node, "handlers", []) or []:
            yield from _defs(handler.body, container, in_function)


def _tokens(text: str) -> list[tuple[int, str]]:
    """(line, token) pairs without comments and layout; whitespace inside strings collapsed."""
    found = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type in _SKIP:
                continue
            value = token.string
            if token.type == tokenize.STRING or token.type == getattr(
                tokenize, "FSTRING_MIDDLE", -1
            ):
                value = _SPACE.sub(" ", value)
            found.append((token.start[0], value))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        pass
    return found
