"""`memory review`: walk through stale memories in a terminal, one at a time.

For each stale memory it shows the text, what happened to each reference and
a short diff of the referenced code (as saved -> as it is now), then asks:
verify, supersede, retire, ignore or quit. Without a terminal it refuses and
names the non-interactive commands that do the same.
"""

from __future__ import annotations

import difflib
from typing import TextIO, TypedDict

from memory.anchor import find_symbol
from memory.bodies import symbol_text
from memory.errors import MemoryDomainError, MemoryInputError
from memory.model import RefCheck
from memory.service import MemoryService
from memory.views import ref_line
from memory.workspace import Workspace

DIFF_LINES = 20
PROMPT = "[v]erify  [s]upersede  [r]etire  [i]gnore  [q]uit > "


class ReviewSummary(TypedDict):
    """What a review did."""

    verified: list[str]
    superseded: dict[str, str]
    retired: list[str]
    ignored: list[str]


def review_stale(
    service: MemoryService, stdin: TextIO, stdout: TextIO, *, require_tty: bool = True
) -> ReviewSummary:
    """Walk the stale memories; raises MemoryInputError when `stdin` is not a terminal."""
    if require_tty and not stdin.isatty():
        raise MemoryInputError(
            "memory review is interactive and needs a terminal",
            hint="use `memory check --json` to list stale memories, then `memory verify ID`, "
            "`memory supersede ID --text ...` or `memory retire ID`",
        )
    summary = ReviewSummary(verified=[], superseded={}, retired=[], ignored=[])
    stale = [r for r in service.check() if r.status == "stale"]
    if not stale:
        stdout.write("no stale memories\n")
        return summary
    ws = service.workspace()
    for number, result in enumerate(stale, 1):
        memory_id = result.memory.id
        stdout.write(f"\n[{number}/{len(stale)}] {memory_id} ({result.memory.kind}): ")
        stdout.write(result.memory.text + "\n")
        for ref in result.refs:
            stdout.write(describe(ws, ref))
        while True:
            stdout.write(PROMPT)
            stdout.flush()
            choice = stdin.readline().strip().lower()[:1]
            if choice in ("", "q"):
                return summary
            try:
                if choice == "v":
                    service.verify(memory_id)
                    summary["verified"].append(memory_id)
                elif choice == "s":
                    stdout.write("new text > ")
                    stdout.flush()
                    new = service.supersede(memory_id, stdin.readline().strip())
                    summary["superseded"][memory_id] = new.id
                elif choice == "r":
                    service.retire(memory_id)
                    summary["retired"].append(memory_id)
                elif choice == "i":
                    summary["ignored"].append(memory_id)
                else:
                    continue
            except MemoryDomainError as exc:
                stdout.write(f"  cannot: {exc.message}\n")
                if exc.hint:
                    stdout.write(f"  hint: {exc.hint}\n")
                continue
            break
    return summary


def describe(ws: Workspace, result: RefCheck) -> str:
    """A reference's status, where it is now, and a short diff when its content changed."""
    text = f"  {ref_line(result)}\n"
    now = current_text(ws, result)
    if now is None or result.status not in ("modified", "renamed"):
        return text
    diff = list(
        difflib.unified_diff(
            result.anchor.text.splitlines(), now.splitlines(), "saved", "now", lineterm="", n=1
        )
    )
    shown = diff[:DIFF_LINES] + (
        [f"... {len(diff) - DIFF_LINES} more lines"] if len(diff) > DIFF_LINES else []
    )
    return text + "".join(f"      {line}\n" for line in shown)


def current_text(ws: Workspace, result: RefCheck) -> str | None:
    """The text the reference points at now, or None when it is gone."""
    place = result.place
    if place is None:
        return None
    file = ws.readable(place.path)
    if file is None:
        return None
    if place.symbol is not None:
        symbol = find_symbol(ws, file, place.symbol)
        return symbol_text(file, symbol) if symbol else None
    if place.start_line is not None and place.end_line is not None:
        return file.span(place.start_line, place.end_line)
    return file.text
