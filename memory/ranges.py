"""Find a block of lines again in a file whose lines moved, or were edited.

`find` looks for the very lines (exactly, or stripped and without blank
lines); `find_similar` for the most similar block, aligned on the lines the
two still share (a block with no distinctive line in common is not looked
at) and scored by token similarity (`memory.similarity`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from memory.confidence import Confidence, for_similarity
from memory.similarity import similarity, tokens

ALIGNMENTS_TRIED = 3
"""Offsets (by votes of shared lines) whose blocks are scored."""
LENGTH_SLACK = 3
"""Shared lines within this many lines of one alignment count for it (edits shift lines)."""
DISTINCTIVE_CHARS = 4
"""A stripped line this long or longer can align two blocks."""
COMMON_LINE = 8
"""A line found this often in the file aligns nothing (`return None`, `else:`)."""


@dataclass(frozen=True, slots=True)
class BlockHit:
    """Where a block was found: first line (1-based), line count, confidence, similarity."""

    start: int
    length: int
    confidence: float
    similarity: float = 1.0
    others: tuple[int, ...] = ()
    """First lines of other equally exact copies (an exact hit only)."""


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
        confidence = Confidence.IDENTITY if len(hits) == 1 else Confidence.NEAREST
        others = tuple(hit[0] for hit in hits if hit[0] != first)
        return BlockHit(first, last - first + 1, confidence, 1.0, others)

    def find_similar(self, text: str, *, near: int, minimum: float) -> BlockHit | None:
        """The block most similar to `text` (similarity >= `minimum`), nearest `near` on
        a tie; None when none is. Built for loose indexes (blank lines skipped)."""
        wanted = [key for key in (_key(line, True) for line in text.split("\n")) if key]
        if not wanted:
            return None
        votes: Counter[int] = Counter()
        matches: list[tuple[int, int]] = []
        for offset, key in enumerate(wanted):
            places = self.starts.get(key, ())
            if len(key) >= DISTINCTIVE_CHARS and len(places) <= COMMON_LINE:
                matches.extend((offset, p) for p in places)
                votes.update(p - offset for p in places)
        best: tuple[float, int, int, int] | None = None
        want = tokens("\n".join(wanted))
        last_key = len(self.keys) - 1
        aligned = sorted(
            votes.items(),
            key=lambda kv: (-kv[1], abs(self.numbers[min(max(kv[0], 0), last_key)] - near)),
        )
        for shift, _ in aligned[:ALIGNMENTS_TRIED]:
            kept = [(o, p) for o, p in matches if abs(p - o - shift) <= LENGTH_SLACK]
            (o0, p0), (o1, p1) = min(kept, key=lambda m: m[1]), max(kept, key=lambda m: m[1])
            spans = {(shift, shift + len(wanted)), (p0 - o0, p1 + len(wanted) - o1)}
            for start, end in spans:
                start, end = max(0, start), min(len(self.keys), end)
                if end <= start:
                    continue
                score = similarity(want, tokens("\n".join(self.keys[start:end])))
                first, last = self.numbers[start], self.numbers[end - 1]
                candidate = (score, -abs(first - near), first, last)
                if best is None or candidate > best:
                    best = candidate
        if best is None or best[0] < minimum:
            return None
        score, _, first, last = best
        return BlockHit(first, last - first + 1, for_similarity(score), score)


def _key(line: str, loose: bool) -> str:
    return line.strip() if loose else line.rstrip("\r\n")
