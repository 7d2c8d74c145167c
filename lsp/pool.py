"""The live layer's front door: typed queries against the right language server.

`LivePool` starts one `ServerSession` per server on first use. Every query
resolves the path inside the root (raising `disk.errors` for bad paths),
picks the server by extension, syncs the disk into the server, checks the
position and asks. Positions are LSP positions (0-based line, UTF-16
column); results are `lsp.model` types with repo-relative paths.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from disk.errors import DiskError
from disk.paths import resolve_in_root
from lsp.catalog import Catalog, ServerSpec
from lsp.compdb import GeneratedDatabase
from lsp.convert import Converter, LocationResult
from lsp.diagnostics import DiagnosticsReport, diagnostics_of, held_diagnostics
from lsp.documents import OpenDocument
from lsp.edits import FileEdits, file_edits
from lsp.errors import (
    NoServerError,
    PositionError,
    ServerRequestError,
    UnknownLanguageError,
    UnsupportedFileError,
)
from lsp.locate import locate
from lsp.model import (
    CallSite,
    DocumentSymbolNode,
    HoverInfo,
    Location,
    ServerStatus,
    WorkspaceSymbol,
)
from lsp.problems import WorkspaceChecks, WorkspaceProblem
from lsp.session import ServerSession
from lsp.settings import LiveSettings

P = TypeVar("P")


class LivePool:
    """Language servers for one workspace root, answering from the disk as it is now."""

    def __init__(
        self, root: Path, catalog: Catalog | None = None, settings: LiveSettings | None = None
    ) -> None:
        self.root = root.resolve()
        self.catalog = catalog or Catalog.builtin()
        self.settings = settings or LiveSettings()
        self._sessions: dict[str, ServerSession] = {}
        self._executables: dict[str, Path] = {}
        self._checks = WorkspaceChecks(self.root)

    # -- routing --------------------------------------------------------------

    def language_of(self, path: str) -> str:
        """The language of `path`; raises UnsupportedFileError or NoServerError."""
        language = self.catalog.language_of(path)
        if language is None:
            raise UnsupportedFileError(path)
        self._server_for(language)
        return language

    def _server_for(self, language: str) -> tuple[ServerSpec, Path]:
        spec = self.catalog.server_for_language(language)
        if spec is None:
            known = sorted({lang for s in self.catalog.servers.values() for lang in s.languages})
            if language not in known:
                raise UnknownLanguageError(language, known)
            raise NoServerError(language, "(none chosen)", "choose one in [tool.codeanchor]")
        executable = self._executables.get(spec.name) or locate(spec.command[0])
        if executable is None:
            raise NoServerError(language, spec.name, spec.install)
        self._executables[spec.name] = executable
        return spec, executable

    def session(self, language: str) -> ServerSession:
        """The session serving `language`, made (not started) on first use.

        Queries go through the pool's methods; this is for diagnostics and
        benchmarks that need the server itself (e.g. a request without sync).
        """
        spec, executable = self._server_for(language)
        session = self._sessions.get(spec.name)
        if session is None:
            database = GeneratedDatabase.for_server(spec, self.root)
            launch = spec if database is None else database.launch(spec)
            session = ServerSession(launch, self.root, executable, self.settings, language)
            self._sessions[spec.name] = session
        return session

    @property
    def batch(self) -> int:
        """How many documents to open together so that each is still open when asked
        about (half the open-document limit; the rest stay for the overlaid ones)."""
        return max(1, self.settings.max_open_documents // 2)

    def still_loading(self, path: str) -> bool:
        """True when the server for `path` is running but still loading the
        workspace, so an answer it just gave may be incomplete."""
        session = self._made(path)
        return session is not None and session.loading

    def pulls_diagnostics(self, path: str) -> bool:
        """True when the running server for `path` answers `textDocument/diagnostic`
        itself, for many files at once (a check cheap per file); False while it is
        not running, when it only publishes, or when it is asked through tsserver
        one file at a time."""
        session = self._made(path)
        return (
            session is not None
            and not session.spec.pull_through_tsserver
            and session.supports(types.TEXT_DOCUMENT_DIAGNOSTIC)
        )

    def _made(self, path: str) -> ServerSession | None:
        """The session serving `path`, if one was made (it may not be running)."""
        language = self.catalog.language_of(path)
        spec = None if language is None else self.catalog.server_for_language(language)
        return None if spec is None else self._sessions.get(spec.name)

    def workspace_problems(self, path: str) -> list[WorkspaceProblem]:
        """What keeps the server for `path` from answering in full (Go modules
        missing from the module cache, C headers in no include folder), as found
        around its last query."""
        language = self.catalog.language_of(path)
        return [] if language is None else self._checks.found(language)

    async def _open(self, path: str) -> tuple[ServerSession, OpenDocument]:
        absolute = resolve_in_root(self.root, path)
        session = self.session(self.language_of(str(absolute)))
        if await self._checks.check(session.spec, session.language, absolute):
            await session.close()  # it loaded the workspace broken: the next sync restarts it
        return session, await session.sync(absolute)

    async def _at(
        self, path: str, line: int, character: int
    ) -> tuple[ServerSession, OpenDocument, types.TextDocumentIdentifier, types.Position]:
        session, doc = await self._open(path)
        line_count = doc.line_count
        if line < 0 or line >= max(1, line_count) or character < 0:
            raise PositionError(path, line, line_count)
        return (
            session,
            doc,
            types.TextDocumentIdentifier(uri=doc.uri),
            types.Position(line=line, character=character),
        )

    # -- queries --------------------------------------------------------------

    async def definition(self, path: str, line: int, character: int) -> list[Location]:
        """Where the symbol at the position is defined."""
        return await self._locations(
            types.TEXT_DOCUMENT_DEFINITION,
            (path, line, character),
            types.DefinitionParams,
            LanguageClient.text_document_definition_async,
        )

    async def type_definition(self, path: str, line: int, character: int) -> list[Location]:
        """Where the type of the symbol at the position is defined."""
        return await self._locations(
            types.TEXT_DOCUMENT_TYPE_DEFINITION,
            (path, line, character),
            types.TypeDefinitionParams,
            LanguageClient.text_document_type_definition_async,
        )

    async def implementations(self, path: str, line: int, character: int) -> list[Location]:
        """The implementations of the interface or method at the position."""
        return await self._locations(
            types.TEXT_DOCUMENT_IMPLEMENTATION,
            (path, line, character),
            types.ImplementationParams,
            LanguageClient.text_document_implementation_async,
        )

    async def references(
        self, path: str, line: int, character: int, *, include_declaration: bool = True
    ) -> list[Location]:
        """Every reference to the symbol at the position, across the workspace."""
        context = types.ReferenceContext(include_declaration=include_declaration)
        return await self._locations(
            types.TEXT_DOCUMENT_REFERENCES,
            (path, line, character),
            lambda ident, pos: types.ReferenceParams(
                context=context, text_document=ident, position=pos
            ),
            LanguageClient.text_document_references_async,
        )

    async def _locations(
        self,
        method: str,
        at: tuple[str, int, int],
        params: Callable[[types.TextDocumentIdentifier, types.Position], P],
        send: Callable[[LanguageClient, P], Awaitable[LocationResult]],
    ) -> list[Location]:
        """Ask `method` (`send` with `params` made for the position `at`) for locations."""
        session, doc, ident, pos = await self._at(*at)
        request = params(ident, pos)
        result = await session.ask(method, lambda c: send(c, request), path=doc.path)
        return Converter(self.root).locations(result)

    async def hover(self, path: str, line: int, character: int) -> HoverInfo | None:
        """What the server shows on hover at the position."""
        session, doc, ident, pos = await self._at(path, line, character)
        params = types.HoverParams(text_document=ident, position=pos)
        result = await session.ask(
            types.TEXT_DOCUMENT_HOVER,
            lambda c: c.text_document_hover_async(params),
            path=doc.path,
        )
        return Converter.hover(result)

    async def document_symbols(self, path: str) -> list[DocumentSymbolNode]:
        """The file's outline as a tree."""
        session, doc = await self._open(path)
        params = types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=doc.uri))
        result = await session.ask(
            types.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
            lambda c: c.text_document_document_symbol_async(params),
            path=doc.path,
        )
        return Converter(self.root).document_symbols(result)

    async def diagnostics(self, path: str, *, within: float) -> DiagnosticsReport:
        """The errors and warnings of `path` now (see `lsp.diagnostics`): pulled, or
        published and waited for at most `within` seconds."""
        session, doc = await self._open(path)
        return await diagnostics_of(session, session, doc, self.root, within)

    async def diagnostics_as_if(
        self, texts: Mapping[str, str], paths: Sequence[str], *, within: float
    ) -> dict[str, DiagnosticsReport]:
        """The diagnostics `paths` would have if the files in `texts` held those texts
        (a baseline, e.g. the files at a commit): each server concerned is held with
        them (its other queries wait), asked, then sent the disk again. Paths without
        a server or that cannot be read are left out."""
        groups: dict[str, tuple[ServerSession, dict[Path, str], dict[str, Path]]] = {}
        for path in dict.fromkeys([*texts, *paths]):
            with contextlib.suppress(DiskError, NoServerError, UnsupportedFileError):
                absolute = resolve_in_root(self.root, path)
                session = self.session(self.language_of(str(absolute)))
                _, overlay, wanted = groups.setdefault(session.spec.name, (session, {}, {}))
                if path in texts:
                    overlay[absolute] = texts[path]
                if path in paths:
                    wanted[path] = absolute
        found: dict[str, DiagnosticsReport] = {}
        for session, overlay, wanted in groups.values():
            async with session.overlaid(overlay) as held:
                found.update(
                    await held_diagnostics(
                        held, session, wanted, self.root, within=within, batch=self.batch
                    )
                )
        return found

    async def sync(self, paths: Sequence[str]) -> None:
        """Push the disk into the servers of `paths` now (after codeanchor wrote them)."""
        for path in paths:
            with contextlib.suppress(DiskError, NoServerError, UnsupportedFileError):
                await self._open(path)

    async def rename(self, path: str, line: int, character: int, new_name: str) -> list[FileEdits]:
        """The text edits per file that renaming the symbol at the position takes
        (nothing is written); refuses edits outside the root or on files themselves."""
        session, doc, ident, pos = await self._at(path, line, character)
        params = types.RenameParams(text_document=ident, position=pos, new_name=new_name)
        result = await session.ask(
            types.TEXT_DOCUMENT_RENAME,
            lambda c: c.text_document_rename_async(params),
            path=doc.path,
        )
        return file_edits(self.root, result)

    async def workspace_symbols(
        self, query: str, *, language: str = "python"
    ) -> list[WorkspaceSymbol]:
        """Symbols whose name matches `query`, from the language's server."""
        session = self.session(language)
        await session.sync_workspace()
        params = types.WorkspaceSymbolParams(query=query)
        result = await session.ask(
            types.WORKSPACE_SYMBOL, lambda c: c.workspace_symbol_async(params)
        )
        return Converter(self.root).workspace_symbols(result)

    async def prime(self, paths: Sequence[str]) -> list[str]:
        """Open those of `paths` their server does not have open, and ask each one's
        outline (servers build what they know of a file then), so servers that
        search only open files see them. Returns the paths it opened; unreadable
        files are skipped, and an outline the server refuses is left unasked.
        """
        opened: list[tuple[ServerSession, OpenDocument, str]] = []
        for path in paths:
            with contextlib.suppress(DiskError):
                absolute = resolve_in_root(self.root, path)
                session = self.session(self.language_of(str(absolute)))
                if absolute not in session.open_documents():
                    opened.append((session, await session.sync(absolute), path))
        await asyncio.gather(*(_outline(session, doc) for session, doc, _ in opened))
        return [path for _, _, path in opened]

    async def incoming_calls(self, path: str, line: int, character: int) -> list[CallSite]:
        """Who calls the function at the position, and where."""
        session, items = await self._call_items(path, line, character)
        found: list[tuple[types.CallHierarchyItem, Sequence[types.Range]]] = []
        for item in items:
            calls = await session.request(types.CALL_HIERARCHY_INCOMING_CALLS, _incoming(item))
            found.extend((call.from_, call.from_ranges) for call in calls or ())
        return Converter(self.root).call_sites(found)

    async def outgoing_calls(self, path: str, line: int, character: int) -> list[CallSite]:
        """What the function at the position calls, and where."""
        session, items = await self._call_items(path, line, character)
        found: list[tuple[types.CallHierarchyItem, Sequence[types.Range]]] = []
        for item in items:
            calls = await session.request(types.CALL_HIERARCHY_OUTGOING_CALLS, _outgoing(item))
            found.extend((call.to, call.from_ranges) for call in calls or ())
        return Converter(self.root).call_sites(found)

    async def _call_items(
        self, path: str, line: int, character: int
    ) -> tuple[ServerSession, Sequence[types.CallHierarchyItem]]:
        session, doc, ident, pos = await self._at(path, line, character)
        params = types.CallHierarchyPrepareParams(text_document=ident, position=pos)
        items = await session.ask(
            types.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY,
            lambda c: c.text_document_prepare_call_hierarchy_async(params),
            path=doc.path,
        )
        return session, items or ()

    # -- the pool -----------------------------------------------------------

    def status(self) -> list[ServerStatus]:
        """Every server started so far: pid, state, restarts and memory."""
        return [
            ServerStatus(
                name=name,
                language=session.language,
                pid=session.pid,
                state=session.state,
                restarts=session.restarts,
                recycles=session.recycler.recycles,
                held_mb=session.recycler.held_mb,
                bound_mb=session.recycler.bound_mb(),
            )
            for name, session in sorted(self._sessions.items())
        ]

    def open_document_count(self) -> int:
        """Documents open in all servers now (each server keeps `max_open_documents`)."""
        return sum(len(session.open_documents()) for session in self._sessions.values())

    def kill_all(self) -> None:
        """Kill every server at once, hung or not, without waiting (the process exits)."""
        for session in self._sessions.values():
            session.kill()

    async def aclose(self) -> None:
        """Shut every server down; no process is left behind."""
        await asyncio.gather(*(s.close() for s in self._sessions.values()))


async def _outline(session: ServerSession, doc: OpenDocument) -> None:
    params = types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=doc.uri))
    with contextlib.suppress(ServerRequestError):
        await session.request(
            types.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
            lambda c: c.text_document_document_symbol_async(params),
        )


def _incoming(
    item: types.CallHierarchyItem,
) -> Callable[[LanguageClient], Awaitable[Sequence[types.CallHierarchyIncomingCall] | None]]:
    params = types.CallHierarchyIncomingCallsParams(item=item)
    return lambda c: c.call_hierarchy_incoming_calls_async(params)


def _outgoing(
    item: types.CallHierarchyItem,
) -> Callable[[LanguageClient], Awaitable[Sequence[types.CallHierarchyOutgoingCall] | None]]:
    params = types.CallHierarchyOutgoingCallsParams(item=item)
    return lambda c: c.call_hierarchy_outgoing_calls_async(params)
