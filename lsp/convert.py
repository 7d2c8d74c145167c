"""lsprotocol answers -> the plain results of `lsp.model`.

Paths become repo-relative POSIX inside the root and absolute outside it,
always after resolving symlinks: a file reached through a directory inside
the root that links elsewhere is outside, and never shown under an in-root
path. Lines get a 1-based number and the text of that line as it is on disk
now, except in a file outside the root that the server reached through such
a link (a library location the server names outside the root keeps its
text). One `Converter` serves one query: it reads each file at most once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types

from disk.errors import DiskError
from disk.paths import relative_posix
from disk.text import read_source
from lsp.model import CallSite, DocumentSymbolNode, HoverInfo, Location, Span, WorkspaceSymbol
from lsp.uris import path_of

LINE_TEXT_CAP = 200

LocationResult = types.Location | Sequence[types.Location | types.LocationLink] | None
WorkspaceSymbolResult = Sequence[types.SymbolInformation] | Sequence[types.WorkspaceSymbol] | None
DocumentSymbolResult = Sequence[types.SymbolInformation] | Sequence[types.DocumentSymbol] | None


def span_of(range_: types.Range) -> Span:
    """The model span of an LSP range."""
    return Span(
        start_line=range_.start.line,
        start_char=range_.start.character,
        end_line=range_.end.line,
        end_char=range_.end.character,
    )


def kind_name(kind: types.SymbolKind) -> str:
    """The SymbolKind's name in lower case: "class", "method", ..."""
    return types.SymbolKind(kind).name.lower()


def _contains(outer: Span, inner: Span) -> bool:
    return (outer.start_line, outer.start_char) <= (inner.start_line, inner.start_char) and (
        inner.end_line,
        inner.end_char,
    ) <= (outer.end_line, outer.end_char)


@dataclass(frozen=True, slots=True)
class Place:
    """Where a server's path really is."""

    shown: str
    """Repo-relative POSIX inside the root, the absolute real path outside it."""
    real: Path
    """The path with every symlink resolved."""
    readable: bool
    """Whether its text may be shown: inside the root, or outside it where the server
    named it (a library), but never outside it through a link inside the root."""


