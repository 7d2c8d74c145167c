"""nav_*: questions answered by the LIVE language server, with disk re-synced first.

A TARGET is a node ID (`path#Qual.Name`, found live first, so it is never
stale), or `path:LINE[:COL]`, or `path:LINE` with `name` (the column of that
name on the line). Lines and columns are 1-based.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath
from typing import TypeVar

from bridge.context import AppContext
from bridge.contract.envelope import Ranked, ranked_lists, respond
from bridge.contract.errors import BadInputError, NotFoundError, UnavailableError
from bridge.contract.nav_shapes import (
    CalleesAnswer,
    CalleesData,
    CallersAnswer,
    CallersData,
    HoverAnswer,
    HoverData,
    LocationsAnswer,
    LocationsData,
    OutlineAnswer,
    OutlineData,
    TargetLine,
    WorkspaceSymbolsAnswer,
    WorkspaceSymbolsData,
    checked,
    verdict_warnings,
)
from bridge.contract.render import by_importance, call_site, location, outline, workspace_symbol
from bridge.contract.schema_types import (
    Budget,
    FilePath,
    IncludeDeclaration,
    LanguageFilter,
    Name,
    SymbolQuery,
    Target,
)
from bridge.contract.server_errors import server_error
from bridge.tools.symbol_search import search_symbols
from bridge.tools.targets import checked_path, parse_node_id, parse_target, to_lsp_position
from disk.errors import DiskError
from disk.paths import resolve_in_root
from disk.text import read_source
from lsp import (
    CallSite,
    Location,
    ServerCrashedError,
    ServerGaveUpError,
    ServerRequestError,
    WorkspaceSymbol,
)
from verify import (
    LiveSymbol,
    LspPosition,
    NodeTarget,
    Question,
    by_target,
    callers_from_callees,
    cross_checked,
    flatten,
    resolve_live,
    symbol_named,
)

T = TypeVar("T")
NAMED_FILES = 24
"""Files whose live outline names the workspace symbols found in them (node ID, line)."""


async def retry_once(
    call: Callable[[], Awaitable[T]], app: AppContext | None = None, path: str = ""
) -> T:
    """Run a live query; when its server crashed, run it once more on the restarted one.

    Given `app` and the queried `path`: a server error that the workspace explains
    (e.g. Go modules missing from the module cache) says so, its fix as the hint.
    """
    try:
        try:
            return await call()
        except ServerGaveUpError:
            raise
        except ServerCrashedError:
            return await call()
    except ServerRequestError as exc:
        problems = [] if app is None else app.live.workspace_problems(path)
        if not problems:
            raise server_error(exc) from exc
        cause = f"{problems[0].cause} ({exc.server} failed {exc.method})"
        raise UnavailableError(cause, code="workspace_incomplete", hint=problems[0].fix) from exc


@dataclass(frozen=True, slots=True)
class Aim:
    """Where a TARGET points; for a node ID followed to another symbol (evidence that
    the code moved), the ID asked, the ID answered for, and the evidence."""

    position: LspPosition
    requested: str | None = None
    current: str | None = None
    evidence: str | None = None

    def target(self) -> TargetLine:
        """The answer's `target`, naming both IDs when the asked one was followed."""
        line = TargetLine(path=self.position.path, line=self.position.line + 1)
        if self.requested is not None and self.current is not None:
            line["requestedId"] = self.requested
            line["currentId"] = self.current
        return line

    def warnings(self) -> list[str]:
        """The first warning of an answer for a followed node ID."""
        if self.requested is None:
            return []
        return [followed_warning(self.requested, self.current or "", self.evidence or "")]


def followed_warning(requested: str, current: str, evidence: str) -> str:
    """What an answer for a node ID followed to another says first."""
    return f"{requested} no longer names a symbol: answering for {current} ({evidence})"


