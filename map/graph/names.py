"""The names index: which nodes a search pattern can match, without scoring every node.

Each file has one line per symbol holding its qualified name, plus its name
and its ID's tail (the ID after `path#`) when those are not the defaults (the
last part of the qualified name, the qualified name itself). So every text a
search looks at (name, qualified name, node ID) is on its node's line or in
the file's path. A pattern names a literal every match must contain
(`required_literal`): finding it in the case-folded lines of each file (a C
substring search per file) narrows a repository's nodes to the few worth
scoring, and `map.graph.query` scores those exactly as it would score the whole
graph. A pattern without such a literal (`re:^.*$`, `*`) lists every node.

Beside them, each file keeps its symbols' kinds and lines (`details_text`),
so a candidate is scored from the index alone, without the store or the
graph. Both are stored with each file's rows (map.store.mapstore): a restarted server
searches at once, and an edit re-indexes only its files.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from map.graph.mapgraph import FILE_KIND
from map.graph.patterns import REGEX_PREFIX, plain_text
from map.model import FileExtract

_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n"})
_UNESCAPES = {"\\\\": "\\", "\\t": "\t", "\\n": "\n"}
_QUANTIFIERS = frozenset("*?{")
"""Regex characters after which the preceding character may be absent."""
_BREAKS = frozenset(".^$+|")
_CODE_LENGTHS = {"x": 2, "u": 4, "U": 8}
"""Escapes followed by a character's code, and the code's length."""
"""Regex characters that end a run of literal characters."""


Candidate = tuple[str, dict[str, Any]]
"""A node that may match: its ID and what search scores it by (kind, path, name,
qualified name, lines)."""


def names_text(extract: FileExtract) -> str:
    """The lines a file's symbols are searched by (see the module docstring), each
    ended by a newline; tabs, newlines and backslashes in names are escaped."""
    cut = len(extract.path) + 1
    lines: list[str] = []
    for symbol in extract.symbols:
        qual, name, tail = symbol.qualname, symbol.name, symbol.node_id[cut:]
        fields = [qual]
        if tail != qual:
            fields += [name, tail]
        elif name != qual.rpartition(".")[2]:
            fields.append(name)
        lines.append("\t".join(_escape(f) for f in fields) + "\n")
    return "".join(lines)


def details_text(extract: FileExtract) -> str:
    """The kind and 1-based lines of a file's symbols, one line each: `kind first last`."""
    return "".join(f"{s.kind} {s.range.first_line} {s.range.last_line}\n" for s in extract.symbols)


@dataclass(frozen=True, slots=True)
class FileNames:
    """One file's entry: its path, content hash and symbol lines, as stored and folded."""

    path: str
    digest: str
    text: str
    details: str
    folded_path: str
    folded: str
    count: int
    """How many lines (symbols)."""

    @classmethod
    def of(cls, path: str, digest: str, text: str, details: str) -> FileNames:
        """The entry of a file from its `names_text` and `details_text`."""
        folded = text.casefold()
        return cls(path, digest, text, details, path.casefold(), folded, folded.count("\n"))

    def file(self) -> Candidate:
        """The file's own node."""
        return self.path, {"kind": FILE_KIND, "path": self.path}

    def symbols(self, lines: Iterable[int]) -> Iterator[Candidate]:
        """The candidates on `lines` (0-based line numbers of the symbols)."""
        split = self.text.split("\n")  # one more than the lines: the text ends with one
        details = self.details.split("\n")
        prefix = self.path + "#"
        path = self.path
        for line in lines:
            fields = split[line].split("\t")
            qual = _unescape(fields[0])
            tail = _unescape(fields[2]) if len(fields) > 2 else qual
            name = _unescape(fields[1]) if len(fields) > 1 else qual.rpartition(".")[2]
            kind, first, last = details[line].split(" ")
            yield (
                prefix + tail,
                {
                    "kind": kind,
                    "path": path,
                    "name": name,
                    "qualname": qual,
                    "lines": (int(first), int(last)),
                },
            )

    def lines_holding(self, folded_literal: str) -> list[int]:
        """The lines whose folded text holds `folded_literal`, in order."""
        found: list[int] = []
        text = self.folded
        line, start = 0, 0  # the line `start` begins
        at = text.find(folded_literal)
        while at != -1:
            line += text.count("\n", start, at)
            found.append(line)
            start, line = text.index("\n", at) + 1, line + 1  # every line ends with one
            at = text.find(folded_literal, start)
        return found


