"""resolve's comparison: where a symbol is NOW, by the live server, against the map.

| field      | meaning |
|------------|---------|
| location   | the authoritative current location (the live one when verified) |
| mapStale   | the map's location differs from the live one (`mapRange` echoes the map) |
| relocated  | the node ID no longer names it (other container or file): re-found by name |
| verified   | false: no live answer; `location` is the map's range, flagged |

A symbol whose lines merely shifted keeps its node ID: `mapStale` is true,
`relocated` false. The surface's `resolve` tool renders a `Resolution`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from disk.errors import MissingFileError
from disk.paths import relative_posix, resolve_in_root
from lsp import (
    LspError,
    PositionError,
    ServerRequestError,
    UnknownLanguageError,
    UnsupportedFileError,
)
from verify.errors import SymbolGoneError, UnknownSymbolError
from verify.moves import Rename, renamed_to
from verify.recorded import MapEntry, map_entry, nearest_ids
from verify.symbols import LiveSymbol, find_by_name, find_exact, flatten
from verify.targets import NodeTarget
from verify.workspace import Workspace

_NOT_A_LIVE_FAILURE = (UnknownLanguageError, UnsupportedFileError, PositionError)
"""Live errors that say the question was wrong, not that no server could answer."""


def live_failure(exc: LspError) -> str:
    """A live error as one line: a server's own error without its stack frames
    (servers put traces in their JSON-RPC messages; tsserver its whole Node.js stack)."""
    if not isinstance(exc, ServerRequestError):
        return str(exc)
    kept = [
        line.strip()
        for line in str(exc).splitlines()
        if line.strip() and not line.lstrip().startswith(("at ", "Error: "))
    ]
    return " ".join(kept)


@dataclass(slots=True)
class Resolution:
    """What is known about one node now."""

    asked: NodeTarget
    live: LiveSymbol | None
    """The symbol as the live server sees it; None when no server answered."""
    path: str
    entry: MapEntry | None
    warnings: list[str] = field(default_factory=list)
    evidence: str | None = None
    """Why the node ID was followed to another symbol (git's rename, the map's
    record); set only for one found elsewhere than its ID names."""

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
            self.live.span.last_line,
        )


async def live_symbols(workspace: Workspace, path: str) -> list[LiveSymbol]:
    """The file's live outline as node-ID-named symbols."""
    return flatten(path, await workspace.live.document_symbols(path))


async def resolve_node(workspace: Workspace, target: NodeTarget) -> Resolution:
    """Find a node live; fall back to the map (unverified) when no server answers."""
    code_map = await workspace.code_map()
    entry = map_entry(code_map, target.node_id)
    try:
        return await resolve_live(workspace, target, entry)
    except LspError as exc:  # a live failure: answer from the map, flagged
        if entry is None or isinstance(exc, _NOT_A_LIVE_FAILURE):
            raise
        return Resolution(
            target,
            None,
            entry.path,
            entry,
            warnings=[f"not verified against a live server: {live_failure(exc)}"],
        )


