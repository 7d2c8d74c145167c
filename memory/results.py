"""Result shapes the file, symbol and line-range checks share."""

from __future__ import annotations

from map import Symbol
from memory.bodies import symbol_id
from memory.confidence import Confidence
from memory.model import Anchor, Place, RefCheck, RefReason

SHOWN_CANDIDATES = 5
"""Candidates named in an ambiguity warning (all are in `candidates`)."""


def place_of(path: str, symbol: Symbol) -> Place:
    """Where a symbol is: path, `Qual.Name` and its 1-based inclusive lines."""
    return Place(path, symbol_id(symbol), symbol.range.first_line, symbol.range.last_line)


def whitespace_only(anchor: Anchor, reason: RefReason, place: Place) -> RefCheck:
    """Same normalized content: valid in place, relocated (REFORMATTED) elsewhere."""
    note = (whitespace_note(anchor),)
    if place.path == anchor.spec.path and place.start_line in (None, anchor.start_line):
        return RefCheck(anchor, "valid", "whitespace_only", place, warnings=note)
    return RefCheck(anchor, "relocated", reason, place, Confidence.REFORMATTED, warnings=note)


def whitespace_note(anchor: Anchor) -> str:
    """The note a whitespace- or comment-only change gets."""
    return f"{anchor.ref}: only whitespace or comments changed"


def ambiguous(anchor: Anchor, places: list[Place], what: str) -> RefCheck:
    """Several equally good places: `unknown`, with every candidate, none picked."""
    shown = ", ".join(str(p) for p in places[:SHOWN_CANDIDATES])
    more = f" and {len(places) - SHOWN_CANDIDATES} more" if len(places) > SHOWN_CANDIDATES else ""
    warning = (
        f"{anchor.ref}: {what} in {len(places)} places equally well ({shown}{more}); "
        "not picking one: re-read them and verify or supersede the memory"
    )
    return RefCheck(anchor, "unknown", "ambiguous", warnings=(warning,), candidates=tuple(places))
