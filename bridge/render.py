"""Live results as plain JSON-ready dicts, in the units people read.

Lines and columns are 1-based (columns in characters); `lsp` keeps the
0-based LSP range (UTF-16 columns) for clients that talk LSP themselves.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from pathlib import PurePosixPath
from typing import Any

from bridge.symbols import LiveSymbol
from disk.columns import from_utf16
from lsp.model import CallSite, DocumentSymbolNode, Location, Span, WorkspaceSymbol


def span_lsp(span: Span) -> dict[str, int]:
    """The LSP range, 0-based, UTF-16 columns."""
    return {
        "startLine": span.start_line,
        "startCharacter": span.start_char,
        "endLine": span.end_line,
        "endCharacter": span.end_char,
    }


def lines_of(span: Span) -> dict[str, int]:
    """The 1-based, inclusive lines a span covers."""
    last = (
        span.end_line
        if span.end_char == 0 and span.end_line > span.start_line
        else span.end_line + 1
    )
    return {"startLine": span.start_line + 1, "endLine": last}


def location(loc: Location) -> dict[str, Any]:
    """One place in a file, with the text of its line; a place outside the root (an
    absolute path, symlinks resolved) says `external`, and has no text when it was
    reached through a link inside the root."""
    column = from_utf16(loc.text, loc.span.start_char) if loc.text else loc.span.start_char
    return {
        "path": loc.path,
        "line": loc.line,
        "column": column + 1,
        "text": loc.text.strip(),
        **({"external": True} if PurePosixPath(loc.path).is_absolute() else {}),
    }


def live_symbol(symbol: LiveSymbol, path: str) -> dict[str, Any]:
    """A symbol of the live outline, by node ID and lines."""
    return {
        "nodeId": symbol.node_id,
        "path": path,
        "kind": symbol.kind,
        **lines_of(symbol.span),
        "selectionLine": symbol.selection.start_line + 1,
        "lsp": {"range": span_lsp(symbol.span), "selectionRange": span_lsp(symbol.selection)},
    }


def outline(
    nodes: Sequence[DocumentSymbolNode],
    ids: dict[tuple[int, int], str],
    kept: Container[int] | None = None,
) -> list[dict[str, Any]]:
    """The hierarchical outline, each entry with its node ID and lines; given `kept`
    (`id()`s of nodes, closed under parents, see `by_importance`), only those."""
    entries = []
    for node in nodes:
        if kept is not None and id(node) not in kept:
            continue
        children = outline(node.children, ids, kept)
        entries.append(
            {
                "name": node.name,
                "kind": node.kind,
                "nodeId": ids.get((node.selection.start_line, node.selection.start_char)),
                **lines_of(node.span),
                **({"detail": node.detail} if node.detail else {}),
                **({"children": children} if children else {}),
            }
        )
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


def workspace_symbol(symbol: WorkspaceSymbol) -> dict[str, Any]:
    """A symbol found by name across the workspace."""
    return {
        "name": symbol.name,
        "kind": symbol.kind,
        "container": symbol.container,
        **location(symbol.location),
    }


def call_site(site: CallSite) -> dict[str, Any]:
    """A caller or callee, and the lines where the calls are."""
    return {
        "name": site.name,
        "kind": site.kind,
        **location(site.location),
        "callLines": sorted({span.start_line + 1 for span in site.call_spans}),
    }
