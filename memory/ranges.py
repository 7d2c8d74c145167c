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


class LineIndex:
    """A file's lines keyed for block search; built once per file and mode.

    Exact mode compares lines without their line endings; loose mode
    compares stripped lines and ignores blank ones.
    """

    def __init__(self, lines: Sequence[str], *, loose: bool) -> None:
        self.loose = loose
        keyed = [(number, _key(line, loose)) for number, line in enumerate(lines, 1)]
        self.numbers = [n for n, key in keyed if key or not loose]
        self.keys = [key for _, key in keyed if key or not loose]
        self.starts: dict[str, list[int]] = {}
        for position, key in enumerate(self.keys):
            self.starts.setdefault(key, []).append(position)

    def find(self, text: str, *, near: int) -> BlockHit | None:
        """The lines of `text`, the occurrence nearest line `near` first; None if absent.

        A block of blank lines only is never searched for.
        """
        wanted = [_key(line, self.loose) for line in text.split("\n")]
        if wanted and not wanted[-1] and text.endswith("\n"):
            wanted.pop()
        if self.loose:
            wanted = [w for w in wanted if w]
        if not any(wanted):
            return None
        width = len(wanted)
        hits = [
            (self.numbers[p], self.numbers[p + width - 1])
            for p in self.starts.get(wanted[0], ())
            if self.keys[p : p + width] == wanted
        ]
        if not hits:
            return None
        first, last = min(hits, key=lambda hit: abs(hit[0] - near))
        confidence = UNIQUE_CONFIDENCE if len(hits) == 1 else AMBIGUOUS_CONFIDENCE
        return BlockHit(first, last - first + 1, confidence)


def _key(line: str, loose: bool) -> str:
    return line.strip() if loose else line.rstrip("\r\n")
