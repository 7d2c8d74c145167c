"""Which names each reference of a file consulted while it was resolved, compact.

The linker resolves a reference again when a name it consulted changes (see
map.linker). Kept as a dict of index tuples per file, this table took ~34 MB
of the benchmark's mix corpus once loaded; as a sorted column of names beside
an array of reference indexes it takes about 12 bytes a (name, index) pair.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping


class Consulted:
    """(name, reference index) pairs of one file, sorted by name."""

    __slots__ = ("_indexes", "_names")

    def __init__(self) -> None:
        self._names: tuple[str, ...] = ()
        self._indexes = array("I")

    def add(self, found: Mapping[str, Iterable[int]]) -> None:
        """Record that the references at these indexes consulted each name."""
        pairs = {*zip(self._names, self._indexes, strict=True)}
        pairs.update((name, index) for name, indexes in found.items() for index in indexes)
        ordered = sorted(pairs)
        self._names = tuple(name for name, _ in ordered)
        self._indexes = array("I", (index for _, index in ordered))

    def indexes(self, names: Iterable[str]) -> set[int]:
        """The references that consulted any of `names`."""
        found: set[int] = set()
        for name in names:
            start = bisect_left(self._names, name)
            found.update(self._indexes[start : bisect_right(self._names, name, start)])
        return found

    def names(self) -> set[str]:
        """Every name consulted."""
        return set(self._names)
