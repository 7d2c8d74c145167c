"""Document sync: the one owner of didOpen, didChange and didClose for a server.

Disk is the truth. Before a query, every open document is checked: when its
stat key (size, mtime_ns, ctime_ns, inode) moved, the file is hashed, and when
the content hash moved, the server gets the full new text as a didChange with
the next version (a stat key too fresh to trust is hashed anyway, see
`lsp.racy`); a file that is gone (or no longer readable text) is closed.
The queried file is opened the first time. At most `limit` documents stay
open; the least recently queried one is closed first. A deleted file can be
sent as an empty document (`blank`), for servers that keep its symbols.
"""

from __future__ import annotations

import contextlib
import time
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from lsprotocol import types

from disk.errors import DiskError, MissingFileError
from disk.stamps import FileStamp, content_hash
from disk.text import decode_source, read_source_bytes
from lsp.racy import settled
from lsp.uris import uri_of


class DocumentSink(Protocol):
    """Where document notifications go (a server connection)."""

    def did_open(self, params: types.DidOpenTextDocumentParams) -> None: ...

    def did_change(self, params: types.DidChangeTextDocumentParams) -> None: ...

    def did_close(self, params: types.DidCloseTextDocumentParams) -> None: ...


@dataclass(slots=True)
class OpenDocument:
    """A document the server has open, and what it was given."""

    path: Path
    uri: str
    language_id: str
    stamp: FileStamp
    seen_ns: int
    """Wall-clock time the stamp was taken (before the read)."""
    digest: str
    version: int
    text: str
    line_count: int
    """How many lines `text` has (counted once per content, not per query)."""

    def vouched_by(self, stamp: FileStamp) -> bool:
        """True when `stamp` proves the document still matches the disk."""
        return stamp == self.stamp and settled(self.stamp, self.seen_ns)


@dataclass(frozen=True, slots=True)
class _Snapshot:
    stamp: FileStamp
    seen_ns: int
    digest: str
    text: str
    line_count: int


def _stat(path: Path) -> tuple[FileStamp | None, int]:
    seen_ns = time.time_ns()
    return FileStamp.of(path), seen_ns


def _snapshot(path: Path, stamp: FileStamp, seen_ns: int) -> _Snapshot:
    """Read and hash `path` (stamp taken before the read: a racing write re-hashes)."""
    data = read_source_bytes(path)
    text = decode_source(data, path=str(path))
    return _Snapshot(stamp, seen_ns, content_hash(data), text, len(text.splitlines()))