class NameIndex:
    """Every file's FileNames; answers which nodes a pattern can match."""

    def __init__(self) -> None:
        self._files: dict[str, FileNames] = {}
        self.synced: object = None
        """What the owner last brought the index up to date with (see map.live.reader)."""

    def digest(self, path: str) -> str | None:
        """The content hash `path` was indexed at (None: not indexed)."""
        entry = self._files.get(path)
        return entry.digest if entry is not None else None

    def paths(self) -> frozenset[str]:
        """The indexed files."""
        return frozenset(self._files)

    def put(self, entry: FileNames) -> None:
        """Index a file (replacing what was indexed for it)."""
        self._files[entry.path] = entry

    def drop(self, path: str) -> None:
        """Forget a file."""
        self._files.pop(path, None)

    def share_holding(self, pattern: str) -> float:
        """The share of the files whose symbol lines or path may hold a match (1.0 for
        a pattern without a literal): how little the index narrows a search."""
        plain = plain_text(pattern)
        literal = plain if plain is not None else required_literal(pattern)
        if not literal or not self._files:
            return 1.0
        raw = literal.casefold()
        folded = _escape(raw)
        holding = sum(1 for e in self._files.values() if folded in e.folded or raw in e.folded_path)
        return holding / len(self._files)

    def candidates(self, pattern: str) -> Iterator[Candidate]:
        """Every node `pattern` can match under `map.graph.query.search` (more, never fewer)."""
        plain = plain_text(pattern)
        literal = plain if plain is not None else required_literal(pattern)
        if not literal:
            yield from self._everything()
            return
        raw = literal.casefold()  # as paths hold it; the lines hold it escaped
        folded = _escape(raw)
        spans = [(raw[:at], _escape(raw[at + 1 :])) for at, c in enumerate(raw) if c == "#"]
        for entry in self._files.values():
            in_path = raw in entry.folded_path
            if in_path:
                yield entry.file()
                if plain is None:  # a plain pattern matches an ID only whole
                    yield from entry.symbols(range(entry.count))  # the path is in each
                    continue
            lines = set(entry.lines_holding(folded)) if folded in entry.folded else set()
            for head, tail in spans:  # the literal spans the `#` after the path
                if entry.folded_path.endswith(head):
                    lines.update(entry.lines_holding(tail) if tail else range(entry.count))
            if lines:
                yield from entry.symbols(sorted(lines))

    def _everything(self) -> Iterator[Candidate]:
        for entry in self._files.values():
            yield entry.file()
            yield from entry.symbols(range(entry.count))


def required_literal(pattern: str) -> str:
    """Text every node matching a regex or glob `pattern` holds in its name, qualified
    name or ID: the longest run of plain characters outside groups ('' when there is
    none, or the pattern has alternatives or inline flags). Read as a regex, a glob
    gives a shorter run of its own (`*` and `?` drop the character before them)."""
    expression = pattern.removeprefix(REGEX_PREFIX)
    if "|" in expression or "(?" in expression:
        return ""
    best = ""
    run: list[str] = []
    depth = 0
    at = 0

    def end_run() -> None:
        nonlocal best
        if len(run) > len(best):
            best = "".join(run)
        run.clear()

    while at < len(expression):
        char = expression[at]
        at += 1
        if char in _QUANTIFIERS:
            if run:
                run.pop()  # the character before may be absent
            end_run()
            if char == "{":
                closing = expression.find("}", at)
                at = len(expression) if closing == -1 else closing + 1
        elif char == "\\":
            escaped = expression[at : at + 1]
            at += 1
            if escaped and not escaped.isalnum():
                run.append(escaped)  # an escaped punctuation character stands for itself
            else:
                end_run()  # a class, an anchor, or a character given by its code
                at += _escape_length(expression, at, escaped)
        elif char == "[":
            end_run()
            at = _class_end(expression, at)
        elif char in "()":
            end_run()
            depth += 1 if char == "(" else -1
        elif char in _BREAKS or depth:
            end_run()
        else:
            run.append(char)
    end_run()
    return best


def _escape_length(expression: str, at: int, letter: str) -> int:
    """How many characters after `\\letter` (at `at`) belong to the escape."""
    if letter in _CODE_LENGTHS:
        return _CODE_LENGTHS[letter]
    if letter.isdigit():  # an octal code or a group reference: up to two more digits
        return len(expression[at : at + 2]) - len(expression[at : at + 2].lstrip("0123456789"))
    return 0


def _class_end(expression: str, at: int) -> int:
    """Where the character class opened just before `at` ends (past its `]`)."""
    if expression.startswith("^", at):
        at += 1
    if expression.startswith("]", at):
        at += 1
    while at < len(expression):
        if expression[at] == "\\":
            at += 2
            continue
        if expression[at] == "]":
            return at + 1
        at += 1
    return at


def _escape(text: str) -> str:
    return text.translate(_ESCAPES) if "\\" in text or "\t" in text or "\n" in text else text


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    at = 0
    while at < len(text):
        pair = text[at : at + 2]
        if pair in _UNESCAPES:
            out.append(_UNESCAPES[pair])
            at += 2
        else:
            out.append(text[at])
            at += 1
    return "".join(out)