class Converter:
    """Turns one query's answer into model results, reading line texts from disk."""

    def __init__(self, root: Path) -> None:
        self._root = root.resolve()
        self._lines: dict[Path, list[str]] = {}
        self._places: dict[Path, Place] = {}

    def place(self, path: Path) -> Place:
        """Where `path` (absolute, as a server named it) really is."""
        found = self._places.get(path)
        if found is None:
            try:
                real = path.resolve()
            except (OSError, RuntimeError):  # RuntimeError: a symlink loop
                real = path
            if real.is_relative_to(self._root):
                found = Place(relative_posix(self._root, real), real, readable=True)
            else:
                found = Place(str(real), real, readable=not path.is_relative_to(self._root))
            self._places[path] = found
        return found

    def shown_path(self, path: Path) -> str:
        """Repo-relative POSIX inside the root, the absolute real path outside it."""
        return self.place(path).shown

    def line_text(self, path: Path, line: int) -> str:
        """The text of 0-based `line` of `path` as on disk now ("" when unreadable)."""
        lines = self._lines.get(path)
        if lines is None:
            try:
                lines = read_source(path).splitlines()
            except (DiskError, OSError):
                lines = []
            self._lines[path] = lines
        text = lines[line] if 0 <= line < len(lines) else ""
        return text[:LINE_TEXT_CAP]

    def location(self, uri: str, range_: types.Range) -> Location | None:
        """A model location, or None when the URI is not a file."""
        path = path_of(uri)
        if path is None:
            return None
        place = self.place(path)
        span = span_of(range_)
        return Location(
            path=place.shown,
            span=span,
            line=span.start_line + 1,
            text=self.line_text(place.real, span.start_line) if place.readable else "",
        )

    def locations(self, result: LocationResult) -> list[Location]:
        """Definitions, references, ...: sorted by place, duplicates dropped."""
        if result is None:
            return []
        items: list[types.Location | types.LocationLink] = (
            [result] if isinstance(result, types.Location) else list(result)
        )
        found: set[Location] = set()
        for item in items:
            if isinstance(item, types.LocationLink):
                loc = self.location(item.target_uri, item.target_selection_range)
            else:
                loc = self.location(item.uri, item.range)
            if loc is not None:
                found.add(loc)
        return sorted(found, key=lambda loc: (loc.path, loc.span.start_line, loc.span.start_char))

    @staticmethod
    def hover(result: types.Hover | None) -> HoverInfo | None:
        """Hover contents as one markdown/plain string, or None when there is nothing."""
        if result is None:
            return None
        contents = result.contents
        parts: Sequence[types.MarkupContent | str | types.MarkedStringWithLanguage] = (
            contents
            if isinstance(contents, Sequence) and not isinstance(contents, str)
            else [contents]
        )
        texts: list[str] = []
        for part in parts:
            if isinstance(part, str):
                texts.append(part)
            elif isinstance(part, types.MarkedStringWithLanguage):
                texts.append(f"```{part.language}\n{part.value}\n```")
            else:
                texts.append(part.value)
        text = "\n\n".join(t for t in texts if t.strip())
        if not text:
            return None
        span = None if result.range is None else span_of(result.range)
        return HoverInfo(contents=text, span=span)

    def document_symbols(self, result: DocumentSymbolResult) -> list[DocumentSymbolNode]:
        """The outline as a tree; a flat SymbolInformation list is nested by range."""
        if not result:
            return []
        if all(isinstance(item, types.DocumentSymbol) for item in result):
            return [self._tree(item) for item in result if isinstance(item, types.DocumentSymbol)]
        flat = [
            DocumentSymbolNode(
                name=item.name,
                kind=kind_name(item.kind),
                detail=item.container_name,
                span=span_of(item.location.range),
                selection=span_of(item.location.range),
            )
            for item in result
            if isinstance(item, types.SymbolInformation)
        ]
        return nest_by_range(flat)

    def _tree(self, symbol: types.DocumentSymbol) -> DocumentSymbolNode:
        return DocumentSymbolNode(
            name=symbol.name,
            kind=kind_name(symbol.kind),
            detail=symbol.detail or None,
            span=span_of(symbol.range),
            selection=span_of(symbol.selection_range),
            children=tuple(self._tree(child) for child in symbol.children or ()),
        )

    def workspace_symbols(self, result: WorkspaceSymbolResult) -> list[WorkspaceSymbol]:
        """Symbols found by name; a location without a range points at the file's start."""
        found: list[WorkspaceSymbol] = []
        for item in result or ():
            where = item.location
            range_ = (
                where.range
                if isinstance(where, types.Location)
                else types.Range(
                    start=types.Position(line=0, character=0),
                    end=types.Position(line=0, character=0),
                )
            )
            loc = self.location(where.uri, range_)
            if loc is not None:
                found.append(
                    WorkspaceSymbol(
                        name=item.name,
                        kind=kind_name(item.kind),
                        container=item.container_name or None,
                        location=loc,
                    )
                )
        return found

    def call_sites(
        self, calls: Sequence[tuple[types.CallHierarchyItem, Sequence[types.Range]]]
    ) -> list[CallSite]:
        """Callers or callees with where the calls happen: one site per symbol, each
        call span once, in file order (servers repeat both)."""
        spans: dict[tuple[str, str, str | None, Location], set[Span]] = {}
        for item, ranges in calls:
            loc = self.location(item.uri, item.selection_range)
            if loc is not None:
                key = (item.name, kind_name(item.kind), item.detail or None, loc)
                spans.setdefault(key, set()).update(span_of(r) for r in ranges)
        return [
            CallSite(
                name=name,
                kind=kind,
                detail=detail,
                location=loc,
                call_spans=tuple(sorted(found, key=lambda s: (s.start_line, s.start_char))),
            )
            for (name, kind, detail, loc), found in spans.items()
        ]


def nest_by_range(flat: Sequence[DocumentSymbolNode]) -> list[DocumentSymbolNode]:
    """Nest flat outline nodes into a tree: a node is a child of the smallest node
    whose range contains it."""
    ordered = sorted(
        flat,
        key=lambda n: (n.span.start_line, n.span.start_char, -n.span.end_line, -n.span.end_char),
    )
    children: dict[int, list[int]] = {index: [] for index in range(len(ordered))}
    roots: list[int] = []
    stack: list[int] = []
    for index, node in enumerate(ordered):
        while stack and not _contains(ordered[stack[-1]].span, node.span):
            stack.pop()
        (children[stack[-1]] if stack else roots).append(index)
        stack.append(index)

    def build(index: int) -> DocumentSymbolNode:
        node = ordered[index]
        return DocumentSymbolNode(
            name=node.name,
            kind=node.kind,
            detail=node.detail,
            span=node.span,
            selection=node.selection,
            children=tuple(build(child) for child in children[index]),
        )

    return [build(index) for index in roots]
