"""A file's references as the linker keeps them between links: compact columns.

Resolution reads a reference's name, kind, scope and qualifier; an edge's
details read the first line of each use. A `Reference` object with its
`Range` costs about 140 bytes; here a reference costs 5 to 16 bytes: its
first line and kind in one code, and its name, scope and qualifier as
positions among the file's distinct ones, each in the narrowest array that
holds the file's (one byte each in almost every file; 1.3M references on
the benchmark's mix corpus: 194 -> ~13 MB). The full extract, ranges and all,
stays packed (map.linking.packed) for the answers that show it.
"""

from __future__ import annotations

from array import array
from collections.abc import Collection, Hashable, Iterable, Sequence
from sys import intern
from typing import Any, TypeVar

from map.extraction.block_locals import MARK
from map.extraction.script_locals import NUMBERED
from map.extraction.snapshot import REFERENCE_KINDS
from map.linking.lookup import RefKey
from map.model import EDGE_OF, Reference

T = TypeVar("T", bound=Hashable)
_MARKS = frozenset({MARK, NUMBERED})
"""What follows a renamed name's written one."""
_WIDTHS = (("B", 1 << 8), ("H", 1 << 16), ("I", 1 << 32))
"""Unsigned array type codes and the values each holds (below the bound)."""


def _column(values: Iterable[T]) -> tuple[tuple[T, ...], array[int]]:
    """The distinct values (first seen first) and each value's position among them."""
    positions: dict[T, int] = {}
    codes = [positions.setdefault(value, len(positions)) for value in values]
    return tuple(positions), narrow(codes, len(positions))


def narrow(values: list[int], bound: int) -> array[int]:
    """`values` (each below `bound`) in the narrowest unsigned array that holds them:
    most files have fewer than 256 distinct names, scopes and qualifiers."""
    code = next((code for code, limit in _WIDTHS if bound <= limit), "Q")
    return array(code, values)


class References:
    """The references of one file, by index, as resolution reads them."""

    __slots__ = ("_codes", "_names", "_qualifiers", "_scopes", "_which")

    def __init__(self, references: Sequence[Reference]) -> None:
        self._fill(
            [r.name for r in references],
            [r.scope for r in references],
            [r.qualifier for r in references],
            [r.range.start_line * 4 + REFERENCE_KINDS.index(r.kind) for r in references],
        )

    @classmethod
    def of_stored(cls, path: str, stored: Sequence[list[Any]]) -> References:
        """The references of `path` from the store's reference lists (map.extraction.snapshot:
        name, kind, range, scope tail or None, qualifier), without building a
        `Reference` for each: the same columns as from the decoded extract."""
        scopes = {tail: path if tail is None else f"{path}#{tail}" for _, _, _, tail, _ in stored}
        columns = cls(())
        columns._fill(
            [intern(r[0]) for r in stored],
            [scopes[r[3]] for r in stored],
            [None if r[4] is None else intern(r[4]) for r in stored],
            [r[2][0] * 4 + r[1] for r in stored],
        )
        return columns

    def _fill(
        self,
        names: list[str],
        scopes: list[str],
        qualifiers: list[str | None],
        codes: list[int],
    ) -> None:
        """Keep each reference's name, scope and qualifier as positions among the
        file's distinct ones, and its code: 0-based first line * 4 + its kind's index."""
        self._names, name_at = _column(names)
        self._scopes, scope_at = _column(scopes)
        self._qualifiers, qualifier_at = _column(qualifiers)
        self._which = (name_at, scope_at, qualifier_at)
        """Per reference: the position of its name, scope and qualifier."""
        self._codes = narrow(codes, max(codes, default=0) + 1)

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

    def names_at(self, indexes: Iterable[int]) -> frozenset[str]:
        """The distinct names the references at `indexes` use."""
        at, names = self._which[0], self._names
        return frozenset([names[code] for code in {at[i] for i in indexes}])

    def named(self, names: Collection[str]) -> list[int]:
        """The indexes of the references that use one of `names`, in order."""
        return _positions(self._which[0], self._names, names)

    def written_as(self, name: str) -> tuple[str, ...]:
        """The names of the file's references written `name`: itself, and a block's own
        local or a callback's own function renamed from it (`cmd'812`, `Counter~7`:
        map.extraction.block_locals, map.extraction.script_locals)."""
        size = len(name)
        return tuple(
            n for n in self._names if n.startswith(name) and (len(n) == size or n[size] in _MARKS)
        )

    def within(self, scopes: Collection[str]) -> list[int]:
        """The indexes of the references directly inside one of `scopes` (node IDs)."""
        return _positions(self._which[1], self._scopes, scopes)

    def key(self, index: int, target: str) -> tuple[str, str, str]:
        """The edge (scope, target, kind) the reference at `index` makes to `target`."""
        scope = self._scopes[self._which[1][index]]
        return (scope, target, EDGE_OF[REFERENCE_KINDS[self._codes[index] % 4]])

    def line(self, index: int) -> int:
        """The 1-based first line of the reference at `index`."""
        return self._codes[index] // 4 + 1


def _positions(column: array[int], values: tuple[T, ...], wanted: Collection[T]) -> list[int]:
    """The indexes, in order, whose `column` entry is the position of one of `wanted` in
    `values` (searched by the array itself: a file's few matches cost what they are)."""
    found: list[int] = []
    for code in (code for code, value in enumerate(values) if value in wanted):
        at = -1
        try:
            while True:
                at = column.index(code, at + 1)
                found.append(at)
        except ValueError:
            continue
    return sorted(found)
