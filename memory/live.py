"""Live confirmation: a language server asked whether a symbol the check found is there.

memory/ never imports lsp/: the bridge passes a `LiveConfirm` built on its
language servers. The check asks it about every symbol it *found*: relocated
or renamed, or modified at a place (file, name or lines) other than the
anchored one. A symbol still where it was (valid, or edited within the same
lines) and anything not found (deleted, unknown), as well as files and line
ranges, are not asked: `question` says what is. The answer goes in
`RefCheck.live` (`LiveCheck`): listed (the server's document symbols have
that `Qual.Name` at those lines), not listed (a warning says so), or no
answer, with the reason (no server, a failed server, the budget spent).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from memory.model import LiveCheck, MemoryCheck, Place, RefCheck

LiveConfirm = Callable[[str, str, tuple[int, int]], LiveCheck]
"""(path, `Qual.Name`, (first line, last line), 1-based) -> what the server said."""

FOUND_STATUSES = frozenset({"relocated", "renamed", "modified"})

SKIPPED = LiveCheck(None, "skipped")
NOT_NEEDED = LiveCheck(None, "not_needed")


def question(result: RefCheck) -> tuple[str, str, tuple[int, int]] | None:
    """What to ask a server about `result`: (path, `Qual.Name`, lines), or None when
    it found no symbol at a place worth confirming."""
    place = result.place
    if result.status not in FOUND_STATUSES or place is None or place.symbol is None:
        return None
    if place.start_line is None or place.end_line is None:
        return None
    anchor = result.anchor
    anchored = Place(anchor.spec.path, anchor.spec.symbol, anchor.start_line, anchor.end_line)
    if result.status == "modified" and place == anchored:
        return None  # edited within its own lines: found by identity, nothing to confirm
    return place.path, place.symbol, (place.start_line, place.end_line)


def confirm_live(result: RefCheck, live: LiveConfirm) -> RefCheck:
    """`result` with `live` set, when it found a symbol at a place worth confirming."""
    asked = question(result)
    if asked is None:
        return result
    answer = live(*asked)
    if answer.confirmed is not False:
        return replace(result, live=answer)
    path, symbol, (first, last) = asked
    warning = (
        f"{result.anchor.ref}: the language server does not list {symbol} at "
        f"{path} lines {first}-{last}; re-read the code"
    )
    return replace(result, live=answer, warnings=(*result.warnings, warning))


def confirm_check(result: MemoryCheck, live: LiveConfirm) -> MemoryCheck:
    """A memory's check with its found symbols confirmed after the fact (the warnings a
    refusal adds joined to the memory's)."""
    refs = tuple(confirm_live(r, live) for r in result.refs)
    added = [
        w
        for old, new in zip(result.refs, refs, strict=True)
        for w in new.warnings[len(old.warnings) :]
    ]
    return replace(result, refs=refs, warnings=(*result.warnings, *added))


def live_of(result: RefCheck) -> LiveCheck:
    """What to say of `result`'s live confirmation: the answer, else why there is none."""
    if result.live is not None:
        return result.live
    return NOT_NEEDED if question(result) is None else SKIPPED
