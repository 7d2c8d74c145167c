"""Where a C or C++ declaration is defined: a use that reaches a prototype, or a
method declared in its class, is an edge to the definition
(docs/contracts.md#declarations-and-definitions).

A declaration's definitions are the functions and methods of its qualified
name in the C family that are not declarations themselves, nor `static` in another
file than a `static` declaration's includers (a header's `static` prototype is each
includer's), nor under a preprocessor branch not taken: those of the declaration's
own file first, else those of a file of the same stem (`shape.h` -> `shape.cpp`),
else all of them (more than MAX_CANDIDATES: the declaration stays the target, as a
guess; when nothing defines it, the target).
Each lookup consults the declaration's name, so an edit that adds, removes or
changes a definition resolves the references that reached it again.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import PurePosixPath

from map.linking.lookup import Lookup
from map.linking.resolution import (
    CALLABLE_KINDS,
    CONFIDENCE_BY_NAME,
    CONFIDENCE_EXACT,
    LANGUAGE_FAMILIES,
    MACRO,
    MAX_CANDIDATES,
    STATIC,
    Resolution,
    file_of,
)
from map.linking.scopes import Declared, FileScope

DECLARING_LANGUAGES = frozenset({"c", "cpp"})
"""Languages whose functions may be declared in one file and defined in another."""
_FAMILY = "c"


class Definitions:
    """Each declaration's definitions, remembered until `forget`."""

    def __init__(
        self, scopes: Mapping[str, FileScope], defs_by_name: Mapping[str, set[str]]
    ) -> None:
        self._scopes = scopes
        self._defs = defs_by_name
        self._known: dict[str, tuple[str, ...]] = {}
        self._crowded: set[str] = set()
        """Declarations with more definitions than MAX_CANDIDATES."""

    def forget(self) -> None:
        """Drop what was found; call whenever scopes or definitions change."""
        self._known.clear()
        self._crowded.clear()

    def resolve(self, ctx: Lookup, found: Resolution, scope_id: str) -> Resolution | None:
        """`found` with each declaration among its targets replaced by its definitions
        (the confidence shared among as many targets as there are now, at most exact).
        A declaration's own reference (`scope_id` is the declaration) names its
        definitions only: no target when there are none."""
        targets: list[str] = []
        crowded = False
        for target in found.targets:
            symbol = self._symbol(target)
            if not symbol.declaration:
                targets.append(target)
                continue
            defined = self._of(ctx, target, symbol)
            crowded = crowded or target in self._crowded
            if defined != (target,) or target != scope_id:
                targets.extend(defined)
        unique = tuple(dict.fromkeys(targets))
        if crowded and unique:  # which of many definitions is meant: a guess
            share = min(found.confidence, CONFIDENCE_BY_NAME)
            return Resolution(unique, share, found.constructors)
        if unique == found.targets:
            return found
        if not unique:  # known, and nothing to link: not a use left open (map.linking.unresolved)
            return Resolution((), CONFIDENCE_EXACT)
        share = found.confidence * len(found.targets) / len(unique)
        return Resolution(unique, min(CONFIDENCE_EXACT, share), found.constructors)

    def one_of(self, ctx: Lookup, found: Resolution) -> Resolution:
        """`found`, a guess when its targets are alternatives under preprocessor
        conditions, as C has no overloads: several functions of one name in one file
        (`#if ... #else`), or a function and a macro of its name (`#define zmemcpy
        memcpy` beside the prototype of `zmemcpy`); which one a call runs depends on
        the build. A macro that renames the name to nothing of ours (zlib's `#define
        gzopen z_gzopen`, which renames the definition too) is no rival. Macros alone
        stay as they are (their expansions are the union)."""
        if found.confidence <= CONFIDENCE_BY_NAME:
            return found
        if len(found.targets) == 1:
            return self._renamed(ctx, found)
        symbols = [(t, self._symbol(t)) for t in found.targets]
        if any(self._scopes[file_of(t)].language != _FAMILY for t, _ in symbols):
            return found
        if len({s.name for _, s in symbols}) != 1:
            return found
        macros = [t for t, s in symbols if s.form == MACRO or s.kind == "constant"]
        renames = [t for t in macros if self._symbol(t).kind == "constant"]
        for macro in renames:  # a rename to nothing of ours (zlib's Z_PREFIX) is no rival
            names = self._scopes[file_of(macro)].expansions.get(macro, ())
            ctx.consulted.update(names)
            if not any(self._defs.get(name) for name in names):
                macros.remove(macro)
                symbols = [(t, s) for t, s in symbols if t != macro]
        functions = [t for t, s in symbols if s.kind in CALLABLE_KINDS and s.form != MACRO]
        if len(macros) + len(functions) != len(symbols) or not functions:
            return found
        if not macros and (len(functions) < 2 or len({file_of(t) for t in functions}) != 1):
            return found
        share = CONFIDENCE_BY_NAME / len(found.targets)
        return Resolution(found.targets, share, found.constructors)

    def _renamed(self, ctx: Lookup, found: Resolution) -> Resolution:
        """A call that reaches only a macro renaming it to nothing of ours (zlib's
        `Z_PREFIX` renames, where the prototype beside it went unread): a guess among
        the C functions of its name, if any."""
        macro = found.targets[0]
        symbol = self._symbol(macro)
        names = self._scopes[file_of(macro)].expansions.get(macro, ())
        if symbol.kind != "constant" or not names:
            return found
        ctx.consulted.update((*names, symbol.name))
        if any(self._defs.get(name) for name in names):
            return found
        rivals = sorted(
            node_id
            for node_id in self._defs.get(symbol.name, ())
            if (held := self._symbol(node_id)).kind in CALLABLE_KINDS
            and not held.declaration
            and held.form is None
            and self._scopes[file_of(node_id)].language == _FAMILY
        )
        if not rivals:
            return found
        share = CONFIDENCE_BY_NAME / (len(rivals) + 1)
        return Resolution((macro, *rivals), share, found.constructors)

    def _symbol(self, node_id: str) -> Declared:
        return self._scopes[file_of(node_id)].symbols[node_id]

    def _of(self, ctx: Lookup, node_id: str, symbol: Declared) -> tuple[str, ...]:
        ctx.consulted.add(symbol.name)
        known = self._known.get(node_id)
        if known is None:
            known = self._known[node_id] = self._search(node_id, symbol)
        return known

    def _search(self, node_id: str, symbol: Declared) -> tuple[str, ...]:
        found: list[str] = []
        for other in self._defs.get(symbol.name, ()):
            scope = self._scopes[file_of(other)]
            held = scope.symbols[other]
            if (
                not held.declaration
                and other in scope.by_qual.get(held.qualname, ())  # not under `#if 0`
                and (held.form != STATIC or self._sees(file_of(other), node_id, symbol))
                and held.kind in CALLABLE_KINDS
                and held.qualname == symbol.qualname
                and LANGUAGE_FAMILIES.get(scope.language, scope.language) == _FAMILY
            ):
                found.append(other)
        path = file_of(node_id)
        stem = PurePosixPath(path).stem
        for preferred in (
            [f for f in found if file_of(f) == path],
            [f for f in found if PurePosixPath(file_of(f)).stem == stem],
            found,
        ):
            if len(preferred) > MAX_CANDIDATES:
                self._crowded.add(node_id)
            if preferred:
                return tuple(sorted(preferred)) if len(preferred) <= MAX_CANDIDATES else (node_id,)
        return (node_id,)

    def _sees(self, path: str, declaration: str, symbol: Declared) -> bool:
        """Whether a `static` function of `path` may define a declaration (`symbol`):
        its own file's, or a `static` one of a file it includes (a header's `static`
        prototype is each includer's; an `extern` one is not a `static` function's)."""
        declared_in = file_of(declaration)
        if path == declared_in:
            return True
        return symbol.form == STATIC and declared_in in self._scopes[path].visible_files
