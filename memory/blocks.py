"""Check a line-range reference: the same lines, the same text elsewhere, a similar block, or gone.

In order, the first that holds wins:

    1. the exact text at the anchored lines                 valid (unchanged)
    2. the exact text elsewhere in its file                 relocated (lines_moved)
    3. the normalized text at the anchored lines            valid (whitespace_only)
    4. the stripped lines elsewhere in its file             relocated (lines_moved)
    5. the exact or stripped text in another file changed   relocated (moved_to_other_file);
       since the anchor commit                              in several: unknown (ambiguous)
    6. a similar block in its file                          modified (lines_changed)
    7. a similar block in another changed file              modified (moved_with_edits)
    otherwise                                               deleted (lines_gone, file_deleted)

Steps 5-7 accept a block only if it is new since the anchor commit: a copy
that was already there (a sibling function, a duplicate) is not where the
anchored lines went. "Similar" is token similarity >= BLOCK_MIN, aligned on
the lines the two still share (`LineIndex.find_similar`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from disk.stamps import content_hash
from memory.confidence import BLOCK_MIN, Confidence
from memory.files import FileNow
from memory.model import Anchor, Place, RefCheck, RefReason, RefStatus
from memory.ranges import BlockHit
from memory.results import ambiguous, whitespace_only
from memory.workspace import Workspace

PROBE_LINES = 3
"""Another file is searched only when it has every word of one of the anchored text's
longest lines (the longest, for the same text; one of three, for a similar block)."""
_WORD = re.compile(r"\w+")


def check_range(
    ws: Workspace, anchor: Anchor, file: FileNow | None, path: str | None, reason: RefReason
) -> RefCheck:
    """The status of a line range whose file is `file` now (None: gone), found via `reason`."""
    if file is not None and path is not None:
        found = _same_text_here(ws, anchor, file, path, reason)
        if found is not None:
            return found
    if anchor.truncated:
        return _truncated(ws, anchor, file)
    probes = _probes(anchor.text)
    elsewhere = [f for f in _others(ws, anchor, file) if _holds(ws, f, probes[0])]
    exact = [(f, hit) for f in elsewhere if (hit := _exact(ws, anchor, f)) is not None]
    if exact:
        return _moved(anchor, exact, "relocated", "moved_to_other_file", "its lines are found")
    if file is not None:
        hit = _similar(ws, anchor, file, anchor.start_line or 1)
        if hit is not None:
            if _reformatted(ws, anchor, file, hit):
                return whitespace_only(anchor, "lines_moved", _at(file, hit))
            return RefCheck(anchor, "modified", "lines_changed", _at(file, hit), hit.confidence)
    similar = [
        (f, hit)
        for f in _others(ws, anchor, file)
        if any(_holds(ws, f, p) for p in probes) and (hit := _similar(ws, anchor, f, 1))
    ]
    if len(similar) == 1 and _reformatted(ws, anchor, *similar[0]):
        return whitespace_only(anchor, "moved_to_other_file", _at(*similar[0]))
    if similar:
        return _moved(anchor, similar, "modified", "moved_with_edits", "a similar block is found")
    return _gone(anchor, file)


def _same_text_here(
    ws: Workspace, anchor: Anchor, file: FileNow, path: str, reason: RefReason
) -> RefCheck | None:
    """Steps 1-4: the anchored text itself, in its own file."""
    start, end = anchor.start_line or 1, anchor.end_line or 1
    same_path = path == anchor.spec.path
    here = file.span(start, end) if end <= len(file.lines) else None
    if here is not None and content_hash(here.encode()) == anchor.content_hash:
        place = Place(path, start_line=start, end_line=end)
        if same_path:
            return RefCheck(anchor, "valid", "unchanged", place)
        return RefCheck(anchor, "relocated", reason, place, Confidence.IDENTITY)
    if not anchor.truncated:
        hit = ws.line_index(file, loose=False).find(anchor.text, near=start)
        if hit is not None:
            return _relocated_here(anchor, file, hit, reason if not same_path else "lines_moved")
    if here is not None and ws.range_fingerprint(file, start, end) == anchor.fingerprint:
        return whitespace_only(anchor, reason, Place(path, start_line=start, end_line=end))
    if not anchor.truncated:
        hit = ws.line_index(file, loose=True).find(anchor.text, near=start)
        if hit is not None:
            return _relocated_here(anchor, file, hit, "lines_moved")
    return None


def _truncated(ws: Workspace, anchor: Anchor, file: FileNow | None) -> RefCheck:
    """A range too long to keep whole: its kept beginning, looked for in its own file."""
    start, end = anchor.start_line or 1, anchor.end_line or 1
    hit = _similar(ws, anchor, file, start) if file is not None else None
    if file is None or hit is None:
        return _gone(anchor, file)
    last = min(len(file.lines), hit.start + end - start)
    note = f"{anchor.ref}: only its first {len(anchor.text)} characters were kept; compared by them"
    place = Place(file.path, start_line=hit.start, end_line=last)
    return RefCheck(anchor, "modified", "lines_changed", place, hit.confidence, warnings=(note,))


def _relocated_here(anchor: Anchor, file: FileNow, hit: BlockHit, reason: RefReason) -> RefCheck:
    others = tuple(Place(file.path, start_line=s, end_line=s + hit.length - 1) for s in hit.others)
    warnings: tuple[str, ...] = ()
    if others:
        warnings = (
            f"{anchor.ref}: the same lines are also at "
            f"{', '.join(str(o) for o in others[:3])}; the nearest is given",
        )
    return RefCheck(
        anchor,
        "relocated",
        reason,
        _at(file, hit),
        hit.confidence,
        warnings=warnings,
        candidates=others,
    )


def _others(ws: Workspace, anchor: Anchor, own: FileNow | None) -> Iterator[FileNow]:
    for file in ws.candidate_files(anchor.commit):
        if own is None or file.path != own.path:
            yield file


def _exact(ws: Workspace, anchor: Anchor, file: FileNow) -> BlockHit | None:
    """The anchored text (exact, else stripped) in another file, when new there."""
    for loose in (False, True):
        hit = ws.line_index(file, loose=loose).find(anchor.text, near=1)
        if hit is not None:
            return None if _existed(ws, anchor, file, hit) else hit
    return None


def _similar(ws: Workspace, anchor: Anchor, file: FileNow, near: int) -> BlockHit | None:
    """The block of `file` most similar to the anchored text, when new there."""
    hit = ws.line_index(file, loose=True).find_similar(anchor.text, near=near, minimum=BLOCK_MIN)
    return None if hit is None or _existed(ws, anchor, file, hit) else hit


def _reformatted(ws: Workspace, anchor: Anchor, file: FileNow, hit: BlockHit) -> bool:
    """True when the block differs from the anchored text in whitespace or comments only."""
    last = hit.start + hit.length - 1
    return ws.range_fingerprint(file, hit.start, last) == anchor.fingerprint


def _existed(ws: Workspace, anchor: Anchor, file: FileNow, hit: BlockHit) -> bool:
    """True when the block found was already in that file at the anchor commit
    (anywhere but the anchored lines themselves): it is not where they went."""
    then = ws.history.file_then(None if anchor.dirty else anchor.commit, file.path)
    if then is None:
        return False
    block = file.span(hit.start, hit.start + hit.length - 1)
    start, end = anchor.start_line or 1, anchor.end_line or 1
    old = ws.line_index(then, loose=True).find(block, near=start)
    if old is None:
        return False
    if then.path != anchor.spec.path:
        return True
    return not any(s <= end and s + old.length - 1 >= start for s in (old.start, *old.others))


def _moved(
    anchor: Anchor,
    found: list[tuple[FileNow, BlockHit]],
    status: RefStatus,
    reason: RefReason,
    what: str,
) -> RefCheck:
    if len(found) > 1:
        return ambiguous(anchor, [_at(f, hit) for f, hit in found], what)
    file, hit = found[0]
    return RefCheck(anchor, status, reason, _at(file, hit), hit.confidence)


def _at(file: FileNow, hit: BlockHit) -> Place:
    return Place(file.path, start_line=hit.start, end_line=hit.start + hit.length - 1)


def _gone(anchor: Anchor, file: FileNow | None) -> RefCheck:
    return RefCheck(anchor, "deleted", "file_deleted" if file is None else "lines_gone")


def _probes(text: str) -> list[tuple[str, frozenset[str]]]:
    """The anchored text's longest stripped lines, longest first, each with its words."""
    lines = sorted({line.strip() for line in text.split("\n")}, key=len, reverse=True)
    return [(line, frozenset(_WORD.findall(line))) for line in lines[:PROBE_LINES]]


def _holds(ws: Workspace, file: FileNow, probe: tuple[str, frozenset[str]]) -> bool:
    """True when `file` holds the probe line: its words (a set lookup) and then its text."""
    line, words = probe
    return ws.mentions_all(file, words) and line in file.text
