"""The state of one name lookup, and what modules export through re-exports.

`Exports.find` answers `name` as the modules in `files` export it: their own
definitions, then the names they import from elsewhere and their star
imports, followed transitively and remembered (with the names each answer
consulted) until `forget`.

A name seen in a file's own scope is not a dependency of that file (a change
there re-resolves the whole file anyway), so an answer remembered for lookups
from any file keeps its consulted names by the file they were seen in
(`Trace`), and `replay` adds those that count for the file asking.

`answer_key` says what a reference's answer takes from where it is written,
so that references alike in that answer once per file.
"""

from __future__ import annotations

from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

from map.extraction.node_text import CALLED, SUPER_CALL
from map.linking.resolution import LEXICAL_CONSTANT_LANGUAGES
from map.linking.scopes import FileScope, NameBinding
from map.model import NARROWED, Assignment, ReferenceKind

SELF_WORDS = frozenset({"self", "cls", "this", "Self", "$this"})
SUPER_WORDS = frozenset({"super", SUPER_CALL})
OWN_CLASS_CALLS = frozenset({"static"})
"""Besides SELF_WORDS, what names the class around it when built (PHP's `new static()`)."""
RefKey = tuple[str, str, str | None, ReferenceKind]
"""A reference as resolution reads it: scope, name, qualifier, kind."""
AnswerKey = tuple[str | None, str, str | None, str]
"""What the answer for a reference depends on within its file (`answer_key`)."""

_UNDER_WAY: tuple[tuple[str, ...], frozenset[str]] = ((), frozenset())


@dataclass(slots=True)
class Lookup:
    """One resolution: the file it is for and the names it consulted elsewhere."""

    file: str
    consulted: set[str]
    cyclic: bool = False
    following: set[Assignment] = field(default_factory=set)
    """Assignments whose value is being resolved (`x = x.parent` ends there)."""
    seen: dict[str, set[str]] | None = None
    """While recording an answer to remember (`recording`): the names seen in each
    file's scope, whichever file asks; `consulted` then holds the names that count
    for every file."""


@dataclass(frozen=True, slots=True)
class Trace:
    """The names a remembered answer consulted: those that count for every file,
    and those seen in one file's scope (they count for the other files)."""

    always: frozenset[str]
    by_file: tuple[tuple[str, frozenset[str]], ...]


def recording() -> Lookup:
    """A lookup that records what it consults for a `Trace` (see `trace`)."""
    return Lookup("", set(), seen={})


def trace(ctx: Lookup) -> Trace:
    """What a `recording` lookup consulted."""
    seen = ctx.seen or {}
    return Trace(
        frozenset(ctx.consulted), tuple((path, frozenset(names)) for path, names in seen.items())
    )


def replay(ctx: Lookup, done: Trace) -> None:
    """Record in `ctx` what a remembered answer consulted, as if it had looked again."""
    if done.always:
        ctx.consulted |= done.always
    seen = ctx.seen
    for path, names in done.by_file:
        if seen is not None:
            held = seen.get(path)
            if held is None:
                seen[path] = set(names)
            else:
                held |= names
        elif path != ctx.file:
            ctx.consulted |= names


def see(ctx: Lookup, scope: FileScope, name: str) -> None:
    """Record that the lookup consulted `name` in `scope` (when another file's)."""
    seen = ctx.seen
    if seen is not None:
        held = seen.get(scope.path)
        if held is None:
            seen[scope.path] = {name}
        else:
            held.add(name)
    elif scope.path != ctx.file:
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


def answer_key(scope: FileScope, ref: RefKey, shadowed: AbstractSet[str]) -> AnswerKey:
    """The reference with its scope replaced by what the answer takes from it: the
    class around it when it starts with `self.` or `super().` or is `cls(...)`,
    `new self()` or `new static()` (the scope, in a method
    defined out of line: its class is found elsewhere); else the module,
    unless a function or class around it defines or assigns the name it starts with
    (only names in `shadowed`, see `shadowed_names`, can be). In Ruby, the scope."""
    where, name, qualifier, kind = ref
    head = name if qualifier is None else segments(qualifier)[0]
    if head in SELF_WORDS or head in SUPER_WORDS or head in OWN_CLASS_CALLS:
        if qualifier is not None and NARROWED + qualifier in shadowed:
            return ref  # `$this->x instanceof Foo` in some function: whose it is matters
        owner = scope.enclosing_class(where)  # none: a method defined out of line
        return (owner, name, qualifier, kind) if owner is not None else ref
    head = head.removesuffix(CALLED)
    path = scope.path
    if scope.language in LEXICAL_CONSTANT_LANGUAGES and where != path:
        return ref  # names in included files are looked up under the modules around it
    if where == path or head not in shadowed:
        return (path, name, qualifier, kind)
    by_qual = scope.by_qual
    for prefix in scope.lookup_prefixes(where):
        if prefix and prefix + head in by_qual:
            return ref
    if scope.assigning(where, head) not in (None, path):  # assigned in a function around it
        return ref
    return (path, name, qualifier, kind)


def shadowed_names(scope: FileScope) -> frozenset[str]:
    """Every name the file defines or assigns in a function or class (a superset of
    those that can hide a module-level name somewhere)."""
    nested = {qual.rpartition(".")[2] for qual in scope.by_qual if "." in qual}
    return frozenset(nested | {name for where, name in scope.assigned if where != scope.path})


def segments(qualifier: str) -> list[str]:
    """A qualifier's names, whatever the language's separator (`a.b`, `a::b`, `a->b`)."""
    return qualifier.replace("::", ".").replace("->", ".").split(".")
