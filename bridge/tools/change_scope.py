"""The files the diagnostics of a change cover (`nav_diagnostics` without `path`).

A change breaks code in the files it changed and in the files that use what it
changed, so both are checked, in this order (the first reason a file has is
the one it is listed with):

    changed               a file the diff changed (deleted ones left out)
    uses_changed_symbol   a first-hop user, in the map, of a symbol the diff
                          changed: the dependents `map_changes` lists, at
                          distance 1 (`ChangeSet.dependents`)
    names_removed_symbol  a file naming a symbol the diff removed, renamed or
                          moved: its old node ID left the map with its edges,
                          so the candidate scan (`verify.scan`) looks for its
                          old name as a whole word, in the files of its
                          language's server
    references_changed_symbol
                          a file the live server finds referring to a changed
                          symbol whose users the map knows only in part (its
                          verdict partial: uses it could not tie to a
                          definition), so the live references widen the set
    imports_changed_file  a file importing a changed file (the map's imports
                          edges; a C or C++ file's includers through the
                          headers including it too): a change of a type or a
                          signature can break it without a call the map could
                          see (a structural type, an inferred one, a
                          function's definition beside its prototype)
    same_package          (Go) a file of a changed file's package, which uses
                          its names without importing anything

Among the importers, files naming a changed symbol come first (a cap may leave
the rest); each group by path. Only files a language server knows by their
extension are kept. What could not be looked for is said (`unknown`): the users
of changed files the map does not hold, old names past `MAX_NAMES`, a scan
stopped at its file cap.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import get_args

from bridge.context import AppContext
from bridge.contract.change_shapes import CheckedFor
from bridge.contract.errors import ToolError
from bridge.tools.changes import ChangeSet, read_change
from bridge.tools.live_target import aim_at
from lsp import LspError
from memory import Diff
from verify import Scan, judge_dependents, scan

MAX_NAMES = 10
"""Old names of removed, renamed or moved symbols searched for in one answer."""
GONE = frozenset({"removed", "renamed", "moved"})
"""The symbol changes whose old node ID left the map."""
INCLUDE_DEPTH = 6
"""A C or C++ file's includers are followed this many hops: a file sees a header
through the headers it includes (zlib's inflate.c sees zlib.h through zutil.h), and
a source file included as a header (cJSON's tests include ../cJSON.c through
common.h) is seen the same way."""
_ORDER = {why: rank for rank, why in enumerate(get_args(CheckedFor))}


@dataclass(frozen=True, slots=True)
class ToCheck:
    """A file to check, why, and the changed symbols (node IDs; old ones for
    `names_removed_symbol`) that brought it in."""

    path: str
    why: CheckedFor
    symbols: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ChangeScope:
    """The files to check, in order, what could not be looked for (sentences), and
    the diff they come from."""

    files: list[ToCheck]
    unknown: list[str]
    diff: Diff | None
    """None: a single file asked for outside a git repository (no baseline)."""


async def change_scope(app: AppContext, since: str) -> ChangeScope:
    """The files the change from `since` to the working tree may have broken."""
    change = await read_change(app, since)
    found: dict[str, tuple[CheckedFor, set[str]]] = {}

    def add(path: str, why: CheckedFor, symbol: str | None = None) -> None:
        if path.startswith("..") or path.startswith("/"):
            return
        if app.catalog.language_of(path) is None:
            return
        was, symbols = found.get(path, (why, set()))
        found[path] = (why if _ORDER[why] < _ORDER[was] else was, symbols)
        if symbol is not None and found[path][0] != "changed":
            symbols.add(symbol)

    for old, file in change.diff.files.items():
        if file.kind != "deleted":
            add(file.new_path or old, "changed")
    for symbol in change.symbols:
        for user in change.dependents(symbol, 1):
            add(user.node_id.partition("#")[0], "uses_changed_symbol", symbol.node_id)
    unknown = _unmapped(app, change)
    gone = [s.old_id for s in change.symbols if s.change in GONE and s.old_id]
    for old_id in gone[:MAX_NAMES]:
        found_scan = await _naming(app, old_id)
        if found_scan.capped:
            unknown.append(
                f"the search for {found_scan.name!r} ({old_id}) stopped at "
                f"{found_scan.files_scanned} files"
            )
        for site in found_scan.sites:
            add(site.path, "names_removed_symbol", old_id)
    if gone[MAX_NAMES:]:
        unknown.append(
            f"{len(gone) - MAX_NAMES} more removed, renamed or moved symbols were not searched "
            f"for (cap {MAX_NAMES}): {', '.join(gone[MAX_NAMES : MAX_NAMES + 5])}"
        )
    await _referencing(app, change, add, unknown)
    for old, file in change.diff.files.items():
        now = file.new_path or old
        if file.kind == "deleted" or not change.code_map.has_node(now):
            continue
        for user in change.code_map.neighbors(now, "in", ["imports"], import_depth(app, now, 1)):
            add(user.node_id.partition("#")[0], "imports_changed_file")
        if app.catalog.language_of(now) == "go":
            for sibling in sorted(change.code_map.files()):
                if PurePosixPath(sibling).parent == PurePosixPath(now).parent:
                    add(sibling, "same_package")
    files = [ToCheck(p, why, tuple(sorted(s))) for p, (why, s) in found.items()]
    names = {_short(s.node_id or s.old_id or "") for s in change.symbols} - {""}
    naming = await asyncio.to_thread(_naming_files, app, files, names)
    files.sort(key=lambda f: (_ORDER[f.why], f.path not in naming, f.path))
    return ChangeScope(files, unknown, change.diff)


def _short(node_id: str) -> str:
    """The plain name of the symbol `node_id` (its last dotted part, no `~N`)."""
    return node_id.partition("#")[2].partition("~")[0].rpartition(".")[2]


def _naming_files(app: AppContext, files: list[ToCheck], names: set[str]) -> set[str]:
    """The files brought in as importers that name a changed symbol as a word: checked
    first among them, for a cap may leave the rest (libuv: uv.h's 200 includers, the
    tests calling the changed function after the sources that do not)."""
    pattern = re.compile(r"\b(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")
    found = set()
    for file in files:
        if not names or file.why != "imports_changed_file":
            continue
        try:
            text = (app.root / file.path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        if pattern.search(text):
            found.add(file.path)
    return found


def import_depth(app: AppContext, path: str, depth: int) -> int:
    """How many hops of imports edges to follow to the files importing `path`: `depth`,
    or INCLUDE_DEPTH for a C or C++ file."""
    return INCLUDE_DEPTH if app.catalog.language_of(path) in ("c", "cpp") else depth


def _unmapped(app: AppContext, change: ChangeSet) -> list[str]:
    """Changed files a server serves but the map does not hold: their symbols' users
    are unknown."""
    missing = sorted(
        now
        for old, file in change.diff.files.items()
        if file.kind != "deleted"
        and app.catalog.language_of(now := file.new_path or old) is not None
        and not change.code_map.has_node(now)
    )
    if not missing:
        return []
    return [
        f"the map does not hold {len(missing)} changed files ({', '.join(missing[:3])}): "
        "the files using their symbols were not looked for"
    ]


async def _referencing(
    app: AppContext,
    change: ChangeSet,
    add: Callable[[str, CheckedFor, str | None], None],
    unknown: list[str],
) -> None:
    """Add the files the live server finds referring to each changed symbol whose
    users the map knows only in part (at most MAX_NAMES symbols)."""
    partial = [
        s.node_id
        for s in change.symbols
        if s.change not in GONE
        and s.node_id is not None
        and change.code_map.has_node(s.node_id)
        and not judge_dependents(change.code_map, s.node_id, change.dependents(s, 1), 1).complete
    ]
    for node_id in partial[:MAX_NAMES]:
        try:
            aim = await aim_at(app, node_id, None)
            at = aim.position
            found = await app.live.references(at.path, at.line, at.character)
        except (LspError, ToolError) as exc:
            unknown.append(f"the live references of {node_id} could not be had: {exc}")
            continue
        for location in found:
            add(location.path, "references_changed_symbol", node_id)
    if partial[MAX_NAMES:]:
        unknown.append(
            f"{len(partial) - MAX_NAMES} more changed symbols whose users the map knows only "
            f"in part were not looked up live (cap {MAX_NAMES})"
        )


async def _naming(app: AppContext, old_id: str) -> Scan:
    """Where the name of the symbol `old_id` appears as a word, in the files of its
    language's server (of its file's extension when none is chosen)."""
    path, _, qual = old_id.partition("#")
    language = app.catalog.language_of(path)
    spec = app.catalog.server_for_language(language) if language else None
    settings = app.map_settings
    return await asyncio.to_thread(
        scan,
        app.root,
        qual.partition("~")[0].rpartition(".")[2],
        spec.extensions if spec is not None else (PurePosixPath(path).suffix,),
        exclude=settings.exclude,
        snapshot_dir=settings.snapshot_dir,
        max_file_bytes=settings.max_file_bytes,
        cache=app.check_cache,
    )
