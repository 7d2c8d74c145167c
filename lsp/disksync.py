"""Push the disk into one server before a query, as its catalog entry needs.

- Files not open that came, changed or went reach a server that does not
  watch the disk as `workspace/didChangeWatchedFiles` (from `WorkspaceIndex`),
  as do its `setup_files` (go.mod, pyproject.toml), which are never opened.
- A file changed with its mtime kept (its ctime moved, its mtime did not:
  `cp -p`, `rsync -t`, `touch -r`, or two same-size writes within one clock
  tick) is opened, and its outline asked, whatever the server: a server that
  reads unopened files itself decides by their mtime whether to read them
  again (ty and gopls ignore such a Changed event), so only the content tells.
- `open_before_references`: every changed or created file is opened that way,
  since the server only looks again at an open file (at most as many files as
  may stay open, the most recently changed first).
- `blank_deleted_files`: a deleted file is sent as an empty document, its
  outline asked, then closed, since the server otherwise keeps its symbols.
- `compile_commands_arg`: the compilation database generated for a tree that
  has none follows its files and their includes (`lsp.compdb`).
- Every open document is brought up to date (`Documents.refresh`).
- Any change makes the diagnostics published so far old
  (`PublishedDiagnostics.workspace_changed`).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from lsprotocol import types

from disk.errors import DiskError
from disk.stamps import FileStamp
from lsp.catalog import ServerSpec
from lsp.client import Connection
from lsp.compdb import GeneratedDatabase
from lsp.documents import Documents
from lsp.errors import RequestTimeoutError, ServerRequestError
from lsp.uris import uri_of
from lsp.watch import WorkspaceIndex


class DiskSync:
    """What one server must be told about the disk, and the telling."""

    def __init__(self, spec: ServerSpec, root: Path, documents: Documents) -> None:
        self._spec = spec
        self._root = root
        self._documents = documents
        self._index: WorkspaceIndex | None = None
        self._database = GeneratedDatabase.for_server(spec, root)

    def reset(self) -> None:
        """Take the workspace as it is now (just before a server starts)."""
        self.close()
        spec = self._spec
        self._index = WorkspaceIndex(self._root, spec.extensions, names=spec.setup_files)
        if self._database is not None:
            self._database.update(self._index.paths())

    def close(self) -> None:
        """Stop watching the disk."""
        if self._index is not None:
            self._index.close()
            self._index = None

    async def push(self, conn: Connection) -> None:
        """Tell the server what changed on disk since the last push."""
        spec = self._spec
        changes = [] if self._index is None else self._index.changes()
        if changes:  # what the server published before is for the old workspace
            conn.published.workspace_changed()
        if changes and not spec.watches_disk:
            conn.did_change_watched_files(
                types.DidChangeWatchedFilesParams(
                    changes=[types.FileEvent(uri=uri_of(c.path), type=c.kind) for c in changes]
                )
            )
        if spec.blank_deleted_files:
            deleted = {c.path for c in changes if c.kind == types.FileChangeType.Deleted}
            await self._blank(conn, deleted | set(self._documents.vanished()))
        if self._database is not None and self._index is not None and changes:
            await asyncio.to_thread(self._database.update, self._index.paths())
        reopen = [
            c.path
            for c in changes
            if c.kind != types.FileChangeType.Deleted
            and c.path.name not in spec.setup_files
            and (spec.open_before_references or c.mtime_kept)
        ]
        if reopen:
            await self._reopen(conn, reopen)
        self._documents.refresh(conn)

    async def _reopen(self, conn: Connection, paths: list[Path]) -> None:
        """Open the changed files, then ask all their outlines at once.

        At most `Documents.limit` files (the most recently changed first): more
        would close the first ones again before their outline is asked.
        """
        newest_first = sorted(paths, key=_mtime, reverse=True)[: self._documents.limit]
        uris = []
        for path in newest_first:
            try:
                uris.append(self._documents.current(path, conn).uri)
            except DiskError:
                continue
        await _outlines(conn, uris)

    async def _blank(self, conn: Connection, deleted: set[Path]) -> None:
        for path in sorted(deleted):
            uri = self._documents.blank(path, conn)
            await _outline(conn, uri)
            self._documents.close_blank(uri, conn)


def _mtime(path: Path) -> int:
    stamp = FileStamp.of(path)
    return 0 if stamp is None else stamp.mtime_ns


async def _outlines(conn: Connection, uris: list[str]) -> None:
    """Ask the outlines of `uris` at once, waiting while the server answers them: it
    builds one or two at a time (clangd took 25 files restored after a rename past the
    request timeout at load 15, and the push failed, the server killed). Raises
    RequestTimeoutError only when a request timeout passes with no answer."""
    tasks = {asyncio.ensure_future(_outline(conn, uri, conn.timeout * len(uris))) for uri in uris}
    try:
        while tasks:
            done, tasks = await asyncio.wait(tasks, timeout=conn.timeout)
            if not done:
                raise RequestTimeoutError(
                    conn.spec.name, types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, conn.timeout
                )
            for task in done:
                task.result()
    finally:
        for task in tasks:
            task.cancel()


async def _outline(conn: Connection, uri: str, within: float | None = None) -> None:
    """Ask a document's symbols: servers build (or drop) what they know of it then.

    Best effort: a server that refuses (an error answer) is left as it is; a
    crash or a timeout (after `within` s, default the request timeout) still
    propagates.
    """
    params = types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
    with contextlib.suppress(ServerRequestError):
        await conn.call(
            types.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
            conn.lsp.text_document_document_symbol_async(params),
            within,
        )
