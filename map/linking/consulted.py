"""Which names each reference of a file consulted while it was resolved, compact.

The linker resolves a reference again when a name it consulted changes (see
map.linking.linker). Kept as a dict of index tuples per file, this table took ~34 MB
of the benchmark's mix corpus once loaded; as (name, reference index) pairs
sorted by name it takes each distinct name once with where its run of
indexes ends, and each index in the narrowest array that holds the file's
(1.9M pairs, 139k names a file on mix: about 3 bytes a pair).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from sys import intern

from map.linking.references import narrow


class Consulted:
    """(name, reference index) pairs of one file, sorted by name."""

    __slots__ = ("_ends", "_indexes", "_names")

    def __init__(self) -> None:
        self._names: tuple[str, ...] = ()
        """Each name once, sorted."""
        self._ends = array("B")
        """Where each name's run of `_indexes` ends."""
        self._indexes = array("B")

    def add(self, found: Mapping[str, Iterable[int]]) -> None:
        """Record that the references at these indexes consulted each name."""
        if not self._names:
            self._fill(found)
            return
        pairs: set[tuple[str, int]] = set()
        start = 0
        for name, end in zip(self._names, self._ends, strict=True):
            pairs.update((name, index) for index in self._indexes[start:end])
            start = end
        pairs.update((name, index) for name, indexes in found.items() for index in indexes)
        ordered = sorted(pairs)
        names: dict[str, int] = {}
        for at, (name, _) in enumerate(ordered, 1):
            names[name] = at
        self._names = tuple(names)
        self._ends = narrow(list(names.values()), len(ordered) + 1)
        indexes = [index for _, index in ordered]
        self._indexes = narrow(indexes, max(indexes, default=0) + 1)

    def _fill(self, found: Mapping[str, Iterable[int]]) -> None:
        """`add` into an empty table (a file linked whole): name by name, without
        making and sorting a tuple for every (name, index) pair of the file."""
        names: list[str] = []
        ends: list[int] = []
        indexes: list[int] = []
        for name in sorted(found):
            run = sorted(set(found[name]))
            if run:
                names.append(name)
                indexes.extend(run)
                ends.append(len(indexes))
        self._names = tuple(names)
        self._ends = narrow(ends, len(indexes) + 1)
        self._indexes = narrow(indexes, max(indexes, default=0) + 1)

    def _run(self, name: str) -> array[int]:
        """The indexes of the references that consulted `name`."""
        at = bisect_left(self._names, name)
        if at == len(self._names) or self._names[at] != name:
            return self._indexes[:0]
        return self._indexes[self._ends[at - 1] if at else 0 : self._ends[at]]

    def indexes(self, names: Iterable[str]) -> set[int]:
        """The references that consulted any of `names`."""
        found: set[int] = set()
        for name in names:
            found.update(self._run(name))
        return found

    def names(self) -> set[str]:
        """Every name consulted."""
        return set(self._names)

    def lists(self) -> tuple[list[str], list[int], list[int]]:
        """The names, their runs' ends and the indexes, as plain lists (for the store)."""
        return list(self._names), self._ends.tolist(), self._indexes.tolist()

    @classmethod
    def of_lists(cls, names: list[str], ends: list[int], indexes: list[int]) -> Consulted:
        """The table `lists` gave, as it was."""
        consulted = cls()
        consulted._names = tuple(map(intern, names))  # shared with the references' names
        consulted._ends = narrow(ends, len(indexes) + 1)
        consulted._indexes = narrow(indexes, max(indexes, default=0) + 1)
        return consulted
