"""A file's references as the linker keeps them between links: compact columns.

Resolution reads a reference's name, kind, scope and qualifier; an edge's
details read the first line of each use. A `Reference` object with its
`Range` costs about 140 bytes, these columns about 28 (1.3M references on
the benchmark's mix corpus: 194 -> 36 MB). The full extract, ranges and
all, stays packed (map.packed) for the answers that show it.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

from map.model import Range, Reference
from map.snapshot import REFERENCE_KINDS


class References:
    """The references of one file, by index, as resolution reads them."""

    __slots__ = ("_codes", "_names", "_qualifiers", "_scopes")

    def __init__(self, references: Sequence[Reference]) -> None:
        self._names = tuple(r.name for r in references)
        self._qualifiers = tuple(r.qualifier for r in references)
        self._scopes = tuple(r.scope for r in references)
        self._codes = array(
            "I", (r.range.start_line * 4 + REFERENCE_KINDS.index(r.kind) for r in references)
        )
        """0-based first line * 4 + the kind's index."""

    def __len__(self) -> int:
        return len(self._names)

    def reference(self, index: int) -> Reference:
        """The reference at `index` for resolution: its range is its first line only."""
        line, kind = divmod(self._codes[index], 4)
        return Reference(
            self._names[index],
            REFERENCE_KINDS[kind],
            Range(line, 0, line, 0),
            self._scopes[index],
            self._qualifiers[index],
        )

    def key(self, index: int, target: str) -> tuple[str, str, str]:
        """The edge (scope, target, kind) the reference at `index` makes to `target`."""
        return (self._scopes[index], target, REFERENCE_KINDS[self._codes[index] % 4])

    def line(self, index: int) -> int:
        """The 1-based first line of the reference at `index`."""
        return self._codes[index] // 4 + 1