class Documents:
    """The open documents of one server, kept equal to the disk."""

    def __init__(
        self, language_ids: Mapping[str, str], limit: int, *, touch_with_new_text: bool = False
    ) -> None:
        self._language_ids = language_ids
        self._touch_with_new_text = touch_with_new_text
        self._limit = max(1, limit)
        self._open: OrderedDict[Path, OpenDocument] = OrderedDict()
        self._overlaid: set[Path] = set()
        """Documents sent with a text not the disk's: never closed to make room (the
        server would read the disk in their place) until `refresh`."""

    def __len__(self) -> int:
        return len(self._open)

    @property
    def limit(self) -> int:
        """How many documents stay open at most."""
        return self._limit

    def __contains__(self, path: object) -> bool:
        return path in self._open

    def current(self, path: Path, sink: DocumentSink) -> OpenDocument:
        """The queried file, opened or brought up to date, as the most recent one.

        Raises a DiskError when the file is missing or not source text.
        """
        stamp, seen_ns = _stat(path)
        if stamp is None:
            self._close(path, sink)
            raise MissingFileError(f"{path}: no such file", path=str(path))
        doc = self._open.get(path)
        if doc is not None:
            self._open.move_to_end(path)
            self._follow(doc, stamp, seen_ns, sink)
            return doc
        snap = _snapshot(path, stamp, seen_ns)
        doc = OpenDocument(
            path=path,
            uri=uri_of(path),
            language_id=self._language_id(path),
            stamp=snap.stamp,
            seen_ns=snap.seen_ns,
            digest=snap.digest,
            version=1,
            text=snap.text,
            line_count=snap.line_count,
        )
        self._open[path] = doc
        _send_open(sink, doc.uri, doc.language_id, doc.version, doc.text)
        room = [p for p in self._open if p not in self._overlaid][:-1]
        for oldest in room[: max(0, len(self._open) - self._limit)]:
            self._close(oldest, sink)
        return doc

    def paths(self) -> list[Path]:
        """The open documents, least recently queried first."""
        return list(self._open)

    def vanished(self) -> list[Path]:
        """The open documents whose file is gone from the disk."""
        return [path for path in self._open if FileStamp.of(path) is None]

    def blank(self, path: Path, sink: DocumentSink) -> str:
        """Send a deleted file as an empty document, and stop tracking it.

        For servers that keep a deleted file's symbols until then
        (`blank_deleted_files`): returns the URI, whose outline the caller asks
        before `close_blank`.
        """
        doc = self._open.pop(path, None)
        if doc is None:
            uri = uri_of(path)
            _send_open(sink, uri, self._language_id(path), 1, "")
        else:
            uri = doc.uri
            _send_change(sink, uri, doc.version + 1, "")
        return uri

    def touch(self, path: Path, sink: DocumentSink) -> OpenDocument:
        """Send the open document `path` again, same text (one more blank line at its end
        for a server that needs new text), next version: the server checks it again and
        publishes its diagnostics for that version."""
        doc = self._open[path]
        doc.version += 1
        if self._touch_with_new_text:  # a blank line more; the next sync sends the disk
            doc.text += "\n"
            doc.digest, doc.seen_ns = "", 0
        _send_change(sink, doc.uri, doc.version, doc.text)
        return doc

    def overlay(self, path: Path, text: str, sink: DocumentSink) -> None:
        """Send the open document `path` with `text` in place of the disk's, until the
        next `refresh` sends the disk again (its stamp no longer vouches for it)."""
        doc = self._open[path]
        self._overlaid.add(path)
        doc.version += 1
        doc.digest, doc.seen_ns = "", 0
        doc.text, doc.line_count = text, len(text.splitlines())
        _send_change(sink, doc.uri, doc.version, text)

    def opened(self, path: Path) -> OpenDocument | None:
        """The open document `path` as last sent (not checked against the disk)."""
        return self._open.get(path)

    @staticmethod
    def close_blank(uri: str, sink: DocumentSink) -> None:
        """Close a document `blank` sent."""
        _send_close(sink, uri)

    def refresh(self, sink: DocumentSink) -> None:
        """Bring every open document up to date with the disk; close the vanished."""
        self._overlaid.clear()
        for path, doc in list(self._open.items()):
            stamp, seen_ns = _stat(path)
            if stamp is None:
                self._close(path, sink)
            else:
                with contextlib.suppress(DiskError):
                    self._follow(doc, stamp, seen_ns, sink)

    def replay(self, sink: DocumentSink) -> None:
        """Open every document again in a fresh server (after a restart)."""
        for path, doc in list(self._open.items()):
            stamp, seen_ns = _stat(path)
            try:
                snap = None if stamp is None else _snapshot(path, stamp, seen_ns)
            except DiskError:
                snap = None
            if snap is None:
                del self._open[path]
                continue
            doc.stamp, doc.seen_ns, doc.digest = snap.stamp, snap.seen_ns, snap.digest
            doc.text, doc.line_count, doc.version = snap.text, snap.line_count, 1
            _send_open(sink, doc.uri, doc.language_id, doc.version, doc.text)

    def forget(self) -> None:
        """Track no document (their server is gone): a fresh one opens each when asked."""
        self._open.clear()

    def _follow(
        self, doc: OpenDocument, stamp: FileStamp, seen_ns: int, sink: DocumentSink
    ) -> None:
        """Bring `doc` up to date unless `stamp` vouches for it; a file that is no
        longer source text is closed, and its DiskError raised."""
        if doc.vouched_by(stamp):
            return
        try:
            self._update(doc, _snapshot(doc.path, stamp, seen_ns), sink)
        except DiskError:
            self._close(doc.path, sink)
            raise

    def _update(self, doc: OpenDocument, snap: _Snapshot, sink: DocumentSink) -> None:
        doc.stamp, doc.seen_ns = snap.stamp, snap.seen_ns
        if snap.digest == doc.digest:
            return
        doc.digest, doc.text, doc.line_count = snap.digest, snap.text, snap.line_count
        doc.version += 1
        _send_change(sink, doc.uri, doc.version, doc.text)

    def _close(self, path: Path, sink: DocumentSink) -> None:
        self._overlaid.discard(path)
        doc = self._open.pop(path, None)
        if doc is not None:
            _send_close(sink, doc.uri)

    def _language_id(self, path: Path) -> str:
        return self._language_ids.get(path.suffix.lower(), "plaintext")


def _send_open(sink: DocumentSink, uri: str, language_id: str, version: int, text: str) -> None:
    sink.did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id=language_id, version=version, text=text
            )
        )
    )


def _send_change(sink: DocumentSink, uri: str, version: int, text: str) -> None:
    sink.did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def _send_close(sink: DocumentSink, uri: str) -> None:
    sink.did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
