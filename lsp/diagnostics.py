"""Diagnostics (errors, warnings) of one document, pulled or collected as published.

Servers that answer `textDocument/diagnostic` are asked (pull), and so is
tsserver behind typescript-language-server (`lsp.tsserver_pull`). The others
push `textDocument/publishDiagnostics` when they like, and the connection
keeps what they published (`lsp.published`) until it is settled for what the
server was last sent; a document whose last publish is older than the last
change of the workspace (a file it uses changed) is sent again first, so the
server publishes for it anew. A wait has a deadline: one that passes answers
with what is there, flagged not settled.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from disk.errors import DiskError
from disk.paths import relative_posix
from lsp.errors import ServerRequestError, UnsupportedQueryError
from lsp.model import DiagnosticsSource
from lsp.tsserver_pull import tsserver_diagnostics

if TYPE_CHECKING:
    from lsp.documents import OpenDocument
    from lsp.session import Held, ServerSession

_SEVERITIES = {
    types.DiagnosticSeverity.Error: "error",
    types.DiagnosticSeverity.Warning: "warning",
    types.DiagnosticSeverity.Information: "information",
    types.DiagnosticSeverity.Hint: "hint",
}


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in a file: 1-based lines, 1-based UTF-16 columns as the server gave them."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    severity: str
    message: str
    code: str | None
    source: str | None


@dataclass(frozen=True, slots=True)
class DiagnosticsReport:
    """The diagnostics of one document, how they were had, and whether to trust them whole.

    `settled` False: the deadline passed before the server published for what it
    was last sent (the list may be old or missing items).
    """

    path: str
    source: DiagnosticsSource
    diagnostics: tuple[Diagnostic, ...]
    settled: bool


def pulled_items(result: types.DocumentDiagnosticReport | None) -> Sequence[types.Diagnostic]:
    """The items of a pull answer (an `unchanged` report, never asked for, has none)."""
    if isinstance(
        result, types.RelatedFullDocumentDiagnosticReport | types.FullDocumentDiagnosticReport
    ):
        return result.items
    return ()


def convert(root: Path, path: Path, found: Sequence[types.Diagnostic]) -> tuple[Diagnostic, ...]:
    """Model diagnostics of the file `path`, in file order."""
    shown = relative_posix(root, path)
    items = [
        Diagnostic(
            path=shown,
            line=d.range.start.line + 1,
            column=d.range.start.character + 1,
            end_line=d.range.end.line + 1,
            end_column=d.range.end.character + 1,
            severity=_SEVERITIES.get(d.severity or types.DiagnosticSeverity.Error, "error"),
            message=d.message,
            code=None if d.code is None else str(d.code),
            source=d.source,
        )
        for d in found
    ]
    return tuple(sorted(items, key=lambda d: (d.line, d.column, d.message)))


async def diagnostics_of(
    session: ServerSession | Held,
    server: ServerSession,
    doc: OpenDocument,
    root: Path,
    within: float,
) -> DiagnosticsReport:
    """The diagnostics of the synced document `doc`: pulled when the `server` answers
    `textDocument/diagnostic` (or, `pull_through_tsserver`, tsserver's own requests)
    and does not refuse it, else the published ones once settled, waiting at most
    `within` seconds (a stale document is sent again through `session`: the server,
    or the hold of an overlay on it)."""
    shown = relative_posix(root, doc.path)
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=doc.uri))
    try:
        if server.spec.pull_through_tsserver:
            found: Sequence[types.Diagnostic] = await tsserver_diagnostics(server, doc)
        else:
            result = await server.ask(
                types.TEXT_DOCUMENT_DIAGNOSTIC,
                lambda c: c.text_document_diagnostic_async(params),
                path=doc.path,
            )
            found = pulled_items(result)
    except (UnsupportedQueryError, ServerRequestError):
        published = server.published
        if published is not None and published.stale(doc.uri):
            doc = await session.sync(doc.path, again=True)
        settled = published is not None and await published.settled(doc.uri, within)
        if not settled and published is not None and published.unanswered(doc.uri):
            doc = await session.sync(doc.path, again=True)  # published on old includes
            settled = await published.settled(doc.uri, within)
        found = () if published is None else published.current(doc.uri)
        return DiagnosticsReport(shown, "published", convert(root, doc.path, found), settled)
    return DiagnosticsReport(shown, "pull", convert(root, doc.path, found), True)


async def held_diagnostics(
    held: Held,
    server: ServerSession,
    wanted: Mapping[str, Path],
    root: Path,
    *,
    within: float,
    batch: int,
) -> dict[str, DiagnosticsReport]:
    """The diagnostics of the files `wanted` (absolute by path) on the held `server`,
    `batch` files opened at a time so that each is still open when asked (a server
    answers a closed document with nothing); files that cannot be read are left out."""
    found: dict[str, DiagnosticsReport] = {}
    items = list(wanted.items())
    for start in range(0, len(items), batch):
        docs: dict[str, OpenDocument] = {}
        for path, absolute in items[start : start + batch]:
            with contextlib.suppress(DiskError):
                docs[path] = await held.sync(absolute)
        reports = await asyncio.gather(
            *(diagnostics_of(held, server, d, root, within) for d in docs.values())
        )
        found.update(zip(docs, reports, strict=True))
    return found
