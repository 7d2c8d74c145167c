"""resolve: where a symbol is NOW, checked against the live server and the map.

| field      | meaning |
|------------|---------|
| location   | the authoritative current location (the live one when verified) |
| mapStale   | the map's location differs from the live one (`mapRange` echoes the map) |
| relocated  | the node ID no longer names it (other container or file): re-found by name |
| verified   | false: no live answer; `location` is the map's range, flagged |

A symbol whose lines merely shifted keeps its node ID: `mapStale` is true,
`relocated` false.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from bridge.context import AppContext
from bridge.envelope import respond
from bridge.errors import NotFoundError, UnavailableError, UnknownIdError
from bridge.mapview import MapEntry, map_entry, map_stamp, nearest_ids
from bridge.nav_shapes import ResolveAnswer, ResolveData, TargetLine
from bridge.render import SymbolPlace, lines_of, live_symbol
from bridge.schema_types import Budget, Name, Target
from bridge.server_errors import server_error
from bridge.symbols import LiveSymbol, enclosing, find_by_name, find_exact, flatten
from bridge.targets import NodeTarget, PositionTarget, checked_path, parse_target, to_lsp_position
from bridge.translate import as_tool_error
from disk.errors import DiskError, MissingFileError
from disk.text import read_source
from lsp import ServerRequestError

SIGNATURE_CHARS = 200


@dataclass(slots=True)
class Resolution:
    """What is known about one node now."""

    asked: NodeTarget
    live: LiveSymbol | None
    """The symbol as the live server sees it; None when no server answered."""
    path: str
    entry: MapEntry | None
    warnings: list[str] = field(default_factory=list)

    @property
    def verified(self) -> bool:
        """A live server confirmed where the symbol is."""
        return self.live is not None

    @property
    def relocated(self) -> bool:
        """The node ID no longer names the symbol: it was re-found by name."""
        return self.live is not None and self.live.node_id != self.asked.node_id

    @property
    def map_stale(self) -> bool:
        """The map's location differs from the live one (or the map lacks it)."""
        if self.live is None:
            return False
        if self.entry is None:
            return True
        return (self.entry.node_id, self.entry.selection_line, self.entry.end_line) != (
            self.live.node_id,
            self.live.selection.start_line + 1,
            lines_of(self.live.span)["endLine"],
        )


async def live_symbols(app: AppContext, path: str) -> list[LiveSymbol]:
    """The file's live outline as node-ID-named symbols."""
    try:
        return flatten(path, await app.live.document_symbols(path))
    except ServerRequestError as exc:
        raise server_error(exc) from exc


async def resolve_node(app: AppContext, target: NodeTarget) -> Resolution:
    """Find a node live; fall back to the map (unverified) when no server answers."""
    code_map = await app.code_map()
    entry = map_entry(code_map, target.node_id)
    try:
        return await resolve_live(app, target, entry)
    except Exception as exc:  # a live failure: answer from the map, flagged
        error = as_tool_error(exc)
        if entry is None or not isinstance(error, UnavailableError):
            raise
        return Resolution(
            target,
            None,
            entry.path,
            entry,
            warnings=[f"not verified against a live server: {error.message}"],
        )


async def resolve_live(
    app: AppContext, target: NodeTarget, entry: MapEntry | None = None
) -> Resolution:
    """Find a node with the live server alone: by ID, else by name in its file, else
    across the workspace. `entry` (the map's record) only breaks ties by kind; the
    map is opened only to suggest IDs for one nobody knows."""
    name = target.parts[-1]
    try:
        path = checked_path(app.root, target.path)
        symbols = await live_symbols(app, path)
    except MissingFileError:
        path, symbols = target.path, []
    exact = find_exact(symbols, target)
    if exact is not None:
        return Resolution(target, exact, path, entry)
    same_file = _best(find_by_name(symbols, name), entry)
    if same_file is not None:
        return Resolution(target, same_file, path, entry)
    elsewhere = await _find_elsewhere(app, target, entry)
    if elsewhere is not None:
        return Resolution(target, elsewhere[1], elsewhere[0], entry)
    if entry is None:
        raise UnknownIdError(
            f"{target.node_id}: no such symbol in the map or the live server",
            suggestions=await _suggestions(app, target, symbols),
        )
    top = ", ".join(s.qualname for s in symbols if "." not in s.qualname)[:400]
    raise NotFoundError(
        f"{target.node_id}: not found in {path} nor elsewhere in the workspace "
        f"(the map had it at lines {entry.start_line}-{entry.end_line})",
        code="symbol_not_found",
        hint=f"top-level symbols of {path}: {top}" if top else "rebuild the map and search it",
    )


