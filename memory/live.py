"""Live confirmation: a language server asked whether a symbol the check found is there.

memory/ never imports lsp/: the bridge passes a `LiveConfirm` built on its
language servers. The check asks it about every symbol it *found* by
searching: relocated, renamed or modified under another node ID (another
file, container or name) than the anchored one. A symbol still under its own
node ID (lines moved, body edited) was found by identity and is not asked,
so the budget of questions goes where the check inferred. The answer goes
in `RefCheck.live`: `confirmed` (the server's document
symbols have that `Qual.Name` at those lines), `refuted` (they do not: a
warning says so), `unavailable` (no server for that file, or no answer in
time).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from memory.model import RefCheck

LiveConfirm = Callable[[str, str, tuple[int, int]], bool | None]
"""(path, `Qual.Name`, (first line, last line), 1-based) -> confirmed, refuted or None."""

CONFIRMED_STATUSES = frozenset({"relocated", "renamed", "modified"})


def confirm_live(result: RefCheck, live: LiveConfirm) -> RefCheck:
    """`result` with `live` set, when it found a symbol at a place worth confirming."""
    place, spec = result.place, result.anchor.spec
    if result.status not in CONFIRMED_STATUSES or place is None or place.symbol is None:
        return result
    if (place.path, place.symbol) == (spec.path, spec.symbol):
        return result
    if place.start_line is None or place.end_line is None:
        return result
    confirmed = live(place.path, place.symbol, (place.start_line, place.end_line))
    if confirmed is None:
        return replace(result, live="unavailable")
    if confirmed:
        return replace(result, live="confirmed")
    warning = (
        f"{result.anchor.ref}: the language server does not list {place.symbol} at "
        f"{place.path} lines {place.start_line}-{place.end_line}; re-read the code"
    )
    return replace(result, live="refuted", warnings=(*result.warnings, warning))
