"""One language-server process and the pygls client that talks to it.

`Connection` starts the process, answers the requests a server sends the
client (`workspace/configuration`, `client/registerCapability`,
`window/workDoneProgress/create`), drains its stderr, puts a timeout on every
request and turns every failure into an `lsp.errors` exception. It knows
nothing of documents or retries: that is `lsp.session`'s job.

What the client announces, and how a server's capabilities and configuration
requests are read: `lsp.handshake`; how a server is started so that it dies
with this process: `lsp.launch`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.client import LanguageClient

from lsp.catalog import ServerSpec
from lsp.errors import (
    RequestTimeoutError,
    ServerCrashedError,
    ServerRequestError,
    UnsupportedQueryError,
)
from lsp.handshake import PROVIDERS, client_capabilities, configuration_answer
from lsp.launch import launch_command
from lsp.published import PublishedDiagnostics
from lsp.uris import uri_of

T = TypeVar("T")

_CLIENT_NAME = "codeanchor"
_CLIENT_VERSION = "0.1.0"
_STDERR_LINES_KEPT = 40
_CLOSE_GRACE_S = 2.0

# Notifications servers send that we have no use for (registered so pygls
# does not log each one as unknown).
FILE_STATUS = "textDocument/clangd.fileStatus"
"""clangd's own notification of what it does with a file (`clangdFileStatus`)."""
_IGNORED_NOTIFICATIONS = (
    types.WINDOW_SHOW_MESSAGE,
    types.TELEMETRY_EVENT,
    "$/typescriptVersion",  # typescript-language-server's own, sent once at start
)


def _accept_quietly(ls: LanguageClient, params: object) -> None:
    """Acknowledge a server request or notification that needs nothing from us.

    (pygls passes the client first to a handler whose first parameter is `ls`.)
    """


