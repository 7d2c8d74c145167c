"""A file's references as the linker keeps them between links: compact columns.

Resolution reads a reference's name, kind, scope and qualifier; an edge's
details read the first line of each use. A `Reference` object with its
`Range` costs about 140 bytes; here a reference costs 16 bytes: its first
line and kind in one 4-byte code, and its name, scope and qualifier as
4-byte positions among the file's distinct ones (1.3M references on the
benchmark's mix corpus: 194 -> ~25 MB). The full extract, ranges and all,
stays packed (map.packed) for the answers that show it.
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Iterable, Sequence
from typing import TypeVar

from map.lookup import RefKey
from map.model import Reference
from map.snapshot import REFERENCE_KINDS

T = TypeVar("T", bound=Hashable)


def _column(values: Iterable[T]) -> tuple[tuple[T, ...], array[int]]:
    """The distinct values (first seen first) and each value's position among them."""
    positions: dict[T, int] = {}
    codes = array("I", (positions.setdefault(value, len(positions)) for value in values))
    return tuple(positions), codes


class References:
    """The references of one file, by index, as resolution reads them."""

    __slots__ = ("_codes", "_names", "_qualifiers", "_scopes", "_which")

    def __init__(self, references: Sequence[Reference]) -> None:
        self._names, names = _column(r.name for r in references)
        self._scopes, scopes = _column(r.scope for r in references)
        self._qualifiers, qualifiers = _column(r.qualifier for r in references)
        self._which = (names, scopes, qualifiers)
        """Per reference: the position of its name, scope and qualifier."""
        self._codes = array(
            "I", (r.range.start_line * 4 + REFERENCE_KINDS.index(r.kind) for r in references)
        )
        """0-based first line * 4 + the kind's index."""

    def __len__(self) -> int:
        return len(self._codes)

    def lookup(self, index: int) -> RefKey:
        """The reference at `index` as resolution reads it: scope, name, qualifier, kind."""
        names, scopes, qualifiers = self._which
        return (
            self._scopes[scopes[index]],
            self._names[names[index]],
            self._qualifiers[qualifiers[index]],
            REFERENCE_KINDS[self._codes[index] % 4],
        )

    def key(self, index: int, target: str) -> tuple[str, str, str]:
        """The edge (scope, target, kind) the reference at `index` makes to `target`."""
        scope = self._scopes[self._which[1][index]]
        return (scope, target, REFERENCE_KINDS[self._codes[index] % 4])

    def line(self, index: int) -> int:
        """The 1-based first line of the reference at `index`."""
        return self._codes[index] // 4 + 1
