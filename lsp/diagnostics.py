"""Diagnostics (errors, warnings) of one document, pulled or collected as published.

Servers that answer `textDocument/diagnostic` are asked (pull). The others
push `textDocument/publishDiagnostics` when they like; `PublishedDiagnostics`
keeps the last set per document and says when it is *settled* for what the
server was last sent: a publish for the document's current version (when the
server gives versions), else a publish received after the last didOpen or
didChange, followed by a quiet period (servers such as tsserver publish in
stages). A wait has a deadline: one that passes answers with what is there,
flagged not settled.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

from disk.paths import relative_posix
from lsp.errors import ServerRequestError, UnsupportedQueryError
from lsp.model import DiagnosticsSource

if TYPE_CHECKING:
    from lsp.documents import OpenDocument
    from lsp.session import ServerSession

VERSIONED_QUIET_S = 0.1
"""Quiet after a publish for the current version (a server may send a second one)."""
UNVERSIONED_QUIET_S = 0.4
"""Quiet after an unversioned publish (tsserver: syntax, then semantic, then suggestions)."""

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


@dataclass(slots=True)
class _Document:
    sent_version: int = 0
    sent_at: float = 0.0
    diagnostics: Sequence[types.Diagnostic] = ()
    version: int | None = None
    published_at: float | None = None


@dataclass(slots=True)
class PublishedDiagnostics:
    """The last diagnostics a server published, per document URI, and when."""

    _documents: dict[str, _Document] = field(default_factory=dict)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    def sent(self, uri: str, version: int) -> None:
        """Record that the server was sent `version` of the document (didOpen/didChange)."""
        doc = self._documents.setdefault(uri, _Document())
        doc.sent_version, doc.sent_at = version, time.monotonic()

    def publish(self, params: types.PublishDiagnosticsParams) -> None:
        """Keep what the server just published."""
        doc = self._documents.setdefault(params.uri, _Document())
        doc.diagnostics, doc.version = params.diagnostics, params.version
        doc.published_at = time.monotonic()
        self._changed.set()

    def _quiet_for(self, uri: str) -> float | None:
        """Seconds still to wait for `uri` to settle (0: settled), or None: no fresh publish."""
        doc = self._documents.get(uri)
        if doc is None or doc.published_at is None:
            return None
        if doc.version is not None:
            if doc.version < doc.sent_version:
                return None
            quiet = VERSIONED_QUIET_S
        else:
            if doc.published_at < doc.sent_at:
                return None
            quiet = UNVERSIONED_QUIET_S
        return max(0.0, doc.published_at + quiet - time.monotonic())

    async def settled(self, uri: str, within: float) -> bool:
        """Wait until the diagnostics of `uri` are settled (True) or `within` s pass (False)."""
        deadline = time.monotonic() + within
        while True:
            remaining = deadline - time.monotonic()
            left = self._quiet_for(uri)
            if left == 0.0:
                return True
            if remaining <= 0:
                return False
            self._changed.clear()
            wait = remaining if left is None else min(left, remaining)
            try:
                await asyncio.wait_for(self._changed.wait(), wait)
            except TimeoutError:
                continue

    def current(self, uri: str) -> Sequence[types.Diagnostic]:
        """The last diagnostics published for `uri` (none yet: empty)."""
        doc = self._documents.get(uri)
        return () if doc is None else doc.diagnostics


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
    session: ServerSession, doc: OpenDocument, root: Path, within: float
) -> DiagnosticsReport:
    """The diagnostics of the synced document `doc`: pulled when the server answers
    `textDocument/diagnostic` (and does not refuse it), else the published ones once
    settled, waiting at most `within` seconds."""
    shown = relative_posix(root, doc.path)
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=doc.uri))
    try:
        result = await session.ask(
            types.TEXT_DOCUMENT_DIAGNOSTIC,
            lambda c: c.text_document_diagnostic_async(params),
            path=doc.path,
        )
    except (UnsupportedQueryError, ServerRequestError):
        published = session.published
        settled = published is not None and await published.settled(doc.uri, within)
        found = () if published is None else published.current(doc.uri)
        return DiagnosticsReport(shown, "published", convert(root, doc.path, found), settled)
    return DiagnosticsReport(shown, "pull", convert(root, doc.path, pulled_items(result)), True)
