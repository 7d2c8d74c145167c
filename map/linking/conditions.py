"""C and C++ definitions under preprocessor conditions (map.extraction.c_conditions).

A definition under a branch its file decides is not taken is out of every lookup
(its file's scope leaves it out of `by_qual`, and it defines no declaration). A
definition under a condition its file does not decide (`static int gzclose(...)`
under `#ifdef Z_SOLO` in a test that also includes zlib.h) holds only if the build
defines what it tests: a call whose targets hold one beside another definition is a
guess among them, never an edge (which one it runs depends on the build), and its
answers say `partial` naming the condition (map.linking.unresolved's `conditional`).
"""

from __future__ import annotations

from collections.abc import Mapping

from map.linking.resolution import CALLABLE_KINDS, CONFIDENCE_BY_NAME, MACRO, Resolution, file_of
from map.linking.scopes import Declared, FileScope


def undecided(scope: FileScope, ids: tuple[str, ...]) -> bool:
    """Whether one of `ids` (the file's own) is defined under a condition the file does
    not decide: the definitions its includes declare stand beside it."""
    return any(node_id in scope.conditions for node_id in ids)


def settle(scopes: Mapping[str, FileScope], found: Resolution) -> Resolution:
    """`found`, a guess when one of several functions among its targets is defined
    under a condition its file does not decide (a macro is none: one that renames the
    name, zlib's `#define gz_error z_gz_error` under `#ifdef Z_PREFIX`, names nothing
    of ours, and a function-like macro's alternatives are all expanded)."""
    if len(found.targets) < 2 or found.confidence <= CONFIDENCE_BY_NAME:
        return found
    functions = [t for t in found.targets if _function(_symbol(scopes, t))]
    if len(functions) < 2 or not any(t in scopes[file_of(t)].conditions for t in functions):
        return found
    return Resolution(found.targets, CONFIDENCE_BY_NAME / len(found.targets), found.constructors)


def condition_of(scope: FileScope, targets: tuple[str, ...]) -> str | None:
    """The undecided condition of the first of `targets` its file holds under one."""
    return next((scope.conditions[t] for t in targets if t in scope.conditions), None)


def _symbol(scopes: Mapping[str, FileScope], node_id: str) -> Declared:
    return scopes[file_of(node_id)].symbols[node_id]


def _function(symbol: Declared) -> bool:
    return symbol.kind in CALLABLE_KINDS and symbol.form != MACRO
