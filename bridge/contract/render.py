"""Live results as typed, JSON-ready dicts, in the units people read.

Lines and columns are 1-based (columns in characters); `lsp` keeps the
0-based LSP range (UTF-16 columns) for clients that talk LSP themselves.
Each shape is a TypedDict, so the MCP output schema publishes it.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from pathlib import PurePosixPath
from typing import NotRequired, cast

from typing_extensions import TypedDict

from bridge.contract.schema_types import SymbolKind
from disk.columns import from_utf16
from lsp import CallSite, DocumentSymbolNode, Location, Span, WorkspaceSymbol
from verify import LiveSymbol


class LspRange(TypedDict):
    """An LSP range: 0-based lines, UTF-16 columns, end exclusive."""

    startLine: int
    startCharacter: int
    endLine: int
    endCharacter: int


class LspRanges(TypedDict):
    """A symbol's LSP range and selection range (its name)."""

    range: LspRange
    selectionRange: LspRange


class Lines(TypedDict):
    """1-based, inclusive lines."""

    startLine: int
    endLine: int


class SymbolPlace(TypedDict):
    """Where a symbol is: its node ID and lines; the map's view has no `kind` nor `lsp`."""

    nodeId: str
    path: str
    kind: NotRequired[str]
    startLine: NotRequired[int]
    endLine: NotRequired[int]
    selectionLine: NotRequired[int]
    lsp: NotRequired[LspRanges]


class Place(TypedDict):
    """A place in a file and the text of its line; `external`: outside the root."""

    path: str
    line: int
    column: int
    text: str
    external: NotRequired[bool]


class OutlineEntry(TypedDict):
    """A symbol of a file's live outline, with its children."""

    name: str
    kind: SymbolKind
    nodeId: str | None
    startLine: int
    endLine: int
    detail: NotRequired[str]
    children: NotRequired[list[OutlineEntry]]


class FoundSymbol(Place):
    """A symbol found by name across the workspace: at the line of its name, with its
    node ID and container chain when its file's live outline names it."""

    name: str
    kind: SymbolKind
    container: str | None
    nodeId: str | None


class CallEntry(Place):
    """A caller or callee (where it is defined) and `callLines`, the lines of the calls."""

    name: str
    kind: SymbolKind
    callLines: list[int]


def span_lsp(span: Span) -> LspRange:
    """The LSP range, 0-based, UTF-16 columns."""
    return LspRange(
        startLine=span.start_line,
        startCharacter=span.start_char,
        endLine=span.end_line,
        endCharacter=span.end_char,
    )


def lines_of(span: Span) -> Lines:
    """The 1-based, inclusive lines a span covers."""
    return Lines(startLine=span.start_line + 1, endLine=span.last_line)


def location(loc: Location) -> Place:
    """One place in a file, with the text of its line; a place outside the root (an
    absolute path, symlinks resolved) says `external`, and has no text when it was
    reached through a link inside the root."""
    column = from_utf16(loc.text, loc.span.start_char) if loc.text else loc.span.start_char
    place = Place(path=loc.path, line=loc.line, column=column + 1, text=loc.text.strip())
    if PurePosixPath(loc.path).is_absolute():
        place["external"] = True
    return place


def live_symbol(symbol: LiveSymbol, path: str) -> SymbolPlace:
    """A symbol of the live outline, by node ID and lines."""
    lines = lines_of(symbol.span)
    return SymbolPlace(
        nodeId=symbol.node_id,
        path=path,
        kind=symbol.kind,
        startLine=lines["startLine"],
        endLine=lines["endLine"],
        selectionLine=symbol.selection.start_line + 1,
        lsp=LspRanges(range=span_lsp(symbol.span), selectionRange=span_lsp(symbol.selection)),
    )


def outline(
    nodes: Sequence[DocumentSymbolNode],
    ids: dict[tuple[int, int], str],
    kept: Container[int] | None = None,
) -> list[OutlineEntry]:
    """The hierarchical outline, each entry with its node ID and lines; given `kept`
    (`id()`s of nodes, closed under parents, see `by_importance`), only those."""
    entries = []
    for node in nodes:
        if kept is not None and id(node) not in kept:
            continue
        lines = lines_of(node.span)
        entry = OutlineEntry(
            name=node.name,
            kind=_kind(node.kind),
            nodeId=ids.get((node.selection.start_line, node.selection.start_char)),
            startLine=lines["startLine"],
            endLine=lines["endLine"],
        )
        if node.detail:
            entry["detail"] = node.detail
        children = outline(node.children, ids, kept)
        if children:
            entry["children"] = children
        entries.append(entry)
    return entries


_CONTAINERS = frozenset(
    {"class", "interface", "struct", "enum", "module", "namespace", "package", "object"}
)
_CALLABLES = frozenset({"function", "method", "constructor", "operator"})


def by_importance(nodes: Sequence[DocumentSymbolNode]) -> list[int]:
    """The `id()` of every node of an outline, most important first: what a reader
    of the file needs before its details. Symbols outside any function body come
    before those inside one (locals, parameters, nested functions); then shallower
    before deeper; then containers, callables, the rest; then file order. A node
    always ranks after its parent, so any prefix of the list is a whole outline."""
    ranked: list[tuple[tuple[bool, int, int, int], int]] = []

    def visit(level: Sequence[DocumentSymbolNode], depth: int, local: bool) -> None:
        for node in level:
            kind = 0 if node.kind in _CONTAINERS else 1 if node.kind in _CALLABLES else 2
            ranked.append(((local, depth, kind, len(ranked)), id(node)))
            visit(node.children, depth + 1, local or node.kind in _CALLABLES)

    visit(nodes, 0, False)
    return [node for _, node in sorted(ranked)]


def workspace_symbol(symbol: WorkspaceSymbol, named: LiveSymbol | None = None) -> FoundSymbol:
    """A symbol found by name across the workspace; `named` is the same symbol in its
    file's live outline (its node ID, container chain, name as written and its line),
    when found."""
    if named is None:
        return FoundSymbol(
            **location(symbol.location),
            name=symbol.name,
            kind=_kind(symbol.kind),
            container=symbol.container,
            nodeId=None,
        )
    return FoundSymbol(
        **location(symbol.location),
        name=named.name,
        kind=_kind(symbol.kind),
        container=".".join(named.container) or None,
        nodeId=named.node_id,
    )


def call_site(site: CallSite) -> CallEntry:
    """A caller or callee, and the lines where the calls are."""
    return CallEntry(
        **location(site.location),
        name=site.name,
        kind=_kind(site.kind),
        callLines=sorted({span.start_line + 1 for span in site.call_spans}),
    )


def _kind(name: str) -> SymbolKind:
    """A SymbolKind name as the schema's Literal (lsp.convert makes only those)."""
    return cast(SymbolKind, name)
