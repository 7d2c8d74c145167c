"""nav_*: questions answered by the LIVE language server, with disk re-synced first.

A TARGET is a node ID (`path#Qual.Name`, found live first, so it is never
stale), or `path:LINE[:COL]`, or `path:LINE` with `name` (the column of that
name on the line). Lines and columns are 1-based.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from bridge.context import AppContext
from bridge.contract.envelope import Ranked, ranked_lists, respond
from bridge.contract.errors import BadInputError
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
from bridge.tools.callees_check import check_callees, live_callees
from bridge.tools.live_target import (
    aim_at,
    loading_warnings,
    retry_once,
    workspace_warnings,
)
from bridge.tools.symbol_search import NAMED_FILES, name_symbols, search_symbols
from bridge.tools.targets import checked_path, parse_node_id
from lsp import (
    CallSite,
    Location,
)
from verify import (
    LspPosition,
    Question,
    by_target,
    cross_checked,
    flatten,
    recovered_callers,
)

T = TypeVar("T")


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
    """Where the symbol at TARGET is defined (live): `locations` (path, 1-based line
    and column, the line's text) and `completeness` (see nav_references); when
    the server finds none, the map's same-name definitions are in `unconfirmed`."""
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
    """Implementations of the interface, abstract method or type at TARGET (live):
    `locations` like nav_definition; same-name definitions and subclasses the
    server did not return are in `unconfirmed`."""
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
    """Every use of the symbol at TARGET across the workspace (live: files edited a
    moment ago count), its own file first. Checked against every line naming it:
    `completeness`, with `completenessReasons` when "partial"; lines the server did
    not confirm are in `unconfirmed`."""
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
    """The live outline of one file, nested as in the code, each symbol with its
    node ID (usable as a TARGET) and 1-based lines. A budget cut drops locals
    first, then the deepest members."""
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
    """Symbols whose name matches `query` anywhere in the workspace (live): exact
    names first, then prefixes, then substrings. Every language of the workspace
    is asked (`languages`); one whose server fails or is missing is a warning."""
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


async def nav_callers(
    app: AppContext, target: Target, name: Name = None, budget: Budget = None
) -> CallersAnswer:
    """Functions that call the function at TARGET (live call hierarchy), each with
    `callLines`; cross-checked as nav_references is (`completeness`, `unconfirmed`)."""
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
        recover=lambda sites: recovered_callers(app, position, sites),
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
    """Functions the function at TARGET calls (live call hierarchy): each callee's
    definition and `callLines`, workspace first; `completeness` against the calls
    the map sees in its body (`missed`: node IDs not listed)."""
    budget_tokens = app.budget(budget)
    aim = await aim_at(app, target, name)
    position = aim.position

    def outgoing(at: LspPosition) -> Awaitable[list[CallSite]]:
        return retry_once(
            lambda: app.live.outgoing_calls(at.path, at.line, at.character), app, at.path
        )

    sites = await live_callees(app, position, outgoing)
    check = await check_callees(app, position, sites)
    callees = [call_site(s) for s in by_target(sites)]
    data = CalleesData(
        target=aim.target(),
        count=len(callees),
        callees=callees,
        completeness=check.completeness,
        completenessReasons=check.reasons,
        missed=check.missed,
    )
    warnings = aim.warnings() + loading_warnings(app, position.path)
    warnings += workspace_warnings(app, position.path)
    return respond(data, budget_tokens=budget_tokens, items_key="callees", warnings=warnings)
