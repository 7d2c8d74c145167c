"""What a file's scopes give their local names, held compact for lookups.

Resolution asks what `name` was given in a scope (`FileScope.assigned`):
the distinct `Assignment`s of that (scope, name), in file order. Held as
they are decoded, one `Assignment` and one tuple per entry, these took
about 89 MB of the benchmark's mix corpus once linked (394k entries). Here
an entry keeps only what its `Assignment`s differ in (value and called: the
scope and name are its key), as tuples shared by every entry of the file
that holds the same; the commonest entry, a name given one unknown value
(a parameter, a loop variable), is one name in a tuple shared by the scopes
that give the same names nothing more (a tuple of a few names takes a fifth
of a frozenset's memory, and is searched as fast). `Assignment`s are built when asked
for, equal to those extracted.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from map.model import Assignment

Key = tuple[str, str]
"""(scope ID, name)."""
Givens = tuple[tuple[str, bool], ...]
"""(value, called) of each distinct `Assignment` of one key, in file order."""
UNKNOWN: Givens = (("", True),)
"""A name given one unknown value and nothing else (the commonest entry)."""


class Assigned:
    """(scope ID, name) -> the distinct `Assignment`s giving `name` in that scope."""

    __slots__ = ("_givens", "_unknown")

    def __init__(self, assignments: Iterable[Assignment]) -> None:
        found: dict[Key, Givens] = {}
        for a in assignments:
            key, given = (a.scope, a.name), (a.value, a.called)
            held = found.get(key)
            if held is None:
                found[key] = (given,)
            elif given not in held:
                found[key] = (*held, given)
        shared: dict[Givens, Givens] = {UNKNOWN: UNKNOWN}
        unknown: dict[str, list[str]] = {}
        self._givens: dict[Key, Givens] = {}
        for key, givens in found.items():
            if givens == UNKNOWN:
                unknown.setdefault(key[0], []).append(key[1])
            else:
                self._givens[key] = shared.setdefault(givens, givens)
        names: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._unknown: dict[str, tuple[str, ...]] = {}
        """scope ID -> the names given one unknown value there, and nothing else."""
        for scope, local in unknown.items():
            alike = tuple(local)
            self._unknown[scope] = names.setdefault(alike, alike)

    def get(self, key: Key, default: tuple[Assignment, ...] = ()) -> tuple[Assignment, ...]:
        """The `Assignment`s of `key`, else `default`."""
        givens = self._raw(key)
        if givens is None:
            return default
        scope, name = key
        return tuple(Assignment(name, scope, value, called) for value, called in givens)

    def givens(self, key: Key) -> Givens:
        """What the `Assignment`s of `key` give: (value, called) each (() when none)."""
        return self._raw(key) or ()

    def first(self, scopes: Iterable[str], name: str) -> str | None:
        """The first of `scopes` that gives `name` anything (None: none does)."""
        givens, unknown = self._givens, self._unknown
        for scope in scopes:
            if (scope, name) in givens:
                return scope
            names = unknown.get(scope)
            if names is not None and name in names:
                return scope
        return None

    def _raw(self, key: Key) -> Givens | None:
        givens = self._givens.get(key)
        if givens is None:
            names = self._unknown.get(key[0])
            if names is not None and key[1] in names:
                return UNKNOWN
        return givens

    def raw_items(self) -> Iterator[tuple[Key, Givens]]:
        """Every key with its givens (no `Assignment` built)."""
        yield from self._givens.items()
        for scope, names in self._unknown.items():
            for name in names:
                yield (scope, name), UNKNOWN

    def items(self) -> Iterator[tuple[Key, tuple[Assignment, ...]]]:
        """Every key with its `Assignment`s."""
        for (scope, name), givens in self.raw_items():
            yield (scope, name), tuple(Assignment(name, scope, v, c) for v, c in givens)

    def __iter__(self) -> Iterator[Key]:
        return (key for key, _ in self.raw_items())

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and len(key) == 2 and self._raw(key) is not None

    def __len__(self) -> int:
        return len(self._givens) + sum(len(names) for names in self._unknown.values())
