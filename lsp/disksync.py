"""Push the disk into one server before a query, as its catalog entry needs.

- Files not open that came, changed or went reach a server that does not
  watch the disk as `workspace/didChangeWatchedFiles` (from `WorkspaceIndex`).
- `open_before_references`: each such changed or created file is opened and
  its outline asked, since the server only looks again at an open file.
- `blank_deleted_files`: a deleted file is sent as an empty document, its
  outline asked, then closed, since the server otherwise keeps its symbols.
- Every open document is brought up to date (`Documents.refresh`).
"""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from disk.errors import DiskError
from lsp.catalog import ServerSpec
from lsp.client import Connection
from lsp.documents import Documents
from lsp.uris import uri_of
from lsp.watch import WorkspaceIndex


class DiskSync:
    """What one server must be told about the disk, and the telling."""

    def __init__(self, spec: ServerSpec, root: Path, documents: Documents) -> None:
        self._spec = spec
        self._root = root
        self._documents = documents
        self._index: WorkspaceIndex | None = None

    @property
    def needs_index(self) -> bool:
        """Whether this server must hear about files that are not open."""
        spec = self._spec
        return not spec.watches_disk or spec.open_before_references or spec.blank_deleted_files

    def reset(self) -> None:
        """Take the workspace as it is now (just before a server starts)."""
        self._index = (
            WorkspaceIndex(self._root, self._spec.extensions) if self.needs_index else None
        )

    async def push(self, conn: Connection) -> None:
        """Tell the server what changed on disk since the last push."""
        changes = [] if self._index is None else self._index.changes()
        if changes and not self._spec.watches_disk:
            conn.did_change_watched_files(
                types.DidChangeWatchedFilesParams(
                    changes=[types.FileEvent(uri=uri_of(path), type=kind) for path, kind in changes]
                )
            )
        if self._spec.blank_deleted_files:
            deleted = {path for path, kind in changes if kind == types.FileChangeType.Deleted}
            await self._blank(conn, deleted | set(self._documents.vanished()))
        if self._spec.open_before_references:
            for path, kind in changes:
                if kind != types.FileChangeType.Deleted:
                    await self._reopen(conn, path)
        self._documents.refresh(conn)

    async def _reopen(self, conn: Connection, path: Path) -> None:
        try:
            doc = self._documents.current(path, conn)
        except DiskError:
            return
        await _outline(conn, doc.uri)

    async def _blank(self, conn: Connection, deleted: set[Path]) -> None:
        for path in sorted(deleted):
            uri = uri_of(path)
            doc = self._documents.forget(path)
            if doc is None:
                language_id = self._spec.language_ids.get(path.suffix.lower(), "plaintext")
                conn.did_open(
                    types.DidOpenTextDocumentParams(
                        text_document=types.TextDocumentItem(
                            uri=uri, language_id=language_id, version=1, text=""
                        )
                    )
                )
            else:
                conn.did_change(
                    types.DidChangeTextDocumentParams(
                        text_document=types.VersionedTextDocumentIdentifier(
                            uri=uri, version=doc.version + 1
                        ),
                        content_changes=[types.TextDocumentContentChangeWholeDocument(text="")],
                    )
                )
            await _outline(conn, uri)
            conn.did_close(
                types.DidCloseTextDocumentParams(
                    text_document=types.TextDocumentIdentifier(uri=uri)
                )
            )


async def _outline(conn: Connection, uri: str) -> None:
    """Ask a document's symbols: servers build (or drop) what they know of it then."""
    params = types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    await conn.call(
        types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, conn.lsp.text_document_document_symbol_async(params)
    )
