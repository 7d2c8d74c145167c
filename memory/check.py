"""Check memories against the code as it is now: one result per reference, worst case per memory.

Git is asked a fixed number of times per check, however many distinct
anchor commits there are (see `Workspace.prefetch`): what changed since each,
with renames; and, when a file or symbol is not found, one walk of history
since them all (`memory.lineage`). A reference into a file git reports untouched is valid
without reading it. Everything else is read, hashed and (for symbols) extracted once
per content. Staleness is reported, never corrected: each result carries the
place the reference points to now, which `verify` may adopt.

A symbol no longer under its node ID is followed (`memory.follow`), then
through its renames and moves in git history (`memory.follow_history`); a
line range whose text is gone is looked for as a similar block
(`memory.blocks`); neither is ever matched on equal content alone, and two
equally good candidates give `unknown` (reason `ambiguous`) with both listed.
What each confidence level rests on: `memory.confidence`. With a
`LiveConfirm` (from the bridge), every symbol found somewhere is confirmed by
a language server (`memory.live`). A stored reference whose path is not a
plain path inside the root (edited by hand: `../../etc/passwd`) is `unknown`
(invalid_ref) and never read.

Reasons, by status:
    valid       unchanged, whitespace_only
    relocated   lines_moved, git_rename, content_moved, container_changed,
                moved_to_other_file
    renamed     same_body_new_name
    modified    file_changed_since_commit, file_changed, renamed_with_edits,
                symbol_changed, lines_changed, moved_with_edits,
                container_changed_with_edits
    deleted     file_deleted, symbol_not_found, lines_gone, not_found_no_history,
                not_found_history_cut
    unknown     unreadable, invalid_ref, ambiguous
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from disk.errors import DiskError
from map import Symbol, fingerprint_text
from memory.anchor import find_symbol
from memory.blocks import check_range
from memory.confidence import Confidence
from memory.described import weighed, with_change
from memory.files import FileNow
from memory.follow import follow_symbol
from memory.follow_history import (
    carried_to_containers,
    carried_to_members,
    not_found,
    renamed_in_history,
    via_container,
    with_since,
)
from memory.live import LiveConfirm, confirm_live
from memory.model import (
    Anchor,
    CheckSettings,
    Memory,
    MemoryCheck,
    Place,
    RefCheck,
    RefReason,
    derive_status,
    effective_status,
)
from memory.renames import Renames
from memory.results import ambiguous, place_of, whitespace_note, whitespace_only
from memory.workspace import Workspace

NO_CODE = fingerprint_text("", None).normalized
"""The normalized fingerprint of a file without code (empty, blank or comments only)."""

DEFAULT_SETTINGS = CheckSettings()
DependencyProbe = Callable[[Anchor, RefCheck], tuple[str, ...]]
"""Names the direct callees of a checked symbol that changed since its anchor commit."""


@dataclass(frozen=True, slots=True)
class _FileFate:
    """What became of the file a reference pointed into."""

    how: Literal["unchanged", "moved", "changed", "gone", "unreadable", "ambiguous"]
    path: str | None = None
    file: FileNow | None = None
    reason: RefReason = "unchanged"
    confidence: float | None = None
    candidates: tuple[str, ...] = ()
    error: str = ""
    """Why the file could not be read (`how` is "unreadable")."""


def check_memories(
    ws: Workspace,
    memories: Sequence[Memory],
    *,
    dependencies: DependencyProbe | None = None,
    live: LiveConfirm | None = None,
    settings: CheckSettings = DEFAULT_SETTINGS,
) -> list[MemoryCheck]:
    """Check every reference of every memory; statuses follow docs/contracts.md.

    Every `modified` result says what kind of change it was; `settings` says
    which kinds make a memory stale (`memory.described`). Renames in history
    are traced over one walk of history for all memories (`memory.renames`),
    each question answered once, so a class and its members tell one story.
    `live`, when given, confirms every symbol the check found somewhere. The
    cyclic garbage collector is off meanwhile: a check makes a few small
    objects per reference and frees almost none until it ends, and each
    automatic pass would walk every memory loaded (not `map.gcpause`: freezing
    would keep the run's caches, which hold cycles, for good).
    """
    commits = {a.commit for m in memories for a in m.anchors if a.commit and not a.dirty}
    ws.prefetch(commits)
    results = []
    renames = Renames(ws, commits)
    collecting = gc.isenabled()
    gc.disable()
    try:
        for memory, found in zip(memories, _checked(ws, memories, renames), strict=True):
            refs = tuple(with_change(ws, r) for r in found)
            if dependencies is not None:
                refs = tuple(
                    _with_dependencies(a, r, dependencies)
                    for a, r in zip(memory.anchors, refs, strict=True)
                )
            if live is not None:
                refs = tuple(confirm_live(r, live) for r in refs)
            weights = [weighed(r, settings) for r in refs]
            refs = tuple(r for _, r in weights)
            warnings = [w for r in refs for w in r.warnings] + _branch_warnings(ws, memory)
            derived = derive_status(tuple(s for s, _ in weights))
            results.append(
                MemoryCheck(memory, effective_status(memory.status, derived), refs, tuple(warnings))
            )
    finally:
        if collecting:
            gc.enable()
        ws.history.close()
    return results


def _checked(ws: Workspace, memories: Sequence[Memory], renames: Renames) -> list[list[RefCheck]]:
    """Every reference checked, then classes followed through their members, then members
    through their classes (one story per rename)."""
    found = [[check_anchor(ws, anchor, renames) for anchor in m.anchors] for m in memories]
    at = [(i, j) for i, memory in enumerate(memories) for j in range(len(memory.anchors))]
    pairs = [(memories[i].anchors[j], found[i][j]) for i, j in at]
    for carry in (carried_to_containers, carried_to_members):
        for index, result in carry(ws, pairs).items():
            i, j = at[index]
            found[i][j] = result
            pairs[index] = (pairs[index][0], result)
    return found


def check_anchor(ws: Workspace, anchor: Anchor, renames: Renames | None = None) -> RefCheck:
    """Check one reference (`renames`: the run's, shared by its references)."""
    problem = ref_problem(ws, anchor)
    if problem is not None:
        warning = f"{anchor.ref}: {problem}; it was not read (supersede or retire the memory)"
        return RefCheck(anchor, "unknown", "invalid_ref", warnings=(warning,))
    renames = renames or Renames(ws)
    fate = _file_fate(ws, anchor, renames)
    if fate.how == "unreadable":
        return RefCheck(anchor, "unknown", "unreadable", warnings=(f"{anchor.ref}: {fate.error}",))
    if fate.how == "ambiguous":
        return ambiguous(anchor, [Place(p) for p in fate.candidates], "its file's content is found")
    if fate.how in ("unchanged", "moved"):
        place = Place(
            fate.path or anchor.spec.path, anchor.spec.symbol, anchor.start_line, anchor.end_line
        )
        if anchor.spec.type == "file":
            place = Place(place.path)
        if fate.how == "unchanged":
            return RefCheck(anchor, "valid", "unchanged", place)
        return RefCheck(anchor, "relocated", fate.reason, place, fate.confidence)
    if anchor.spec.type == "symbol":
        return _check_symbol(ws, anchor, fate, renames)
    if anchor.spec.type == "line_range":
        return check_range(ws, anchor, fate.file, fate.path, fate.reason)
    return _check_file(ws, anchor, fate)


def ref_problem(ws: Workspace, anchor: Anchor) -> str | None:
    """Why a stored reference cannot be checked safely, or None when it can.

    Its path must be a plain repo-relative POSIX path (no `..`, `.`, empty
    or absolute parts) that stays inside the root, symlinks resolved; line
    ranges must be 1-based with START <= END. Stores can be edited by hand.
    """
    spec = anchor.spec
    problem = ws.path_problem(spec.path)
    if problem is not None:
        return problem
    if spec.type == "line_range":
        start, end = anchor.start_line, anchor.end_line
        if start is None or end is None or start < 1 or end < start:
            return f"invalid lines {start}-{end}: lines are 1-based and START <= END"
    return None


def _file_fate(ws: Workspace, anchor: Anchor, renames: Renames) -> _FileFate:
    path = anchor.spec.path
    if anchor.commit and not anchor.dirty and ws.git is not None:
        changes = ws.changes(anchor.commit)
        if changes is not None:
            change = changes.get(path)
            if change is None:
                return _FileFate("unchanged", path)
            if change.kind == "renamed" and change.new_path and not _no_code(anchor):
                return _read_fate(ws, anchor, change.new_path, "git_rename")
            if change.kind == "renamed":  # git pairs files without code at random
                return _search_file(ws, anchor)
            if change.kind == "deleted":
                return _moved_fate(ws, anchor, renames)
            return _read_fate(ws, anchor, path, "file_changed_since_commit")
    return _read_fate(ws, anchor, path, "file_changed")


def _read_fate(ws: Workspace, anchor: Anchor, path: str, reason: RefReason) -> _FileFate:
    try:
        file = ws.read(path)
    except DiskError as exc:
        return _FileFate("unreadable", path, reason="unreadable", error=str(exc))
    if file is None:
        return _search_file(ws, anchor)
    if file.hash == anchor.file_hash:
        if path == anchor.spec.path:
            return _FileFate("unchanged", path, file)
        return _FileFate("moved", path, file, reason, Confidence.IDENTITY)
    return _FileFate("changed", path, file, reason)


def _moved_fate(ws: Workspace, anchor: Anchor, renames: Renames) -> _FileFate:
    """A file git's diff since the anchor commit calls deleted: where the renames of the
    commits in between took it (too changed since for the diff to pair the two ends),
    else where its exact content is."""
    now = None if _no_code(anchor) else renames.file_now(anchor.commit, anchor.spec.path)
    if now is not None and now != anchor.spec.path:
        return _read_fate(ws, anchor, now, "git_rename")
    return _search_file(ws, anchor)


def _search_file(ws: Workspace, anchor: Anchor) -> _FileFate:
    """The file's exact content in one file that is new since the anchor commit.

    Several new files with that content are ambiguous (files without code,
    such as empty `__init__.py` files, often are: git's rename pairing of
    them is arbitrary, so it is not taken).
    """
    commit = None if anchor.dirty else anchor.commit
    found = [
        p
        for p in ws.find_by_hash(anchor.file_hash, anchor.commit)
        if p != anchor.spec.path and (_no_code(anchor) or ws.history.file_is_new(commit, p))
    ]
    if not found:
        return _FileFate("gone", reason="file_deleted")
    if len(found) > 1:
        return _FileFate("ambiguous", candidates=tuple(found))
    return _FileFate("moved", found[0], ws.readable(found[0]), "content_moved", Confidence.IDENTITY)


def _no_code(anchor: Anchor) -> bool:
    """A whole-file reference to a file without code: empty or comments only."""
    return anchor.spec.type == "file" and anchor.fingerprint == NO_CODE


def _check_file(ws: Workspace, anchor: Anchor, fate: _FileFate) -> RefCheck:
    if fate.how == "gone" or fate.file is None or fate.path is None:
        return RefCheck(anchor, "deleted", "file_deleted")
    same_path = fate.path == anchor.spec.path
    place = Place(fate.path)
    if ws.file_fingerprint(fate.file) == anchor.fingerprint:
        return whitespace_only(anchor, fate.reason, place)
    reason: RefReason = fate.reason if same_path else "renamed_with_edits"
    return RefCheck(anchor, "modified", reason, place)


def _check_symbol(ws: Workspace, anchor: Anchor, fate: _FileFate, renames: Renames) -> RefCheck:
    name = anchor.spec.symbol or ""
    if fate.file is not None and fate.path is not None:
        symbol = find_symbol(ws, fate.file, name)
        if symbol is not None:
            return _compare_symbol(anchor, fate, symbol)
    found = via_container(ws, anchor, fate.file, renames) or follow_symbol(ws, anchor, fate.file)
    if found is not None:
        return with_since(anchor, found, renames)
    traced = renamed_in_history(ws, anchor, renames)
    return traced if traced is not None else not_found(anchor, fate.how == "gone", renames)


def _compare_symbol(anchor: Anchor, fate: _FileFate, symbol: Symbol) -> RefCheck:
    path = fate.path or anchor.spec.path
    place = place_of(path, symbol)
    exact = symbol.fingerprint.exact == anchor.content_hash
    if not exact and symbol.fingerprint.normalized != anchor.fingerprint:
        return RefCheck(anchor, "modified", "symbol_changed", place)
    note = () if exact else (whitespace_note(anchor),)
    level = Confidence.IDENTITY if exact else Confidence.REFORMATTED
    moved_lines = (place.start_line, place.end_line) != (anchor.start_line, anchor.end_line)
    if path != anchor.spec.path:
        return RefCheck(anchor, "relocated", fate.reason, place, level, warnings=note)
    if symbol.container != anchor.container:
        return RefCheck(anchor, "relocated", "container_changed", place, level, warnings=note)
    if moved_lines:
        return RefCheck(anchor, "relocated", "lines_moved", place, level, warnings=note)
    return RefCheck(
        anchor, "valid", "unchanged" if exact else "whitespace_only", place, warnings=note
    )


def _with_dependencies(anchor: Anchor, result: RefCheck, probe: DependencyProbe) -> RefCheck:
    if anchor.spec.type != "symbol" or result.status not in ("valid", "relocated"):
        return result
    changed = probe(anchor, result)
    if not changed:
        return result
    warning = (
        f"{anchor.ref}: its own text is unchanged, but what it calls changed since "
        f"{(anchor.commit or 'it was saved')[:10]}: {', '.join(changed)} (dependencies_changed)"
    )
    return replace(result, warnings=(*result.warnings, warning))


def _branch_warnings(ws: Workspace, memory: Memory) -> list[str]:
    head = ws.head
    if ws.git is None or head is None:
        return []
    warnings = []
    seen: set[str] = set()
    for anchor in memory.anchors:
        commit = anchor.commit
        if commit is None or commit == head or commit in seen:
            continue
        seen.add(commit)
        base = ws.merge_base(commit)
        if base == commit:
            continue
        where = f"branch {anchor.branch}" if anchor.branch else "a detached HEAD"
        here = f"branch {ws.branch}" if ws.branch else "the checked-out commit"
        if base is None:
            warnings.append(
                f"saved on {where} at {commit[:10]}, which this repository does not know; "
                "its references were checked by content only"
            )
        else:
            warnings.append(
                f"saved on {where} at {commit[:10]}, which has diverged from {here} "
                f"(common ancestor {base[:10]}); the code it describes may differ here"
            )
    return warnings