async def aim_at(app: AppContext, target: str, name: str | None) -> Aim:
    """Where a TARGET points; a node ID is looked up live first, and followed
    elsewhere only with evidence that it moved (see `verify.resolve_live`)."""
    parsed = parse_target(target, name=name)
    if isinstance(parsed, NodeTarget):
        if parsed.qualname is None:
            raise BadInputError(
                f"{target!r} names a whole file; name a symbol (path#Qual.Name) or a "
                "position (path:LINE[:COL])"
            )
        res = await resolve_live(app, parsed)
        selection = res.live.selection if res.live is not None else None
        if res.live is None or selection is None:
            raise NotFoundError(f"{parsed.node_id}: no live server could locate it")
        position = LspPosition(res.path, selection.start_line, selection.start_char, "")
        if not res.relocated:
            return Aim(position)
        return Aim(position, parsed.node_id, res.live.node_id, res.evidence)
    return Aim(to_lsp_position(app.root, parsed))


def workspace_warnings(app: AppContext, path: str) -> list[str]:
    """What keeps the server for `path` from answering in full, found by its last query."""
    return [problem.warning for problem in app.live.workspace_problems(path)]


def loading_warnings(app: AppContext, path: str) -> list[str]:
    """A warning when the server answered while still loading the workspace."""
    if not app.live.still_loading(path):
        return []
    return [
        "the language server is still loading the workspace: this answer may be "
        "incomplete; ask again in a few seconds"
    ]


def _location_places(found: list[Location]) -> set[tuple[str, int]]:
    return {(loc.path, loc.line) for loc in found}


def _call_places(found: list[CallSite]) -> set[tuple[str, int]]:
    return {(s.location.path, span.start_line + 1) for s in found for span in s.call_spans}


async def _locations(
    app: AppContext,
    target: str,
    name: str | None,
    budget: int | None,
    query: Callable[[LspPosition], Awaitable[list[Location]]],
    question: Question | None = None,
    *,
    leave_out_declaration: bool = False,
) -> LocationsAnswer:
    budget_tokens = app.budget(budget)
    aim = await aim_at(app, target, name)
    position = aim.position
    warnings = aim.warnings() + loading_warnings(app, position.path)
    data = LocationsData(target=aim.target(), count=0, locations=[])
    if question is None:
        found = await retry_once(lambda: query(position), app, position.path)
    else:
        excluded: set[tuple[str, int]] = set()
        if leave_out_declaration:
            declared = await retry_once(
                lambda: app.live.definition(position.path, position.line, position.character),
                app,
                position.path,
            )
            excluded = _location_places(declared)
        found, verdict = await cross_checked(
            app,
            position,
            question,
            lambda: retry_once(lambda: query(position), app, position.path),
            _location_places,
            excluded=excluded,
        )
        data = LocationsData(target=aim.target(), count=0, locations=[], **checked(verdict))
        warnings = aim.warnings() + loading_warnings(app, position.path)
        warnings += verdict_warnings(verdict)
    ordered = sorted(found, key=lambda loc: (loc.path != position.path, loc.path, loc.line))
    data["count"] = len(ordered)
    data["locations"] = [location(loc) for loc in ordered]
    return respond(
        data,
        budget_tokens=budget_tokens,
        items_key="locations",
        ranked=ranked_lists(data, "locations", "unconfirmed") if "unconfirmed" in data else None,
        warnings=warnings + workspace_warnings(app, position.path),
    )


async def nav_definition(
    app: AppContext, target: Target, name: Name = None, budget: Budget = None
) -> LocationsAnswer:
    """Where the symbol at TARGET is defined (live). Returns `locations`, each with
    path, 1-based line and column, and the text of that line, and `completeness`
    (see nav_references): when the server finds no definition, the same-name
    definitions the map sees are listed in `unconfirmed`."""
    return await _locations(
        app,
        target,
        name,
        budget,
        lambda p: app.live.definition(p.path, p.line, p.character),
        "definition",
    )


async def nav_type_definition(
    app: AppContext, target: Target, name: Name = None, budget: Budget = None
) -> LocationsAnswer:
    """Where the TYPE of the symbol at TARGET is defined (live): e.g. the class of a
    variable. Returns `locations` like nav_definition."""
    return await _locations(
        app, target, name, budget, lambda p: app.live.type_definition(p.path, p.line, p.character)
    )


