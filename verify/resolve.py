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
    """Find a node with the live server alone: by ID, else by name in its file, else
    across the workspace. `entry` (the map's record) only breaks ties by kind; the
    map is opened only to suggest IDs for one nobody knows."""
    name = target.parts[-1]
    try:
        path = relative_posix(workspace.root, resolve_in_root(workspace.root, target.path))
        symbols = await live_symbols(workspace, path)
    except MissingFileError:
        path, symbols = target.path, []
    exact = find_exact(symbols, target)
    if exact is not None:
        return Resolution(target, exact, path, entry)
    same_file = _best(find_by_name(symbols, name), entry)
    if same_file is not None:
        return Resolution(target, same_file, path, entry)
    elsewhere = await _find_elsewhere(workspace, target, entry)
    if elsewhere is not None:
        return Resolution(target, elsewhere[1], elsewhere[0], entry)
    if entry is None:
        raise UnknownSymbolError(
            f"{target.node_id}: no such symbol in the map or the live server",
            suggestions=await _suggestions(workspace, target, symbols),
        )
    top = ", ".join(s.qualname for s in symbols if "." not in s.qualname)[:400]
    raise SymbolGoneError(
        f"{target.node_id}: not found in {path} nor elsewhere in the workspace "
        f"(the map had it at lines {entry.start_line}-{entry.end_line})",
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
    workspace: Workspace, target: NodeTarget, entry: MapEntry | None
) -> tuple[str, LiveSymbol] | None:
    """Look the name up across the workspace; the symbol may have moved files."""
    name = target.parts[-1]
    language = workspace.live.language_of(target.path)
    hits = await workspace.live.workspace_symbols(name, language=language)
    for path in dict.fromkeys(h.location.path for h in hits if h.name.endswith(name)):
        if path.startswith("/") or path == target.path:
            continue
        found = _best(find_by_name(await live_symbols(workspace, path), name), entry)
        if found is not None:
            return path, found
    return None


async def _suggestions(
    workspace: Workspace, target: NodeTarget, symbols: list[LiveSymbol]
) -> list[str]:
    """The nearest IDs the live outline or the map knows."""
    live = [s.node_id for s in symbols]
    return nearest_ids(await workspace.code_map(), target.node_id, extra=live)
