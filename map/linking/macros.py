"""A call of a C or C++ function-like macro runs what the macro's body calls.

The call is an edge to the macro and, at the call's own line, to every function the
body calls, through the macros it uses in turn (unity's `TEST_ASSERT_EQUAL_INT(...)`
calls `UnityAssertEqualNumber` where it is written, as a compiler and clangd's call
hierarchy see it). A body's names are looked up where the macro is defined; only
those that resolve beyond a guess are followed. What each macro runs is remembered,
with the names its lookups consulted, until `forget`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from map.linking.lookup import Lookup, Trace, recording, replay, trace
from map.linking.resolution import (
    CALLABLE_KINDS,
    CONFIDENCE_BY_NAME,
    MACRO,
    Resolution,
    file_of,
)
from map.linking.scopes import FileScope

MAX_MACROS = 32
"""The most macros one expansion follows (a chain of macros calling macros)."""

Find = Callable[[Lookup, FileScope, str, str], Resolution | None]
"""What a bare name in a scope (a macro's, by node ID) names, definitions for
declarations."""


class Macros:
    """What calls of function-like macros run, remembered until `forget`."""

    def __init__(self, scopes: Mapping[str, FileScope], find: Find) -> None:
        self._scopes = scopes
        self._find = find
        self._known: dict[str, tuple[tuple[str, ...], Trace]] = {}

    def forget(self) -> None:
        """Drop what was found; call whenever scopes or definitions change."""
        self._known.clear()

    def expand(self, ctx: Lookup, found: Resolution) -> Resolution:
        """`found` with what each macro among its targets runs added to what the call
        reaches (`Resolution.constructors`)."""
        macros = [target for target in found.targets if self._is_macro(target)]
        if not macros:
            return found
        reached = set(found.reached)
        runs: dict[str, None] = {}
        for macro in macros:
            runs.update((t, None) for t in self._runs(ctx, macro) if t not in reached)
        if not runs:
            return found
        return Resolution(found.targets, found.confidence, found.constructors + tuple(runs))

    def _is_macro(self, node_id: str) -> bool:
        return self._scopes[file_of(node_id)].symbols[node_id].form == MACRO

    def _runs(self, ctx: Lookup, macro: str) -> tuple[str, ...]:
        known = self._known.get(macro)
        if known is None:
            inner = recording()
            known = self._known[macro] = (self._search(inner, macro), trace(inner))
        replay(ctx, known[1])
        return known[0]

    def _search(self, ctx: Lookup, macro: str) -> tuple[str, ...]:
        found: dict[str, None] = {}
        pending, seen, expanded = [macro], {macro}, 0
        while pending and expanded < MAX_MACROS:
            current = pending.pop()
            expanded += 1
            scope = self._scopes[file_of(current)]
            for name in scope.expansions.get(current, ()):
                hit = self._find(ctx, scope, current, name)
                if hit is None or hit.confidence <= CONFIDENCE_BY_NAME:
                    continue
                for target in hit.targets:
                    symbol = self._scopes[file_of(target)].symbols[target]
                    if target not in seen and (symbol.kind in CALLABLE_KINDS or symbol.form):
                        seen.add(target)
                        found[target] = None
                        if self._is_macro(target):
                            pending.append(target)
        return tuple(found)