async def nav_implementations(
    app: AppContext, target: Target, name: Name = None, budget: Budget = None
) -> LocationsAnswer:
    """Implementations of the interface, abstract method or type at TARGET (live).
    Returns `locations` like nav_definition, and `completeness` (see nav_references):
    same-name definitions and classes inheriting the name that the server did not
    return are listed in `unconfirmed`."""
    return await _locations(
        app,
        target,
        name,
        budget,
        lambda p: app.live.implementations(p.path, p.line, p.character),
        "implementations",
    )


async def nav_references(
    app: AppContext,
    target: Target,
    name: Name = None,
    include_declaration: IncludeDeclaration = True,
    budget: Budget = None,
) -> LocationsAnswer:
    """Every use of the symbol at TARGET across the workspace (live, after re-syncing
    disk, so files edited a moment ago count). Returns `count` and `locations` (the
    target's own file first); the budget may drop the tail, and says so.

    Checked against every line of the workspace naming the symbol: `completeness`
    is "complete", or "partial" with `completenessReasons` ({code, message}), and
    the lines the server did not confirm are in `unconfirmed` ({path, line, column,
    text, source: "map" (code the map sees) or "text" (a comment or string),
    seenAs}), never in `locations`. For servers that search only their open or
    indexed files, the files naming the symbol are opened first (`priming`:
    filesOpened, ms, cap, capHit)."""
    return await _locations(
        app,
        target,
        name,
        budget,
        lambda p: app.live.references(
            p.path, p.line, p.character, include_declaration=include_declaration
        ),
        "references",
        leave_out_declaration=not include_declaration,
    )


async def nav_hover(
    app: AppContext, target: Target, name: Name = None, budget: Budget = None
) -> HoverAnswer:
    """The type, signature and documentation of the symbol at TARGET, as the
    language server shows them on hover (markdown in `contents`)."""
    budget_tokens = app.budget(budget)
    aim = await aim_at(app, target, name)
    position = aim.position
    info = await retry_once(
        lambda: app.live.hover(position.path, position.line, position.character),
        app,
        position.path,
    )
    return respond(
        HoverData(target=aim.target(), contents=info.contents if info is not None else None),
        budget_tokens=budget_tokens,
        warnings=aim.warnings()
        + ([] if info is not None else ["the server has nothing to show there"]),
    )


async def nav_symbols(app: AppContext, path: FilePath, budget: Budget = None) -> OutlineAnswer:
    """The live outline of one file: classes, functions, methods... nested as in the
    code, each with its node ID (usable as a TARGET) and 1-based lines. When the
    budget cuts it, what is inside function bodies (locals, parameters) goes
    first, then the deepest members: top-level classes and functions stay."""
    budget_tokens = app.budget(budget)
    file_path = checked_path(app.root, parse_node_id(path).path)
    nodes = await retry_once(lambda: app.live.document_symbols(file_path))
    ids = {
        (s.selection.start_line, s.selection.start_char): s.node_id
        for s in flatten(file_path, nodes)
    }
    ranking = by_importance(nodes)

    def keep(count: int) -> OutlineData:
        kept = None if count == len(ranking) else frozenset(ranking[:count])
        return OutlineData(path=file_path, symbols=outline(nodes, ids, kept))

    return respond(
        keep(len(ranking)),
        budget_tokens=budget_tokens,
        ranked=Ranked("symbols", len(ranking), keep),
    )


async def nav_workspace_symbols(
    app: AppContext, query: SymbolQuery, language: LanguageFilter = None, budget: Budget = None
) -> WorkspaceSymbolsAnswer:
    """Symbols whose name matches `query` anywhere in the workspace (live), exact
    names first, then names starting with it, then names containing it. By default
    every language the workspace has source files in is asked (`languages` says
    which); a language whose server fails or is missing is a warning."""
    budget_tokens = app.budget(budget)
    if not query.strip():
        raise BadInputError("empty query", hint="pass part of a symbol's name")
    found = await search_symbols(
        app,
        query,
        language,
        lambda lang: retry_once(lambda: app.live.workspace_symbols(query, language=lang)),
    )
    named, unnamed_files = await name_symbols(app, found.symbols)
    warnings = list(found.warnings)
    if unnamed_files:
        warnings.append(
            f"node IDs are given for the symbols of the first {NAMED_FILES} files; "
            f"{unnamed_files} more files' symbols have nodeId null (narrow the query)"
        )
    return respond(
        WorkspaceSymbolsData(
            query=query,
            languages=found.languages,
            count=len(found.symbols),
            symbols=[workspace_symbol(s, live) for s, live in named],
        ),
        budget_tokens=budget_tokens,
        items_key="symbols",
        warnings=warnings,
    )