async def resolve_live(
    workspace: Workspace, target: NodeTarget, entry: MapEntry | None = None
) -> Resolution:
    """Find a node with the live server: exactly by its ID, else (with evidence that
    it moved) by name in its file, else across the workspace.

    A node ID resolves to exactly what it names, or fails (`UnknownSymbolError`
    with the nearest IDs). It is followed elsewhere only with evidence that the
    code moved: git records a rename of its file, or the map recorded the node
    (it was there when the map was built). `entry` is the map's record when the
    caller has it; else the map is consulted once the ID is not found as it is."""
    path, symbols, rename = await _outline(workspace, target)
    exact = find_exact(symbols, NodeTarget(path, target.qualname, target.ordinal))
    if exact is not None:
        found = Resolution(
            target, exact, path, entry, evidence=rename.describe() if rename else None
        )
        return await _with_current_entry(workspace, found)
    if entry is None:
        entry = map_entry(await workspace.code_map(), target.node_id)
    evidence = _evidence(target, rename, entry)
    if evidence is None:
        raise UnknownSymbolError(
            _unknown(target, path, symbols),
            suggestions=await _suggestions(workspace, target, symbols),
        )
    name = target.parts[-1]
    same_file = _best(find_by_name(symbols, name), entry)
    if same_file is not None:
        return await _with_current_entry(
            workspace, Resolution(target, same_file, path, entry, evidence=evidence)
        )
    elsewhere = await _find_elsewhere(workspace, target, entry, path)
    if elsewhere is not None:
        found = Resolution(target, elsewhere[1], elsewhere[0], entry, evidence=evidence)
        return await _with_current_entry(workspace, found)
    if entry is None:
        raise UnknownSymbolError(
            f"{target.node_id}: {evidence}, but no symbol {name!r} is there nor elsewhere",
            suggestions=await _suggestions(workspace, target, symbols),
        )
    top = ", ".join(s.qualname for s in symbols if "." not in s.qualname)[:400]
    raise SymbolGoneError(
        f"{target.node_id}: not found in {path} nor elsewhere in the workspace "
        f"(the map had it at lines {entry.start_line}-{entry.end_line})",
        hint=f"top-level symbols of {path}: {top}" if top else "rebuild the map and search it",
    )


async def _with_current_entry(workspace: Workspace, found: Resolution) -> Resolution:
    """`found` compared with the map's record of the symbol where it is now, when the
    node ID was followed and the map knows the new ID (the map is then not stale
    for it, though the asked ID no longer names it)."""
    if found.live is None or not found.relocated:
        return found
    current = map_entry(await workspace.code_map(), found.live.node_id)
    if current is not None:
        found.entry = current
    return found


async def _outline(
    workspace: Workspace, target: NodeTarget
) -> tuple[str, list[LiveSymbol], Rename | None]:
    """The live outline of the target's file, or of the file git says it was renamed
    to when it is gone (with that rename); no symbols when neither is there."""
    root = workspace.root
    try:
        path = relative_posix(root, resolve_in_root(root, target.path))
    except MissingFileError:
        rename = await asyncio.to_thread(renamed_to, root, target.path)
        if rename is None:
            return target.path, [], None
        return rename.new, await live_symbols(workspace, rename.new), rename
    return path, await live_symbols(workspace, path), None


def _evidence(target: NodeTarget, rename: Rename | None, entry: MapEntry | None) -> str | None:
    """What says the node moved, in words; None when nothing does."""
    if rename is not None:
        return rename.describe()
    if entry is not None:
        return (
            f"the map recorded {target.node_id} at {entry.path} lines "
            f"{entry.start_line}-{entry.end_line} when it was built"
        )
    return None


def _unknown(target: NodeTarget, path: str, symbols: list[LiveSymbol]) -> str:
    """Why a node ID names nothing."""
    if not symbols and path == target.path:
        return (
            f"{target.node_id}: no file {path}, and neither git nor the map records that it moved"
        )
    return f"{target.node_id}: no such symbol in {path}, live or in the map"


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
    workspace: Workspace, target: NodeTarget, entry: MapEntry | None, searched: str
) -> tuple[str, LiveSymbol] | None:
    """Look the name up across the workspace (but `searched`); it may have moved files."""
    name = target.parts[-1]
    language = workspace.live.language_of(target.path)
    hits = await workspace.live.workspace_symbols(name, language=language)
    for path in dict.fromkeys(h.location.path for h in hits if h.name.endswith(name)):
        if path.startswith("/") or path in (target.path, searched):
            continue
        found = _best(find_by_name(await live_symbols(workspace, path), name), entry)
        if found is not None:
            return path, found
    return None


async def _suggestions(
    workspace: Workspace, target: NodeTarget, symbols: list[LiveSymbol]
) -> list[str]:
    """The nearest IDs the map (or the file's live outline) knows, by path first."""
    live = [s.node_id for s in symbols]
    return nearest_ids(await workspace.code_map(), target.node_id, extra=live)