def _best(candidates: list[LiveSymbol], entry: MapEntry | None) -> LiveSymbol | None:
    """The candidate most like the map's entry: same kind first, then same name."""
    if not candidates:
        return None
    if entry is not None:
        same_kind = [c for c in candidates if c.kind == entry.lsp_kind]
        if same_kind:
            return same_kind[0]
    return candidates[0]


async def _find_elsewhere(
    app: AppContext, target: NodeTarget, entry: MapEntry | None
) -> tuple[str, LiveSymbol] | None:
    """Look the name up across the workspace; the symbol may have moved files."""
    name = target.parts[-1]
    language = app.live.language_of(target.path)
    try:
        hits = await app.live.workspace_symbols(name, language=language)
    except ServerRequestError as exc:
        raise server_error(exc) from exc
    for path in dict.fromkeys(h.location.path for h in hits if h.name.endswith(name)):
        if path.startswith("/") or path == target.path:
            continue
        found = _best(find_by_name(await live_symbols(app, path), name), entry)
        if found is not None:
            return path, found
    return None


async def _suggestions(app: AppContext, target: NodeTarget, symbols: list[LiveSymbol]) -> list[str]:
    """The nearest IDs the live outline or the map knows."""
    live = [s.node_id for s in symbols]
    return nearest_ids(await app.code_map(), target.node_id, extra=live)


def _resolution_data(root: Path, res: Resolution) -> ResolveData:
    data = ResolveData(
        nodeId=res.asked.node_id,
        verified=res.verified,
        location=None,
        mapStale=res.map_stale if res.verified else None,
        relocated=res.relocated,
        mapRange=_map_place(res.entry) if res.entry is not None else None,
    )
    if res.live is not None:
        data["currentId"] = res.live.node_id
        data["location"] = live_symbol(res.live, res.path)
        data["kind"] = res.live.kind
        data["signature"] = res.live.detail or _line_text(
            root, res.path, res.live.selection.start_line
        )
    elif res.entry is not None:
        data["currentId"] = res.entry.node_id
        data["location"] = _map_place(res.entry)
        data["kind"] = res.entry.kind
    return data


def _map_place(entry: MapEntry) -> SymbolPlace:
    """The map's view of a symbol (what `mapRange` echoes)."""
    return SymbolPlace(
        nodeId=entry.node_id,
        path=entry.path,
        startLine=entry.start_line,
        endLine=entry.end_line,
        selectionLine=entry.selection_line,
    )


def _line_text(root: Path, path: str, line: int) -> str | None:
    """One line of a file, stripped and capped (the symbol's signature line)."""
    try:
        lines = read_source(root / path).splitlines()
    except DiskError:
        return None
    return lines[line].strip()[:SIGNATURE_CHARS] if line < len(lines) else None


async def resolve(
    app: AppContext, target: Target, name: Name = None, budget: Budget = None
) -> ResolveAnswer:
    """Where a symbol is now: give a node ID (`path#Qual.Name`) to check the map's
    location against the live language server, or `path:LINE[:COL]` to get the
    node IDs enclosing that position. Returns `location` (current, authoritative),
    `mapStale` (the map is out of date for it; `mapRange` shows the map's view),
    `relocated` (it moved to another class or file; `currentId` is its new ID) and
    `verified` (false: no server answered; `location` is the map's, unconfirmed).
    """
    parsed = parse_target(target, name=name)
    budget_tokens = app.budget(budget)
    if isinstance(parsed, PositionTarget):
        return await _resolve_position(app, parsed, budget_tokens)
    if parsed.qualname is None:
        path = checked_path(app.root, parsed.path)
        return respond(
            ResolveData(nodeId=path, verified=True, location=SymbolPlace(nodeId=path, path=path)),
            budget_tokens=budget_tokens,
        )
    res = await resolve_node(app, parsed)
    code_map = await app.code_map()
    stamp = map_stamp(code_map, {res.path, parsed.path})
    warnings = list(res.warnings)
    if res.verified and res.map_stale:
        warnings.append(f"the map is out of date for {parsed.node_id}; map_rebuild refreshes it")
    return respond(
        _resolution_data(app.root, res),
        budget_tokens=budget_tokens,
        warnings=warnings,
        map_built_at=stamp.built_at,
        stale=stamp.stale,
    )


async def _resolve_position(app: AppContext, target: PositionTarget, budget: int) -> ResolveAnswer:
    position = to_lsp_position(app.root, target)
    symbols = await live_symbols(app, position.path)
    chain = enclosing(symbols, position.line, position.character)
    return respond(
        ResolveData(
            position=TargetLine(path=position.path, line=target.line),
            enclosing=[s.node_id for s in chain],
            location=live_symbol(chain[-1], position.path) if chain else None,
            verified=True,
        ),
        budget_tokens=budget,
    )
