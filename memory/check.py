"""Check memories against the code as it is now: one result per reference, worst case per memory.

Git is asked a fixed number of times per check, however many distinct
anchor commits there are (see `Workspace.prefetch`): what changed since each,
with renames. A reference into a file git reports untouched is valid
without reading it. Everything else is read, hashed and (for symbols) extracted once
per content. Staleness is reported, never corrected: each result carries the
place the reference points to now, which `verify` may adopt.

Reasons, by status:
    valid       unchanged, whitespace_only
    relocated   lines_moved, git_rename, content_moved, container_changed,
                moved_to_other_file
    renamed     same_body_new_name
    modified    file_changed_since_commit, file_changed, renamed_with_edits,
                symbol_changed, lines_changed
    deleted     file_deleted, symbol_not_found, lines_gone
    unknown     unreadable
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from disk.errors import DiskError
from disk.stamps import content_hash
from map.model import Symbol
from memory.anchor import find_symbol
from memory.model import (
    Anchor,
    Memory,
    MemoryCheck,
    Place,
    RefCheck,
    derive_status,
    effective_status,
)
from memory.workspace import FileNow, Workspace, body_probe, symbol_id

DependencyProbe = Callable[[Anchor, RefCheck], tuple[str, ...]]
"""Names the direct callees of a checked symbol that changed since its anchor commit."""


@dataclass(frozen=True, slots=True)
class _FileFate:
    """What became of the file a reference pointed into."""

    how: Literal["unchanged", "moved", "changed", "gone", "unreadable"]
    path: str | None = None
    file: FileNow | None = None
    reason: str = "unchanged"
    confidence: float | None = None


def check_memories(
    ws: Workspace, memories: Sequence[Memory], *, dependencies: DependencyProbe | None = None
) -> list[MemoryCheck]:
    """Check every reference of every memory; statuses follow DESIGN.md."""
    ws.prefetch(a.commit for m in memories for a in m.anchors if a.commit and not a.dirty)
    results = []
    for memory in memories:
        refs = tuple(check_anchor(ws, a) for a in memory.anchors)
        if dependencies is not None:
            refs = tuple(
                _with_dependencies(a, r, dependencies)
                for a, r in zip(memory.anchors, refs, strict=True)
            )
        warnings = [w for r in refs for w in r.warnings] + _branch_warnings(ws, memory)
        derived = derive_status(tuple(r.status for r in refs))
        results.append(
            MemoryCheck(memory, effective_status(memory.status, derived), refs, tuple(warnings))
        )
    return results


def check_anchor(ws: Workspace, anchor: Anchor) -> RefCheck:
    """Check one reference."""
    fate = _file_fate(ws, anchor)
    if fate.how == "unreadable":
        return RefCheck(anchor, "unknown", "unreadable", warnings=(f"{anchor.ref}: {fate.reason}",))
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
        return _check_symbol(ws, anchor, fate)
    if anchor.spec.type == "line_range":
        return _check_range(ws, anchor, fate)
    return _check_file(ws, anchor, fate)


def _file_fate(ws: Workspace, anchor: Anchor) -> _FileFate:
    path = anchor.spec.path
    if anchor.commit and not anchor.dirty and ws.git is not None:
        changes = ws.changes(anchor.commit)
        if changes is not None:
            change = changes.get(path)
            if change is None:
                return _FileFate("unchanged", path)
            if change.kind == "renamed" and change.new_path:
                return _read_fate(ws, anchor, change.new_path, "git_rename")
            if change.kind == "deleted":
                return _search_file(ws, anchor)
            return _read_fate(ws, anchor, path, "file_changed_since_commit")
    return _read_fate(ws, anchor, path, "file_changed")


def _read_fate(ws: Workspace, anchor: Anchor, path: str, reason: str) -> _FileFate:
    try:
        file = ws.read(path)
    except DiskError as exc:
        return _FileFate("unreadable", path, reason=str(exc))
    if file is None:
        return _search_file(ws, anchor)
    if file.hash == anchor.file_hash:
        if path == anchor.spec.path:
            return _FileFate("unchanged", path, file)
        return _FileFate("moved", path, file, reason, 1.0)
    return _FileFate("changed", path, file, reason)


def _search_file(ws: Workspace, anchor: Anchor) -> _FileFate:
    found = [p for p in ws.find_by_hash(anchor.file_hash, anchor.commit) if p != anchor.spec.path]
    if not found:
        return _FileFate("gone", reason="file_deleted")
    return _FileFate(
        "moved", found[0], ws.readable(found[0]), "content_moved", 1.0 if len(found) == 1 else 0.8
    )


def _check_file(ws: Workspace, anchor: Anchor, fate: _FileFate) -> RefCheck:
    if fate.how == "gone" or fate.file is None or fate.path is None:
        return RefCheck(anchor, "deleted", "file_deleted")
    same_path = fate.path == anchor.spec.path
    place = Place(fate.path)
    if ws.file_fingerprint(fate.file) == anchor.fingerprint:
        return _whitespace_only(anchor, fate, place)
    reason = fate.reason if same_path else "renamed_with_edits"
    return RefCheck(anchor, "modified", reason, place)


def _whitespace_only(anchor: Anchor, fate: _FileFate, place: Place) -> RefCheck:
    """Same normalized content: valid in place, relocated (0.9) in another file."""
    note = (_whitespace_note(anchor),)
    if place.path == anchor.spec.path:
        return RefCheck(anchor, "valid", "whitespace_only", place, warnings=note)
    return RefCheck(anchor, "relocated", fate.reason, place, 0.9, warnings=note)


def _whitespace_note(anchor: Anchor) -> str:
    return f"{anchor.ref}: only whitespace or comments changed"


def _check_range(ws: Workspace, anchor: Anchor, fate: _FileFate) -> RefCheck:
    if fate.how == "gone" or fate.file is None or fate.path is None:
        return RefCheck(anchor, "deleted", "file_deleted")
    file, path = fate.file, fate.path
    start, end = anchor.start_line or 1, anchor.end_line or 1
    span = end - start
    same_path = path == anchor.spec.path
    here = file.span(start, end) if end <= len(file.lines) else None
    if here is not None and content_hash(here.encode()) == anchor.content_hash:
        place = Place(path, start_line=start, end_line=end)
        if same_path:
            return RefCheck(anchor, "valid", "unchanged", place)
        return RefCheck(anchor, "relocated", fate.reason, place, 1.0)
    if not anchor.truncated:
        hit = ws.line_index(file, loose=False).find(anchor.text, near=start)
        if hit is not None:
            place = Place(path, start_line=hit.start, end_line=hit.start + hit.length - 1)
            reason = "lines_moved" if same_path else fate.reason
            return RefCheck(anchor, "relocated", reason, place, hit.confidence)
    if here is not None and ws.range_fingerprint(file, start, end) == anchor.fingerprint:
        return _whitespace_only(anchor, fate, Place(path, start_line=start, end_line=end))
    if not anchor.truncated:
        hit = ws.line_index(file, loose=True).find(anchor.text, near=start)
        if hit is not None:
            place = Place(path, start_line=hit.start, end_line=hit.start + hit.length - 1)
            return RefCheck(anchor, "relocated", "lines_moved", place, hit.confidence * 0.9)
    if here is not None:
        return RefCheck(anchor, "modified", "lines_changed", Place(path, None, start, end))
    if start <= len(file.lines):
        last = min(len(file.lines), start + span)
        return RefCheck(anchor, "modified", "lines_changed", Place(path, None, start, last))
    return RefCheck(anchor, "deleted", "lines_gone")


def _check_symbol(ws: Workspace, anchor: Anchor, fate: _FileFate) -> RefCheck:
    name = anchor.spec.symbol or ""
    if fate.file is not None and fate.path is not None:
        symbol = find_symbol(ws, fate.file, name)
        if symbol is not None:
            return _compare_symbol(anchor, fate, symbol)
    found = _search_symbol(ws, anchor, fate.file)
    if found is not None:
        return found
    reason = "file_deleted" if fate.how == "gone" else "symbol_not_found"
    return RefCheck(anchor, "deleted", reason)


def _compare_symbol(anchor: Anchor, fate: _FileFate, symbol: Symbol) -> RefCheck:
    path = fate.path or anchor.spec.path
    place = _place(path, symbol)
    exact = symbol.fingerprint.exact == anchor.content_hash
    if not exact and symbol.fingerprint.normalized != anchor.fingerprint:
        return RefCheck(anchor, "modified", "symbol_changed", place)
    note = () if exact else (_whitespace_note(anchor),)
    moved_lines = (place.start_line, place.end_line) != (anchor.start_line, anchor.end_line)
    if path != anchor.spec.path:
        return RefCheck(anchor, "relocated", fate.reason, place, 1.0, warnings=note)
    if symbol.container != anchor.container:
        return RefCheck(anchor, "relocated", "container_changed", place, 1.0, warnings=note)
    if moved_lines:
        return RefCheck(anchor, "relocated", "lines_moved", place, 1.0, warnings=note)
    return RefCheck(
        anchor, "valid", "unchanged" if exact else "whitespace_only", place, warnings=note
    )


def _search_symbol(ws: Workspace, anchor: Anchor, first: FileNow | None) -> RefCheck | None:
    """Look for the same content under another name or place: this file first, then elsewhere.

    Same fingerprint anywhere beats same body under another name. Other
    files are parsed only when they contain the words a match must contain.
    """
    simple = (anchor.spec.symbol or "").rpartition(".")[2].partition("~")[0]
    if first is not None:
        found = _by_fingerprint(ws, anchor, first)
        if found is not None:
            return _moved(anchor, first, found, simple, same_file=True)
    files = ws.candidate_files(anchor.commit)
    for file in files:
        if file is not first and ws.mentions(file, simple):
            found = _by_fingerprint(ws, anchor, file)
            if found is not None:
                return _moved(anchor, file, found, simple, same_file=False)
    if anchor.body_fingerprint is None:
        return None
    if first is not None:
        found = ws.index(first).by_body_renamed_from(anchor.body_fingerprint, simple)
        if found is not None:
            return RefCheck(anchor, "renamed", "same_body_new_name", _place(first.path, found), 0.9)
    probe = body_probe(anchor.text, simple)
    for file in files:
        if file is not first and (probe is None or ws.mentions(file, probe)):
            found = ws.index(file).by_body(anchor.body_fingerprint)
            if found is not None:
                place = _place(file.path, found)
                return RefCheck(anchor, "renamed", "same_body_new_name", place, 0.75)
    return None


def _by_fingerprint(ws: Workspace, anchor: Anchor, file: FileNow) -> Symbol | None:
    index = ws.index(file)
    return index.by_fingerprint.get(anchor.content_hash) or index.by_fingerprint.get(
        anchor.fingerprint
    )


def _moved(
    anchor: Anchor, file: FileNow, symbol: Symbol, simple: str, *, same_file: bool
) -> RefCheck:
    place = _place(file.path, symbol)
    if symbol.name != simple:
        return RefCheck(anchor, "renamed", "same_body_new_name", place, 0.9 if same_file else 0.75)
    reason = "container_changed" if same_file else "moved_to_other_file"
    return RefCheck(anchor, "relocated", reason, place, 0.95 if same_file else 0.9)


def _place(path: str, symbol: Symbol) -> Place:
    return Place(path, symbol_id(symbol), symbol.range.first_line, symbol.range.last_line)


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