async def name_symbols(
    app: AppContext, symbols: Sequence[WorkspaceSymbol]
) -> tuple[list[tuple[WorkspaceSymbol, LiveSymbol | None]], int]:
    """Each symbol at the line of its name, with itself in its file's live outline (its
    node ID and container), for the symbols of the first `NAMED_FILES` workspace files
    in rank order; and how many more files' symbols were left unnamed."""
    files = list(dict.fromkeys(s.location.path for s in symbols if not _external(s)))
    asked = set(files[:NAMED_FILES])
    live = await asyncio.gather(
        *(
            symbol_named(app, s.location.path, s.location.span.start_line, s.name)
            if s.location.path in asked
            else _nothing()
            for s in symbols
        )
    )
    named = [
        (s if found is None else _at_name(app, s, found), found)
        for s, found in zip(symbols, live, strict=True)
    ]
    return named, len(files) - len(asked)


async def _nothing() -> None:
    return None


def _external(symbol: WorkspaceSymbol) -> bool:
    return PurePosixPath(symbol.location.path).is_absolute()


def _at_name(app: AppContext, symbol: WorkspaceSymbol, live: LiveSymbol) -> WorkspaceSymbol:
    """`symbol` placed at the line and column of its name."""
    where = live.selection
    try:
        lines = read_source(resolve_in_root(app.root, symbol.location.path)).splitlines()
    except DiskError:
        return symbol
    text = lines[where.start_line] if where.start_line < len(lines) else ""
    place = Location(symbol.location.path, where, where.start_line + 1, text)
    return replace(symbol, location=place)


async def nav_callers(
    app: AppContext, target: Target, name: Name = None, budget: Budget = None
) -> CallersAnswer:
    """Functions that call the function at TARGET (live call hierarchy), one entry
    per caller with where it is defined and `callLines`, the lines of the calls;
    checked against the calls the map and a text scan see, with `completeness` and
    `unconfirmed` as in nav_references."""
    budget_tokens = app.budget(budget)
    aim = await aim_at(app, target, name)
    position = aim.position
    sites, verdict = await cross_checked(
        app,
        position,
        "callers",
        lambda: retry_once(
            lambda: app.live.incoming_calls(position.path, position.line, position.character),
            app,
            position.path,
        ),
        _call_places,
        recover=lambda sites: callers_from_callees(app, position, sites),
    )
    callers = [call_site(s) for s in by_target(sites)]
    data = CallersData(target=aim.target(), count=len(callers), callers=callers, **checked(verdict))
    warnings = aim.warnings() + loading_warnings(app, position.path) + verdict_warnings(verdict)
    warnings += workspace_warnings(app, position.path)
    return respond(
        data,
        budget_tokens=budget_tokens,
        ranked=ranked_lists(data, "callers", "unconfirmed"),
        warnings=warnings,
    )


async def nav_callees(
    app: AppContext, target: Target, name: Name = None, budget: Budget = None
) -> CalleesAnswer:
    """Functions the function at TARGET calls (live call hierarchy), one entry per
    callee with where it is defined and `callLines`, the lines of its calls in
    TARGET's file; callees in the workspace first, library ones last."""
    budget_tokens = app.budget(budget)
    aim = await aim_at(app, target, name)
    position = aim.position
    sites = await retry_once(
        lambda: app.live.outgoing_calls(position.path, position.line, position.character),
        app,
        position.path,
    )
    callees = [call_site(s) for s in by_target(sites)]
    data = CalleesData(target=aim.target(), count=len(callees), callees=callees)
    warnings = aim.warnings() + loading_warnings(app, position.path)
    warnings += workspace_warnings(app, position.path)
    return respond(data, budget_tokens=budget_tokens, items_key="callees", warnings=warnings)
