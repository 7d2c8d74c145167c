"""resolve: where a symbol is NOW, checked against the live server and the map.

The comparison itself (`mapStale`, `relocated`, `verified`) is verification's
(`verify.resolve_node`); this tool parses the target and renders the answer.
"""

from __future__ import annotations

from pathlib import Path

from bridge.context import AppContext
from bridge.contract.envelope import respond
from bridge.contract.nav_shapes import ResolveAnswer, ResolveData, TargetLine
from bridge.contract.render import SymbolPlace, live_symbol
from bridge.contract.schema_types import Budget, Name, Target
from bridge.tools.live_target import followed_warning
from bridge.tools.mapview import map_stamp
from bridge.tools.targets import PositionTarget, checked_path, parse_target, to_lsp_position
from disk.errors import DiskError
from disk.text import read_source
from verify import MapEntry, Resolution, enclosing, live_symbols, resolve_node

SIGNATURE_CHARS = 200


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
        if res.relocated:
            data["requestedId"] = res.asked.node_id
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
    """Where a symbol is now: for a node ID, the map's location checked live
    (`location`, `mapStale` with `mapRange`, `relocated` with `currentId`, `verified`);
    for `path:LINE[:COL]`, the node IDs enclosing it."""
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
    if res.live is not None and res.relocated and res.evidence is not None:
        warnings.insert(0, followed_warning(parsed.node_id, res.live.node_id, res.evidence))
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
