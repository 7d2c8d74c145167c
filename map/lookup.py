"""The state of one name lookup, and what modules export through re-exports.

`Exports.find` answers `name` as the modules in `files` export it: their own
definitions, then the names they import from elsewhere and their star
imports, followed transitively and remembered (with the names each answer
consulted) until `forget`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from map.model import Assignment
from map.scopes import FileScope, NameBinding

_UNDER_WAY: tuple[tuple[str, ...], frozenset[str]] = ((), frozenset())


@dataclass(slots=True)
class Lookup:
    """One resolution: the file it is for and the names it consulted elsewhere."""

    file: str
    consulted: set[str]
    cyclic: bool = False
    following: set[Assignment] = field(default_factory=set)
    """Assignments whose value is being resolved (`x = x.parent` ends there)."""


def see(ctx: Lookup, scope: FileScope, name: str) -> None:
    """Record that the lookup consulted `name` in `scope` (when another file's)."""
    if scope.path != ctx.file:
        ctx.consulted.add(name)


def defined(ctx: Lookup, scope: FileScope, qual: str, name: str) -> tuple[str, ...]:
    """The symbols of qualified name `qual` in `scope` (`name` is consulted)."""
    see(ctx, scope, name)
    return scope.by_qual.get(qual, ())


class Exports:
    """What modules export, remembered until `forget`."""

    def __init__(self, scopes: Mapping[str, FileScope]) -> None:
        self._scopes = scopes
        self._known: dict[tuple[tuple[str, ...], str], tuple[tuple[str, ...], frozenset[str]]]
        self._known = {}

    def forget(self) -> None:
        """Drop the answers remembered so far (scopes or definitions changed)."""
        self._known.clear()

    def find(self, ctx: Lookup, files: tuple[str, ...], name: str) -> tuple[str, ...]:
        """`name` as the module in `files` exports it, following re-exports.

        Answers are remembered (until `forget`) with the names they consulted;
        a lookup already under way answers () so import cycles end, and an
        answer that met a cycle is not remembered.
        """
        key = (files, name)
        known = self._known.get(key)
        if known is _UNDER_WAY:
            ctx.cyclic = True
            return ()
        if known is None:
            self._known[key] = _UNDER_WAY
            inner = Lookup("", set())
            known = (self._search(inner, files, name), frozenset(inner.consulted))
            if inner.cyclic:  # the answer depends on where the cycle was entered
                del self._known[key]
                ctx.cyclic = True
            else:
                self._known[key] = known
        ctx.consulted |= known[1]
        return known[0]

    def _search(self, ctx: Lookup, files: tuple[str, ...], name: str) -> tuple[str, ...]:
        scopes = [self._scopes[f] for f in files if f in self._scopes]
        for scope in scopes:
            ids = defined(ctx, scope, name, name)
            if ids:
                return ids
        for scope in scopes:
            binding = scope.bindings.get(name)
            if isinstance(binding, NameBinding):
                ids = self.find(ctx, binding.files, binding.name)
                if ids:
                    return ids
            ids = self.find(ctx, scope.stars, name)
            if ids:
                return ids
        return ()
