"""What a `modified` result says of its change: its kind and its changed lines.

The text as anchored (or, when the stored text was capped, the anchored lines
of the file at the anchor commit) against the text at the place found now,
the symbol's old name written as its new one first (a rename is no edit):
`memory.kinds` compares their syntax trees. A memory whose modified
references changed only cosmetically or in annotations stays active (with a
note) unless `CheckSettings.cosmetic_changes_stale`.
"""

from __future__ import annotations

import re
from dataclasses import replace

from memory.kinds import change_between
from memory.model import Anchor, CheckSettings, CodeChange, RefCheck, RefStatus
from memory.renames import simple
from memory.workspace import Workspace

MINOR = frozenset({"cosmetic", "annotations"})
"""Change kinds that cannot make a note wrong."""
_WHAT = {"cosmetic": "whitespace, comments or docstrings", "annotations": "type annotations"}


def with_change(ws: Workspace, result: RefCheck) -> RefCheck:
    """`result` with its `change`, when it is `modified` (unchanged otherwise)."""
    place, anchor = result.place, result.anchor
    if result.status != "modified" or result.change is not None or place is None:
        return result
    file = ws.readable(place.path)
    old = _text_then(ws, anchor)
    if file is None or old is None:
        return replace(result, change=CodeChange("body", 0))
    new = (
        file.text if place.start_line is None else file.span(place.start_line, place.end_line or 0)
    )
    if anchor.spec.type == "symbol" and place.symbol:
        was, now = simple(anchor.spec.symbol or ""), simple(place.symbol)
        if was != now and re.fullmatch(r"\w+", was):
            old = re.sub(rf"(?<!\w){re.escape(was)}(?!\w)", now, old)
    change = change_between(
        place.path,
        old,
        new,
        member=bool(anchor.container),
        definition=anchor.spec.type == "symbol",
    )
    return replace(result, change=change)


def _text_then(ws: Workspace, anchor: Anchor) -> str | None:
    """The anchored text, whole: the stored one, or the file's at the anchor commit."""
    if not anchor.truncated:
        return anchor.text
    if anchor.commit is None or anchor.dirty:
        return None
    file = ws.history.file_at(anchor.commit, anchor.spec.path)
    if file is None:
        return None
    if anchor.spec.type == "file" or anchor.start_line is None:
        return file.text
    return file.span(anchor.start_line, anchor.end_line or anchor.start_line)


def weighed(result: RefCheck, settings: CheckSettings) -> tuple[RefStatus, RefCheck]:
    """The status the reference lends its memory, and the result with the note that says
    why a minor change keeps the memory active."""
    change = result.change
    if result.status != "modified" or change is None or change.kind not in MINOR:
        return result.status, result
    if settings.cosmetic_changes_stale:
        return result.status, result
    lines = f"{change.lines} line{'' if change.lines == 1 else 's'}"
    note = (
        f"{result.anchor.ref}: only {_WHAT[change.kind]} changed ({lines}), "
        "which does not make the memory stale"
    )
    return "valid", replace(result, warnings=(*result.warnings, note))
