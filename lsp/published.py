"""What a server published (`textDocument/publishDiagnostics`), per document, and when.

`PublishedDiagnostics` keeps the last set per document and says when it is
*settled* for what the server was last sent: a publish for the document's
current version (when the server gives versions), else a publish received
after the last didOpen or didChange, followed by a quiet period (servers such
as tsserver publish in stages). Either way the publish must have come after
the workspace last changed (`workspace_changed`: any document's text, or a
file on disk): a change to one file can change the diagnostics of the files
that use it, and servers (gopls, tsserver) publish again only for the
documents whose diagnostics moved, so an older publish of a user proves
nothing. Such a document is `stale` until it is sent again (a new version of
the same text) and published for. The connection (`lsp.client`) fills it; a
diagnostics query (`lsp.diagnostics`) waits on it.

It holds an entry per open document and per closed one whose last publish
had problems: a document closed, then published clean (or never published),
is forgotten, so files an agent made and deleted leave nothing behind in a
server that runs for days.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from urllib.parse import unquote

from lsprotocol import types

VERSIONED_QUIET_S = 0.1
"""Quiet after a publish for the current version (a server may send a second one)."""
UNVERSIONED_QUIET_S = 0.4
"""Quiet after an unversioned publish (tsserver: syntax, then semantic, then suggestions)."""


def _key(uri: str) -> str:
    """One spelling of a document's URI: servers escape URIs their own way (gopls
    sends a `+` in a folder name as is; Python's `as_uri` sends `%2B`)."""
    return unquote(uri)


@dataclass(slots=True)
class _Document:
    sent_version: int = 0
    sent_at: float = 0.0
    open: bool = False
    diagnostics: Sequence[types.Diagnostic] = ()
    version: int | None = None
    published_at: float | None = None


@dataclass(slots=True)
class PublishedDiagnostics:
    """The last diagnostics a server published, per document URI, and when; `quiet_s`
    (when given) is the server's own quiet period, for both kinds of publish."""

    quiet_s: float | None = None
    _documents: dict[str, _Document] = field(default_factory=dict)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _workspace_changed_at: float = 0.0

    def sent(self, uri: str, version: int) -> None:
        """Record that the server was sent `version` of the document (didOpen/didChange)."""
        doc = self._documents.setdefault(_key(uri), _Document())
        doc.sent_version, doc.sent_at, doc.open = version, time.monotonic(), True

    def closed(self, uri: str) -> None:
        """Record that the document was closed (didClose): kept only while it has problems."""
        doc = self._documents.get(_key(uri))
        if doc is not None:
            doc.open = False
            if not doc.diagnostics:
                del self._documents[_key(uri)]

    def workspace_changed(self) -> None:
        """Record that the server was just told of a change (a document's new text, a
        file changed on disk): every publish before now is for the old workspace."""
        self._workspace_changed_at = time.monotonic()

    def stale(self, uri: str) -> bool:
        """True when the document was last sent before the workspace last changed and
        no publish came since: the server may never publish for it again unless it is
        sent again."""
        doc = self._documents.get(_key(uri))
        if doc is None:
            return False
        since = self._workspace_changed_at
        return doc.sent_at < since and (doc.published_at is None or doc.published_at < since)

    def publish(self, params: types.PublishDiagnosticsParams) -> None:
        """Keep what the server just published (a clean publish for a closed document
        forgets it: `current` answers the same, nothing)."""
        key = _key(params.uri)
        doc = self._documents.get(key)
        if doc is not None and not doc.open and not params.diagnostics:
            del self._documents[key]
        elif doc is not None or params.diagnostics:
            doc = self._documents.setdefault(key, _Document())
            doc.diagnostics, doc.version = params.diagnostics, params.version
            doc.published_at = time.monotonic()
        self._changed.set()

    def __len__(self) -> int:
        return len(self._documents)

    def _quiet_for(self, uri: str) -> float | None:
        """Seconds still to wait for `uri` to settle (0: settled), or None: no fresh publish."""
        doc = self._documents.get(_key(uri))
        if doc is None or doc.published_at is None:
            return None
        if doc.published_at < self._workspace_changed_at:
            return None
        if doc.version is not None:
            if doc.version < doc.sent_version:
                return None
            quiet = VERSIONED_QUIET_S
        else:
            if doc.published_at < doc.sent_at:
                return None
            quiet = UNVERSIONED_QUIET_S
        quiet = max(quiet, self.quiet_s or 0.0)
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
        doc = self._documents.get(_key(uri))
        return () if doc is None else doc.diagnostics
