"""Find a block of lines again in a file whose lines moved."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

UNIQUE_CONFIDENCE = 1.0
AMBIGUOUS_CONFIDENCE = 0.8


@dataclass(frozen=True, slots=True)
class BlockHit:
    """Where a block was found: first line (1-based), line count, confidence."""

    start: int
    length: int
    confidence: float


def find_block(lines: Sequence[str], text: str, *, near: int, loose: bool) -> BlockHit | None:
    """Find the lines of `text` in `lines`, the occurrence nearest line `near` first.

    Exact matching compares lines without their line endings; `loose`
    matching compares stripped lines and ignores blank ones. A block of
    blank lines only is never searched for.
    """
    wanted = [_key(line, loose) for line in text.splitlines()]
    if loose:
        wanted = [w for w in wanted if w]
    if not any(wanted):
        return None
    keyed = [(index, _key(line, loose)) for index, line in enumerate(lines)]
    if loose:
        keyed = [(index, key) for index, key in keyed if key]
    width = len(wanted)
    hits = [
        (keyed[i][0], keyed[i + width - 1][0])
        for i in range(len(keyed) - width + 1)
        if keyed[i][1] == wanted[0] and [k for _, k in keyed[i : i + width]] == wanted
    ]
    if not hits:
        return None
    first, last = min(hits, key=lambda hit: abs(hit[0] + 1 - near))
    confidence = UNIQUE_CONFIDENCE if len(hits) == 1 else AMBIGUOUS_CONFIDENCE
    return BlockHit(first + 1, last - first + 1, confidence)


def _key(line: str, loose: bool) -> str:
    return line.strip() if loose else line.rstrip("\r\n")
