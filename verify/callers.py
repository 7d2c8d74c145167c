"""Callers the call hierarchy missed, confirmed from the calling side.

tsserver answers incoming calls from the queried file's own project only: a
test outside every tsconfig `include` that calls the function is never among
its callers, even once opened, yet asked for ITS outgoing calls it names the
function. So for each unconfirmed call site, the function around it (live
outline, kept per file content) is asked for its outgoing calls; when one lands on the queried
symbol's definition, that function is a caller, with those call lines. At
most `MAX_FUNCTIONS` functions are asked per question; a server error leaves
the site unconfirmed.

What is still unconfirmed then is checked against the symbol's live
references (`callers_from_references`): tsserver prepares no call hierarchy
for a function held by a constant whose initializer is not the function
itself (`const create = ((...) => ...) as Create`), and its callers' outgoing
calls land on the type's call signature, not on the constant; its references
still name every call. A call-like site the references confirm is a call
from the function around it (or its holder, or the file for a top-level call).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from pathlib import PurePosixPath

from disk.errors import DiskError
from lsp import CallSite, DocumentSymbolNode, Location, LspError, Span
from verify.outlines import kept_outline
from verify.sites import Site
from verify.targets import LspPosition
from verify.workspace import Workspace

MAX_FUNCTIONS = 16
_FUNCTIONS = frozenset({"function", "method", "constructor"})
# An arrow function held by a variable or constant is a caller too (tsserver says so).
_HOLDERS = frozenset({"variable", "constant"})


def by_target(sites: Sequence[CallSite]) -> list[CallSite]:
    """One site per called (or calling) symbol with all its call lines, ranked for
    the budget: symbols inside the workspace before outside ones (a library's
    builtins go first when an answer is cut), then by their first call.

    Servers repeat a symbol once per call, or once per differing `detail`; its
    place (path, line) and name say it is the same symbol.
    """
    merged: dict[tuple[str, int, str, str], CallSite] = {}
    for site in sites:
        key = (site.location.path, site.location.line, site.name, site.kind)
        seen = merged.get(key)
        if seen is not None:
            spans = sorted(
                set(seen.call_spans) | set(site.call_spans),
                key=lambda s: (s.start_line, s.start_char),
            )
            site = CallSite(seen.name, seen.kind, seen.detail, seen.location, tuple(spans))
        merged[key] = site
    return sorted(
        merged.values(),
        key=lambda s: (
            PurePosixPath(s.location.path).is_absolute(),
            min((span.start_line for span in s.call_spans), default=0),
            s.location.path,
            s.location.line,
        ),
    )


async def callers_from_callees(
    workspace: Workspace, position: LspPosition, sites: Sequence[Site]
) -> list[CallSite]:
    """The functions around `sites` whose outgoing calls reach the symbol at `position`.

    The outlines of a batch of files, then the outgoing calls of their functions,
    are asked at once: the server answers one while the client reads another
    (pygments, 16 functions: 114 -> 98 ms for the whole nav_callers)."""
    wanted = [s for s in sites if s.role == "call" or s.call_like]
    if not wanted:
        return []
    paths = sorted({s.path for s in wanted})
    targets, functions = await asyncio.gather(
        _targets(workspace, position), _functions(workspace, paths, wanted)
    )
    if targets is None:
        return []
    found = await asyncio.gather(
        *(_calling(workspace, path, node, targets) for path, node in functions)
    )
    return [site for site in found if site is not None]


async def recovered_callers(
    workspace: Workspace, position: LspPosition, sites: Sequence[Site]
) -> list[CallSite]:
    """`callers_from_callees`, then `callers_from_references` for the sites it left."""
    found = await callers_from_callees(workspace, position, sites)
    covered = {(c.location.path, span.start_line + 1) for c in found for span in c.call_spans}
    rest = [s for s in sites if (s.path, s.line) not in covered]
    return found + await callers_from_references(workspace, position, rest)


async def callers_from_references(
    workspace: Workspace, position: LspPosition, sites: Sequence[Site]
) -> list[CallSite]:
    """The call-like `sites` that the live references of the symbol at `position`
    confirm, each as a call from the function around it (the file: at top level)."""
    wanted = [s for s in sites if s.role == "call" or s.call_like]
    if not wanted:
        return []
    try:
        found = await workspace.live.references(position.path, position.line, position.character)
    except (LspError, DiskError):
        return []
    confirmed = {(loc.path, loc.line) for loc in found}
    hits = [s for s in wanted if (s.path, s.line) in confirmed]
    paths = sorted({s.path for s in hits})
    outlines = await asyncio.gather(*(kept_outline(workspace, path) for path in paths))
    calls: list[CallSite] = []
    for path, outline in zip(paths, outlines, strict=True):
        for site in (s for s in hits if s.path == path):
            column = max(site.column - 1, 0)
            word = re.match(r"\w+", site.text[column:])
            span = Span(site.line - 1, column, site.line - 1, column + len(word[0] if word else ""))
            callers = _enclosing(outline, {site.line - 1})
            if callers:
                node = callers[0]
                text = _line_text(workspace, path, node.selection.start_line)
                place = Location(path, node.selection, node.selection.start_line + 1, text)
                calls.append(CallSite(node.name, node.kind, node.detail, place, (span,)))
            else:
                top = Span(0, 0, 0, 0)
                place = Location(path, top, 1, _line_text(workspace, path, 0))
                calls.append(CallSite(PurePosixPath(path).name, "module", None, place, (span,)))
    return calls


async def _targets(workspace: Workspace, position: LspPosition) -> set[tuple[str, int]] | None:
    """The places (path, 1-based line) of the symbol's definitions; None when the
    server could not say."""
    try:
        declared = await workspace.live.definition(position.path, position.line, position.character)
    except (LspError, DiskError):
        return None
    return {(loc.path, loc.line) for loc in declared} | {(position.path, position.line + 1)}


async def _functions(
    workspace: Workspace, paths: Sequence[str], wanted: Sequence[Site]
) -> list[tuple[str, DocumentSymbolNode]]:
    """The callers around the `wanted` sites, at most `MAX_FUNCTIONS`, in path order
    (files are asked for their outline a batch at a time, as many as functions may
    still be asked)."""
    functions: list[tuple[str, DocumentSymbolNode]] = []
    todo = list(paths)
    while todo and len(functions) < MAX_FUNCTIONS:
        batch, todo = todo[: MAX_FUNCTIONS - len(functions)], todo[MAX_FUNCTIONS - len(functions) :]
        outlines = await asyncio.gather(*(kept_outline(workspace, path) for path in batch))
        for path, outline in zip(batch, outlines, strict=True):
            lines = {s.line - 1 for s in wanted if s.path == path}
            functions.extend((path, node) for node in _enclosing(outline, lines))
    return functions[:MAX_FUNCTIONS]


async def _calling(
    workspace: Workspace, path: str, node: DocumentSymbolNode, targets: set[tuple[str, int]]
) -> CallSite | None:
    """`node` as a caller of `targets`, or None when none of its calls reach them."""
    start = node.selection
    try:
        callees = await workspace.live.outgoing_calls(path, start.start_line, start.start_char)
    except (LspError, DiskError):
        return None
    spans = tuple(
        span
        for callee in callees
        if (callee.location.path, callee.location.line) in targets
        for span in callee.call_spans
    )
    if not spans:
        return None
    text = _line_text(workspace, path, start.start_line)
    where = Location(path=path, span=start, line=start.start_line + 1, text=text)
    return CallSite(node.name, node.kind, node.detail, where, spans)


def _enclosing(outline: Sequence[DocumentSymbolNode], lines: set[int]) -> list[DocumentSymbolNode]:
    """The caller around each of `lines` (0-based), once each: the innermost
    function, method or constructor, else the innermost variable or constant
    (an arrow function held at module level)."""
    found: dict[tuple[int, int], DocumentSymbolNode] = {}
    for line in lines:
        chain = _chain(outline, line)
        functions = [n for n in chain if n.kind in _FUNCTIONS]
        holders = [n for n in chain if n.kind in _HOLDERS]
        candidates = functions or holders
        if candidates:
            node = candidates[-1]
            found[(node.selection.start_line, node.selection.start_char)] = node
    return [found[key] for key in sorted(found)]


def _chain(nodes: Sequence[DocumentSymbolNode], line: int) -> list[DocumentSymbolNode]:
    """The symbols around `line`, outermost first."""
    for node in nodes:
        if node.span.start_line <= line <= node.span.end_line:
            return [node, *_chain(node.children, line)]
    return []


def _line_text(workspace: Workspace, path: str, line: int) -> str:
    try:
        lines = (workspace.root / path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return ""
    return lines[line] if line < len(lines) else ""
