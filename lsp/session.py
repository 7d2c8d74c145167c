"""One language server over time: start, sync with the disk, ask, restart.

A `ServerSession` owns at most one running `Connection`. Before every query
it pushes what changed on disk (watched files, open documents, the queried
file). A server that died is restarted on the next query, with a growing
delay, and its open documents are replayed; after `restart_limit` crashes
within `restart_window` it is given up until that window has passed.

A slow answer is not a crash: a request that times out fails alone, and the
server keeps running. Only `hang_after_timeouts` requests in a row left
unanswered mean it hangs: then it is killed and that counts as a crash (as
does a server that does not answer `initialize` in time). Until the
server's first non-empty answer, empty answers are retried until
`cold_start_deadline`: a cold start looks slow, never wrong. A server whose
catalog entry names its workspace-loading progress (`indexing_progress`)
answers incompletely while loading, so a query waits for that progress to
end (or for its `ready_log` message, which pyright logs again after files
come or go) until the same deadline, counted from the start of that loading:
past it, queries answer at once (flagged as from a server still loading).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from lsp.catalog import ServerSpec
from lsp.client import Connection
from lsp.convert import Converter
from lsp.disksync import DiskSync
from lsp.doctor import check_server
from lsp.documents import Documents, OpenDocument
from lsp.errors import (
    LspError,
    NoServerError,
    RequestTimeoutError,
    ServerCrashedError,
    ServerGaveUpError,
    ServerRequestError,
)
from lsp.published import PublishedDiagnostics
from lsp.recycle import Recycler
from lsp.settings import LiveSettings

T = TypeVar("T")

_BACKOFF_FIRST_S = 0.25
_BACKOFF_MAX_S = 4.0
_COLD_POLL_FIRST_S = 0.1
_COLD_POLL_MAX_S = 0.5
CONTENT_MODIFIED_TRIES = 3
"""Sends of one request a server may answer with ContentModified (the answer it was
working out went stale while it did: a document changed, or it re-read the workspace)."""
_CONTENT_MODIFIED_PAUSE_S = 0.05

log = logging.getLogger(__name__)


def is_empty(result: object) -> bool:
    """True for the answers a loading server gives: null, [] or empty hover."""
    if result is None:
        return True
    if isinstance(result, types.Hover):
        return Converter.hover(result) is None
    if isinstance(result, Sequence) and not isinstance(result, str):
        return len(result) == 0
    return False


async def _send(conn: Connection, method: str, make: Callable[[LanguageClient], Awaitable[T]]) -> T:
    """One request, sent again while the server answers ContentModified (at most
    CONTENT_MODIFIED_TRIES sends in all)."""
    for _ in range(CONTENT_MODIFIED_TRIES - 1):
        try:
            return await conn.call(method, make(conn.lsp))
        except ServerRequestError as exc:
            if exc.code != types.LSPErrorCodes.ContentModified:
                raise
        await asyncio.sleep(_CONTENT_MODIFIED_PAUSE_S)
    return await conn.call(method, make(conn.lsp))


@dataclass(frozen=True, slots=True)
class Held:
    """Documents of a server held by `ServerSession.overlaid` (its lock is taken)."""

    _documents: Documents
    _conn: Connection

    async def sync(self, path: Path, *, again: bool = False) -> OpenDocument:
        """`ServerSession.sync` without pushing the disk: an open document stays as
        sent (the overlay with it)."""
        doc = self._documents.opened(path) or self._documents.current(path, self._conn)
        return self._documents.touch(path, self._conn) if again else doc


class ServerSession:
    """One server for one workspace root, kept alive and equal to the disk."""

    def __init__(
        self, spec: ServerSpec, root: Path, executable: Path, settings: LiveSettings, language: str
    ) -> None:
        self.spec = spec
        self.language = language
        self._root = root
        self._executable = executable
        self._settings = settings
        self._documents = Documents(
            spec.language_ids,
            settings.max_open_documents,
            touch_with_new_text=spec.touch_with_new_text,
        )
        self._disk = DiskSync(spec, root, self._documents)
        self._connection: Connection | None = None
        self._lock = asyncio.Lock()
        self._crashes: deque[float] = deque()
        self._unanswered = 0
        self._starts = 0
        self._warm = False
        self.in_order = asyncio.Lock()
        """Held by requests the server answers one at a time, in the order sent
        (tsserver's synchronous ones): each is sent when the one before is answered,
        so its timeout counts its own time, not the queue's."""
        self.recycler = Recycler(settings, swing=spec.memory_swing)
        """Its memory over its starts: working size, last weighing, restarts for size."""

    # -- facts --------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """The running server's process id."""
        conn = self._connection
        return conn.pid if conn is not None and conn.alive else None

    @property
    def restarts(self) -> int:
        """How many times the server was started again after the first start."""
        return max(0, self._starts - 1)

    def supports(self, method: str) -> bool:
        """Whether the running server announced `method` (False while none runs)."""
        conn = self._connection
        return conn is not None and conn.alive and conn.supports(method)

    def open_documents(self) -> list[Path]:
        """The documents the server has open, least recently queried first."""
        return self._documents.paths()

    @property
    def published(self) -> PublishedDiagnostics | None:
        """The diagnostics the running server published (None while none runs)."""
        conn = self._connection
        return None if conn is None else conn.published

    @property
    def loading(self) -> bool:
        """True while the running server has not yet said it loaded the workspace
        (its answers may be incomplete)."""
        conn = self._connection
        return conn is not None and conn.alive and not conn.loaded.is_set()

    @property
    def state(self) -> str:
        """One of "running", "stopped" or "given_up"."""
        if self._connection is not None and self._connection.alive:
            return "running"
        return "given_up" if self._given_up() else "stopped"

    # -- the query cycle ------------------------------------------------------

    async def sync(self, path: Path, *, again: bool = False) -> OpenDocument:
        """Start the server if needed, push the disk to it, and return the queried
        file as the server now has it open; `again`: sent once more as a new version
        of the same text, so the server checks it again (`Documents.touch`).

        Raises ServerCrashedError (or ServerGaveUpError), RequestTimeoutError
        when the server does not start, and DiskError for an unusable file.
        """
        async with self._lock:
            conn = await self._pushed()
            try:
                doc = self._documents.current(path, conn)
                return self._documents.touch(path, conn) if again else doc
            except (ServerCrashedError, RequestTimeoutError):
                await self._fail(conn)
                raise

    @contextlib.asynccontextmanager
    async def overlaid(self, texts: Mapping[Path, str]) -> AsyncIterator[Held]:
        """Hold the server (other queries wait) with `texts` sent in place of those
        files' content on disk (a baseline to compare with), then send the disk again.
        Inside, documents are opened or sent again through the `Held` yielded."""
        async with self._lock:
            conn = await self._pushed()
            try:
                conn.published.workspace_changed()
                for path, text in texts.items():
                    self._documents.current(path, conn)
                    self._documents.overlay(path, text, conn)
                yield Held(self._documents, conn)
            except (ServerCrashedError, RequestTimeoutError):
                await self._fail(conn)
                raise
            finally:
                if conn.alive:
                    conn.published.workspace_changed()
                    self._documents.refresh(conn)

    async def sync_workspace(self) -> None:
        """Like `sync`, for a query about no file in particular."""
        async with self._lock:
            await self._pushed()

    async def ask(
        self,
        method: str,
        make: Callable[[LanguageClient], Awaitable[T]],
        *,
        path: Path | None = None,
    ) -> T:
        """Send one request; while the server is cold, retry empty answers.

        The first attempt uses the sync already done; each retry syncs again.
        """
        deadline = time.monotonic() + self._settings.cold_start_deadline
        pause = _COLD_POLL_FIRST_S
        conn = self._connection
        if conn is not None:
            await conn.wait_loaded(self._settings.cold_start_deadline)
        while True:
            result = await self.request(method, make)
            if not is_empty(result):
                self._warm = True
            if self._warm or time.monotonic() + pause > deadline:
                return result
            await asyncio.sleep(pause)
            pause = min(pause * 2, _COLD_POLL_MAX_S)
            if path is None:
                await self.sync_workspace()
            else:
                await self.sync(path)

    async def request(self, method: str, make: Callable[[LanguageClient], Awaitable[T]]) -> T:
        """Send one request to the running server; sent again (CONTENT_MODIFIED_TRIES in
        all) only while the server answers that the content moved under it, as the
        protocol asks of a client that still wants the answer."""
        conn = self._connection
        if conn is None or not conn.alive:
            detail = "it stopped before the request" if conn is None else conn.crash_detail()
            raise ServerCrashedError(self.spec.name, detail)
        conn.require(method)
        try:
            result = await _send(conn, method, make)
        except RequestTimeoutError:
            await self._unanswered_by(conn)
            raise
        except ServerCrashedError:
            await self._fail(conn)
            raise
        self._unanswered = 0
        return result

    def kill(self) -> None:
        """Kill the server at once, without a shutdown handshake or waiting: for a
        process about to exit (a hung server would not answer the handshake)."""
        if self._connection is not None:
            self._connection.kill()

    async def close(self) -> None:
        """Stop the server, leaving no process behind."""
        async with self._lock:
            conn, self._connection = self._connection, None
            self._disk.close()
            if conn is not None:
                await conn.close()

    # -- internals ------------------------------------------------------------

    async def _pushed(self) -> Connection:
        """The running server, told what changed on disk (the lock is held)."""
        await self._recycle_if_heavy()
        conn = await self._running()
        try:
            await self._disk.push(conn)
        except (ServerCrashedError, RequestTimeoutError):
            await self._fail(conn)
            raise
        return conn

    async def _recycle_if_heavy(self) -> None:
        """Stop a server that outgrew its memory bound (`lsp.recycle`; the lock is
        held): the next query starts it again, as after a crash but with no delay and
        no crash counted. Its documents are forgotten, not replayed: each query opens
        what it asks about, so the fresh server loads no more than it is asked."""
        conn = self._connection
        if conn is None or conn.pid is None or not conn.alive:
            return
        outgrown = self.recycler.outgrown(conn.pid, answered=self._warm, now=time.monotonic())
        if outgrown is None:
            return
        log.info(
            "%s holds %.0f MB (bound %.0f MB): restarting it",
            self.spec.name,
            outgrown.held_mb,
            outgrown.bound_mb,
        )
        self._connection = None
        self._documents.forget()
        await conn.close()

    async def _running(self) -> Connection:
        conn = self._connection
        if conn is not None and conn.alive:
            return conn
        if conn is not None:
            await self._fail(conn)
        if self._given_up():
            raise ServerGaveUpError(
                self.spec.name, len(self._crashes), self._settings.restart_window
            )
        if self._crashes:
            delay = _BACKOFF_FIRST_S * 2 ** (len(self._crashes) - 1)
            await asyncio.sleep(min(delay, _BACKOFF_MAX_S))
        self._disk.reset()
        conn = Connection(self.spec, self._root, self._executable, self._settings.request_timeout)
        self._connection = conn
        self._starts += 1
        self.recycler.started(time.monotonic())
        self._warm = False
        try:
            # Starting is part of the cold start: initialize may take the longer of both.
            settings = self._settings
            await conn.start(max(settings.request_timeout, settings.cold_start_deadline))
            self._documents.replay(conn)
        except (LspError, OSError) as exc:
            await self._fail(conn)
            # A broken install (the rustup shim) dies at once: say how to install it.
            report = await asyncio.to_thread(check_server, self.spec)
            if not report.found:
                raise NoServerError(
                    self.language, self.spec.name, self.spec.install, problem=report.problem
                ) from exc
            if isinstance(exc, OSError):
                raise ServerCrashedError(self.spec.name, f"could not start: {exc}") from exc
            raise
        return conn

    async def _unanswered_by(self, conn: Connection) -> None:
        """Count a request `conn` left unanswered; enough in a row mean it hangs."""
        if self._connection is not conn:
            return
        self._unanswered += 1
        if self._unanswered >= self._settings.hang_after_timeouts:
            await self._fail(conn)

    async def _fail(self, conn: Connection) -> None:
        """Record a crash or hang of `conn` (once) and make sure its process is gone."""
        if self._connection is not conn:
            return
        self._connection = None
        self._unanswered = 0
        now = time.monotonic()
        self._crashes.append(now)
        await conn.close(polite=False)

    def _given_up(self) -> bool:
        window_start = time.monotonic() - self._settings.restart_window
        while self._crashes and self._crashes[0] < window_start:
            self._crashes.popleft()
        return len(self._crashes) >= self._settings.restart_limit