class Connection:
    """A started language server: typed requests in, `lsp.errors` out, never a hang."""

    def __init__(self, spec: ServerSpec, root: Path, executable: Path, timeout: float) -> None:
        self.spec = spec
        self.root = root
        self.timeout = timeout
        self._executable = executable
        self._client = LanguageClient(_CLIENT_NAME, _CLIENT_VERSION)
        self._process: asyncio.subprocess.Process | None = None
        self._stderr: deque[str] = deque(maxlen=_STDERR_LINES_KEPT)
        self._stderr_task: asyncio.Task[None] | None = None
        self._capabilities = types.ServerCapabilities()
        self._loading: set[int | str] = set()
        self._ready_log = [re.compile(pattern) for pattern in spec.ready_log]
        self.published = PublishedDiagnostics(spec.publish_quiet_s)
        """The diagnostics the server pushed (`textDocument/publishDiagnostics`)."""
        self.loaded = asyncio.Event()
        """Set once the server says it loaded the workspace (the catalog's
        `indexing_progress` ended, or a `ready_log` message came)."""
        self._loading_since = time.monotonic()
        """When the server began loading the workspace: its `initialized`, or the
        rescan that cleared `loaded`."""
        if not spec.reports_indexing(root) and not spec.ready_log:
            self.loaded.set()
        self._register_handlers()

    # -- life cycle -------------------------------------------------------

    async def start(self, within: float) -> None:
        """Launch the process and run the initialize handshake (within `within` s)."""
        await self._client.start_io(
            *launch_command(str(self._executable), *self.spec.command[1:]),
            cwd=str(self.root),
            env={**os.environ, **self.spec.env},
            start_new_session=True,
        )
        self._process = self._client._server  # pygls keeps the process it started here
        if self._process is not None and self._process.stderr is not None:
            self._stderr_task = asyncio.create_task(self._drain(self._process.stderr))
        folder = types.WorkspaceFolder(uri=uri_of(self.root), name=self.root.name)
        params = types.InitializeParams(
            process_id=os.getpid(),
            client_info=types.ClientInfo(name=_CLIENT_NAME, version=_CLIENT_VERSION),
            root_uri=folder.uri,
            root_path=str(self.root),
            workspace_folders=[folder],
            capabilities=client_capabilities(),
            initialization_options=dict(self.spec.initialization_options) or None,
        )
        result = await self.call(
            types.INITIALIZE, self._client.initialize_async(params), within=within
        )
        self._capabilities = result.capabilities
        self.notify(lambda c: c.initialized(types.InitializedParams()))
        self._loading_since = time.monotonic()

    async def close(self, *, polite: bool = True) -> None:
        """Shut the server down (politely first, unless told not to); no process stays."""
        process = self._process
        if not polite:
            self.kill()
        if process is not None and process.returncode is None:
            if polite:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self._client.shutdown_async(None), _CLOSE_GRACE_S)
                    self._client.exit(None)
            try:
                await asyncio.wait_for(process.wait(), _CLOSE_GRACE_S)
            except TimeoutError:
                self.kill()
                await process.wait()
        if process is not None:
            self._kill_group(process.pid)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                self._client.stop(),  # type: ignore[no-untyped-call]  # pygls leaves it unannotated
                _CLOSE_GRACE_S,
            )
        if self._stderr_task is not None:
            self._stderr_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._stderr_task

    def kill(self) -> None:
        """Kill the process (and anything it started) at once."""
        if self._process is not None and self._process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()
            self._kill_group(self._process.pid)

    @staticmethod
    def _kill_group(pid: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)

    # -- facts ------------------------------------------------------------

    @property
    def pid(self) -> int | None:
        """The server's process id, once started."""
        return None if self._process is None else self._process.pid

    @property
    def alive(self) -> bool:
        """True while the process runs and the client still reads from it.

        Asks the kernel too (without reaping the child): asyncio learns of an
        exit a moment late, and a query sent in that moment would be lost.
        """
        process = self._process
        if process is None or process.returncode is not None or self._client.stopped:
            return False
        if sys.platform != "linux":
            return True
        try:
            exited = os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:  # already reaped: asyncio is about to hear of it
            return False
        return exited is None

    def supports(self, method: str) -> bool:
        """Whether the server announced the capability `method` needs."""
        provider = getattr(self._capabilities, PROVIDERS[method], None)
        return provider is not None and provider is not False

    def crash_detail(self) -> str:
        """Why the server is gone: its exit code and the end of its stderr."""
        code = None if self._process is None else self._process.returncode
        tail = " | ".join(list(self._stderr)[-5:])
        exit_text = "still running" if code is None else f"exit code {code}"
        return f"{exit_text}" + (f"; stderr: {tail}" if tail else "")

    # -- traffic ----------------------------------------------------------

    def require(self, method: str) -> None:
        """Raise UnsupportedQueryError when the server lacks `method`."""
        if not self.supports(method):
            raise UnsupportedQueryError(self.spec.name, method)

    async def call(self, method: str, request: Awaitable[T], within: float | None = None) -> T:
        """Await one request for `within` seconds (default: the request timeout),
        mapping every failure to an LspError (the limit is a parameter, not an
        outer asyncio.timeout, because the error names it)."""
        seconds = self.timeout if within is None else within
        try:
            return await asyncio.wait_for(request, seconds)
        except TimeoutError:
            raise RequestTimeoutError(self.spec.name, method, seconds) from None
        except JsonRpcException as exc:
            detail = f"{exc.code}: {exc}"
            raise ServerRequestError(self.spec.name, method, detail, exc.code) from exc
        except (RuntimeError, ConnectionError) as exc:
            raise ServerCrashedError(self.spec.name, self.crash_detail()) from exc

    def notify(self, send: Callable[[LanguageClient], None]) -> None:
        """Send one notification; raises ServerCrashedError when the server is gone."""
        if not self.alive:
            raise ServerCrashedError(self.spec.name, self.crash_detail())
        try:
            send(self._client)
        except (RuntimeError, ConnectionError) as exc:
            raise ServerCrashedError(self.spec.name, self.crash_detail()) from exc

    def did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        """Send textDocument/didOpen."""
        self.notify(lambda c: c.text_document_did_open(params))
        self.published.sent(params.text_document.uri, params.text_document.version)

    def did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        """Send textDocument/didChange."""
        self.notify(lambda c: c.text_document_did_change(params))
        self.published.sent(params.text_document.uri, params.text_document.version)

    def did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        """Send textDocument/didClose."""
        self.notify(lambda c: c.text_document_did_close(params))
        self.published.closed(params.text_document.uri)

    def did_change_watched_files(self, params: types.DidChangeWatchedFilesParams) -> None:
        """Send workspace/didChangeWatchedFiles.

        A server with a `ready_log` rescans the workspace when files come or go,
        and answers from the old file set until it logs that message again.
        """
        if self._ready_log and any(
            event.type != types.FileChangeType.Changed for event in params.changes
        ):
            self.loaded.clear()
            self._loading_since = time.monotonic()
        self.notify(lambda c: c.workspace_did_change_watched_files(params))

    async def wait_loaded(self, deadline: float) -> None:
        """Wait until the server says it loaded the workspace, or until `deadline`
        seconds after it began loading (`initialized`, or the rescan that cleared
        `loaded`) have passed: a server whose word never comes costs one deadline
        per loading, never one per query."""
        left = self._loading_since + deadline - time.monotonic()
        if left > 0 and not self.loaded.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.loaded.wait(), left)

    @property
    def lsp(self) -> LanguageClient:
        """The pygls client, for typed `*_async` requests passed to `call`."""
        return self._client

    # -- what the server asks of us -----------------------------------------

    def _register_handlers(self) -> None:
        """Answer what servers ask of a client (pygls needs plain functions here)."""
        client = self._client
        folders = [types.WorkspaceFolder(uri=uri_of(self.root), name=self.root.name)]

        def configuration(params: types.ConfigurationParams) -> list[Any]:
            return [configuration_answer(self.spec.settings, i.section) for i in params.items]

        def workspace_folders(params: None) -> list[types.WorkspaceFolder]:
            return folders

        def progress(params: types.ProgressParams) -> None:
            self._observe_progress(params.token, params.value)

        def log_message(params: types.LogMessageParams) -> None:
            if any(pattern.search(params.message) for pattern in self._ready_log):
                self.loaded.set()

        def diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self.published.publish(params)

        def file_status(params: Any) -> None:  # a pygls Object (a namedtuple)
            uri, state = getattr(params, "uri", None), getattr(params, "state", None)
            if isinstance(uri, str) and isinstance(state, str):
                self.published.status(uri, state)

        client.feature(types.PROGRESS)(progress)
        client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(diagnostics)
        client.feature(FILE_STATUS)(file_status)
        client.feature(types.WINDOW_LOG_MESSAGE)(log_message)
        client.feature(types.WORKSPACE_CONFIGURATION)(configuration)
        client.feature(types.WORKSPACE_WORKSPACE_FOLDERS)(workspace_folders)
        for method in (
            types.CLIENT_REGISTER_CAPABILITY,
            types.CLIENT_UNREGISTER_CAPABILITY,
            types.WINDOW_WORK_DONE_PROGRESS_CREATE,
            *_IGNORED_NOTIFICATIONS,
        ):
            client.feature(method)(_accept_quietly)

    def _observe_progress(self, token: int | str, value: Any) -> None:
        """Follow the `$/progress` of workspace loading; set `loaded` when it ends."""
        fields = value if isinstance(value, Mapping) else getattr(value, "__dict__", {})
        kind, title = fields.get("kind"), str(fields.get("title") or "")
        markers = self.spec.indexing_progress
        if kind == "begin" and (str(token) in markers or any(title.startswith(m) for m in markers)):
            self._loading.add(token)
        elif kind == "end" and token in self._loading:
            self._loading.discard(token)
            if not self._loading:
                self.loaded.set()

    async def _drain(self, stream: asyncio.StreamReader) -> None:
        """Read stderr to the end so the server never blocks on a full pipe."""
        while line := await stream.readline():
            self._stderr.append(line.decode("utf-8", errors="replace").rstrip())
