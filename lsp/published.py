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
the same text) and published for. A server that reports each file's status
(clangd's `clangdFileStatus`) is believed only for a publish made on the includes
as they are now: one made while they were still parsed anew is provisional. A
wait's deadline moves on while the server publishes for other documents (up to
WORKING_CAP times it). The connection (`lsp.client`) fills it; a diagnostics
query (`lsp.diagnostics`) waits on it.

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
PROVISIONAL_STATE = "parsing includes"
"""clangd, a header changed, publishes at once for the AST built on the old includes
(with a patch for the file's own `#include` lines), then again once the includes are
parsed anew: a publish whose next file status still says this is not the answer for
the text sent (zlib: a file broken by a zlib.h edit was first published clean)."""
UNANSWERED_AFTER_S = 1.0
"""Idle this long after a provisional publish, the server will not publish again."""
WORKING_CAP = 4
"""A wait goes on past its `within` while the server keeps publishing for other
documents or reporting their status (it works through a queue: clangd re-parsing
the 40 includers of a header on a loaded machine), each giving it `within` more, up
to this many times `within` in all."""


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
    reports_status: bool = False
    provisional: bool | None = None
    """The last publish was made on includes still being parsed (True), or not (False),
    as the first file status after it said; None: no status since it."""
    idle_at: float | None = None
    """When the server last said it was done with the document ("idle")."""


@dataclass(slots=True)
class PublishedDiagnostics:
    """The last diagnostics a server published, per document URI, and when; `quiet_s`
    (when given) is the server's own quiet period, for both kinds of publish."""

    quiet_s: float | None = None
    _documents: dict[str, _Document] = field(default_factory=dict)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _workspace_changed_at: float = 0.0
    _last_heard_at: float = 0.0

    def sent(self, uri: str, version: int) -> None:
        """Record that the server was sent `version` of the document (didOpen/didChange)."""
        doc = self._documents.setdefault(_key(uri), _Document())
        doc.sent_version, doc.sent_at, doc.open = version, time.monotonic(), True
        doc.provisional = doc.idle_at = None  # what follows is about this text

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
        self._last_heard_at = time.monotonic()
        doc = self._documents.get(key)
        if doc is not None and not doc.open and not params.diagnostics:
            del self._documents[key]
        elif doc is not None or params.diagnostics:
            doc = self._documents.setdefault(key, _Document())
            doc.diagnostics, doc.version = params.diagnostics, params.version
            doc.published_at, doc.provisional = time.monotonic(), None
        self._changed.set()

    def status(self, uri: str, state: str) -> None:
        """Record what the server says it does with the document (clangd's file status:
        "idle", or e.g. "parsing includes, running Update")."""
        self._last_heard_at = time.monotonic()  # working: a wait goes on
        doc = self._documents.get(_key(uri))
        if doc is None:
            return
        doc.reports_status = True
        if doc.provisional is None and doc.published_at is not None:
            doc.provisional = PROVISIONAL_STATE in state
        doc.idle_at = time.monotonic() if state == "idle" else None
        self._changed.set()

    def _unanswered_in(self, uri: str) -> float | None:
        """Seconds until a provisional publish counts as never followed (0: now), or
        None when the document is not in that case."""
        doc = self._documents.get(_key(uri))
        if doc is None or not doc.provisional or doc.idle_at is None:
            return None
        return max(0.0, doc.idle_at + UNANSWERED_AFTER_S - time.monotonic())

    def unanswered(self, uri: str) -> bool:
        """True when the server published for the document on old includes, then went
        idle without publishing again (clangd, the includes parsed anew, may see no
        need): sent again, it publishes for what it has now."""
        return self._unanswered_in(uri) == 0.0

    def __len__(self) -> int:
        return len(self._documents)

    def _quiet_for(self, uri: str) -> float | None:
        """Seconds still to wait for `uri` to settle (0: settled), or None: no fresh publish."""
        doc = self._documents.get(_key(uri))
        if doc is None or doc.published_at is None:
            return None
        if doc.published_at < self._workspace_changed_at:
            return None
        if doc.reports_status and doc.provisional is not False:
            return None  # on the old includes, or no status after it yet
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
        """Wait until the diagnostics of `uri` are settled (True), or (False) until
        `within` s pass with nothing heard of any document, or WORKING_CAP times
        `within` in all, or the server left them `unanswered`."""
        started = time.monotonic()
        cap = started + WORKING_CAP * within
        while True:
            last = max(started, self._last_heard_at)
            remaining = min(cap, last + within) - time.monotonic()
            left = self._quiet_for(uri)
            if left == 0.0:
                return True
            unanswered = self._unanswered_in(uri)
            if remaining <= 0 or unanswered == 0.0:
                return False
            self._changed.clear()
            wait = min(w for w in (remaining, left, unanswered) if w is not None)
            try:
                await asyncio.wait_for(self._changed.wait(), wait)
            except TimeoutError:
                continue

    def current(self, uri: str) -> Sequence[types.Diagnostic]:
        """The last diagnostics published for `uri` (none yet: empty)."""
        doc = self._documents.get(_key(uri))
        return () if doc is None else doc.diagnostics
