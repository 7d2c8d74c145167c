"""What an edit changes for the other files of a repository: the names whose
lookups may now answer differently, so only the references that consulted them
are resolved again."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Mapping
from pathlib import PurePosixPath

from map.linking.scopes import FileScope
from map.model import ATTRIBUTE_PREFIX, CONDITIONAL, GIVES, INACTIVE, RETURNS

Facts = tuple[dict[str, tuple[object, ...]], tuple[str, ...]]


def visible_facts(scope: FileScope) -> Facts:
    """What other files can see of `scope`'s file, name by name, and its star imports.

    A name's entry holds every symbol of that name (ID, kind, whether it is a
    declaration, a class's bases as written, a C function's form and what a macro's
    body calls), what an import binds to it and what a module-level
    assignment, an instance attribute, a return annotation or a fixture's body gives it
    (and the preprocessor conditions a C definition sits under); when an
    entry is unchanged, no lookup of that name in this file can answer
    differently.
    """
    table: defaultdict[str, list[object]] = defaultdict(list)
    for node_id, symbol in scope.symbols.items():
        bases = tuple((r.name, r.qualifier) for r in scope.bases.get(node_id, ()))
        calls = scope.expansions.get(node_id, ())  # what a C macro's body calls
        facts = (node_id, symbol.kind, symbol.declaration, bases, symbol.form, calls)
        table[symbol.name].append(facts)
    for local, binding in scope.bindings.items():
        table[local].append(binding)
    for (where, local), values in scope.assigned.items():
        # a module variable, an instance attribute (class body, `self.x = ...`), or
        # what a function returns or a fixture gives (looked up by the function's name)
        if local in (RETURNS, GIVES, CONDITIONAL, INACTIVE):
            table[scope.symbols[where].name].append((where, values))
        elif where == scope.path or scope.is_class(where) or local.startswith(ATTRIBUTE_PREFIX):
            table[local.removeprefix(ATTRIBUTE_PREFIX)].append((where, values))
    return {name: tuple(entry) for name, entry in table.items()}, scope.stars


def moved_names(
    scopes: Mapping[str, FileScope],
    presence: Mapping[str, tuple[bool, bool]],
    before: Mapping[str, Facts],
) -> set[str]:
    """The names whose lookups may answer differently now that the files of `presence`
    (path -> (was linked, is linked)) changed: those whose visible facts moved
    (`before`: each changed file's facts before the change), what star imports
    added or dropped re-export, and the module names of files that came or went."""
    names: set[str] = set()
    stars: set[str] = set()
    for path in presence:
        old_names, old_stars = before.get(path, ({}, ()))
        new_names, new_stars = visible_facts(scopes[path]) if path in scopes else ({}, ())
        names |= {
            n for n in old_names.keys() | new_names.keys() if old_names.get(n) != new_names.get(n)
        }
        if old_stars != new_stars:
            stars |= {*old_stars, *new_stars}
    return names | exported_names(scopes, stars) | names_of_layout(presence)


def exported_names(scopes: Mapping[str, FileScope], files: Collection[str]) -> set[str]:
    """Every top-level or imported name of `files` (what a star import re-exports)."""
    names: set[str] = set()
    for path in files:
        scope = scopes.get(path)
        if scope is not None:
            names |= {s.name for s in scope.symbols.values() if not s.container}
            names |= set(scope.bindings)
    return names


def names_of_layout(presence: Mapping[str, tuple[bool, bool]]) -> set[str]:
    """Module names that appear or vanish with added or removed files
    (`presence`: path -> (was linked, is linked))."""
    names: set[str] = set()
    for path, (was, now) in presence.items():
        if not (was and now):
            pure = PurePosixPath(path)
            names.add(pure.stem)
            names.add(pure.parent.name)
    return names
