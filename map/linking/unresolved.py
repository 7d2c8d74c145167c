"""The uses linking could not tie to one definition of ours, and why.

A reference is left open when it resolved to nothing in the project, to
something typed as not ours (`OUTSIDE`), or only to a guess by name (confidence
`CONFIDENCE_BY_NAME` or less). The linker
records, per file, the names of its open references (`open_names`); an answer
reads the open uses of some names (`uses_named`) or inside some symbols'
bodies (`uses_within`) from the files whose record holds them, and says for
each why it is open:

| why         | the use                                                          |
|-------------|------------------------------------------------------------------|
| `outside`   | names something an import binds from outside the project, or a    |
|             | member of a value the map types as not ours (a library's type)    |
| `config`    | names something an import binds that led nowhere while the file's |
|             | project configuration (a tsconfig.json, package.json) could not   |
|             | be read: it may be ours                                            |
| `receiver`  | is a member of a receiver whose type the map does not know        |
| `local`     | is a bare name a local or parameter holds (a call through it calls |
|             | whatever was put there)                                           |
| `builtin`   | is a bare name of the language's own (Python's builtins)          |
| `undefined` | is a bare name with no definition the map can tie (a builtin, a   |
|             | library name, too many same-name definitions to guess)            |
| `guess`     | resolved by name only: `guesses` are the definitions it may mean  |
| `conditional` | a C or C++ call that may run a definition of its own file under  |
|             | a preprocessor `condition` the map cannot decide, or another      |
|             | (`guesses`): which one depends on the build                       |
| `compiled_if` | a C or C++ use inside a definition under such a `condition`: tied |
|             | to `guesses` (an edge too), compiled only in builds that meet it  |
"""

from __future__ import annotations

import builtins
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from map.extraction.block_locals import written
from map.linking.conditions import condition_of
from map.linking.lookup import segments
from map.linking.references import References
from map.linking.resolution import CONFIDENCE_BY_NAME, Resolution, is_outside
from map.linking.scopes import FileScope
from map.model import EDGE_OF

UnresolvedWhy = Literal[
    "outside",
    "config",
    "receiver",
    "local",
    "builtin",
    "undefined",
    "guess",
    "conditional",
    "compiled_if",
]
UseKind = Literal["calls", "references", "inherits"]
EDGE_KINDS_OF_USES: dict[str, UseKind] = {
    kind: edge for kind, edge in EDGE_OF.items() if edge in ("calls", "references", "inherits")
}
"""A reference's kind as its use is told (a function taken as a value: a call)."""
NO_NAMES: frozenset[str] = frozenset()
BUILTINS: dict[str, frozenset[str]] = {"python": frozenset(dir(builtins))}
"""The bare names each language provides itself, where the map knows them."""


@dataclass(frozen=True, slots=True)
class UnresolvedUse:
    """A use of `name` (with `receiver`, the qualifier as written, when there is one)
    at 1-based `line` of `path`, inside `scope` (the innermost symbol around it, the
    path at module level), that linking left open (`why`; see the module's table)."""

    path: str
    line: int
    name: str
    receiver: str | None
    kind: UseKind
    scope: str
    why: UnresolvedWhy
    guesses: tuple[str, ...] = ()
    condition: str | None = None
    """A `conditional` or `compiled_if` use's undecided directives (`#ifdef Z_SOLO`)."""


@dataclass(frozen=True, slots=True)
class UseTie:
    """What linking tied one use of a name to, at 1-based `line` of its file: the
    symbols it names (`targets`, when it resolved beyond a guess), or why it stayed
    open (`why`; see the module's table)."""

    line: int
    targets: tuple[str, ...]
    why: UnresolvedWhy | None


class Linked(Protocol):
    """What the linker keeps of one file's references: what each resolved to, and the
    names of those left open."""

    results: list[Resolution | None]
    open_names: frozenset[str]


class OpenUses:
    """The open uses of the linked files, read from the linker's own tables (a view:
    always as linked now). `open_names` (per file, the names of its open references)
    stands in for the links' own when they are not all at hand (read from a store)."""

    def __init__(
        self,
        scopes: Mapping[str, FileScope],
        references: Mapping[str, References],
        links: Mapping[str, Linked],
        open_names: Mapping[str, frozenset[str]] | None = None,
    ) -> None:
        self._scopes = scopes
        self._references = references
        self._links = links
        self._open_names = open_names

    def names(self) -> dict[str, frozenset[str]]:
        """Per linked file, the names of its open references."""
        return dict(self._held())

    def holding(self, names: Collection[str]) -> list[str]:
        """The files with an open use of one of `names` (what `named` reads)."""
        wanted = frozenset(names)
        return [path for path, held in self._held() if not wanted.isdisjoint(held)]

    def _held(self) -> Iterable[tuple[str, frozenset[str]]]:
        if self._open_names is not None:
            return self._open_names.items()
        return ((path, links.open_names) for path, links in self._links.items())

    def named(self, names: Collection[str]) -> list[UnresolvedUse]:
        """Every open use of one of `names`, by path and line: the uses that may mean
        a symbol of that name the map did not tie them to."""
        wanted = frozenset(names)
        found: list[UnresolvedUse] = []
        for path in self.holding(wanted):
            scope, references = self._scopes[path], self._references[path]
            found.extend(uses_named(scope, references, self._links[path].results, wanted))
        return sorted(found, key=_place)

    def ties(self, path: str, name: str) -> list[UseTie]:
        """What each use of `name` in the linked file `path` was tied to, in reference
        order ([]: no such file or use)."""
        links = self._links.get(path)
        if links is None:
            return []
        scope, references = self._scopes[path], self._references[path]
        found: list[UseTie] = []
        for index in references.named(references.written_as(name)):
            result = links.results[index]
            if is_open(result):
                found.append(
                    UseTie(references.line(index), (), _use(scope, references, index, result).why)
                )
            elif result is not None:
                found.append(UseTie(references.line(index), result.targets, None))
        return found

    def within(self, scopes: Collection[str]) -> list[UnresolvedUse]:
        """The uses directly inside the symbols `scopes` (node IDs) that resolved to
        nothing of ours, by path and line."""
        by_file: defaultdict[str, set[str]] = defaultdict(set)
        for node_id in scopes:
            by_file[node_id.partition("#")[0]].add(node_id)
        found: list[UnresolvedUse] = []
        for path, inside in by_file.items():
            links = self._links.get(path)
            if links is not None and links.open_names:
                scope, references = self._scopes[path], self._references[path]
                found.extend(uses_within(scope, references, links.results, inside))
        return sorted(found, key=_place)


def is_open(resolution: Resolution | None) -> bool:
    """Whether a reference resolved to nothing of ours, or only to a guess by name."""
    return resolution is None or resolution.confidence <= CONFIDENCE_BY_NAME


def open_names(
    scope: FileScope, references: References, results: Sequence[Resolution | None]
) -> frozenset[str]:
    """The names of a file's open references (`results`: what each resolved to), and of
    those inside its C definitions under undecided conditions (`compiled_if`)."""
    low = CONFIDENCE_BY_NAME
    indexes = [i for i, found in enumerate(results) if found is None or found.confidence <= low]
    if scope.conditions:
        indexes += references.within(scope.conditions)
    return references.names_at(indexes) if indexes else NO_NAMES


def uses_named(
    scope: FileScope,
    references: References,
    results: Sequence[Resolution | None],
    names: Collection[str],
) -> Iterator[UnresolvedUse]:
    """The open uses of `names` in one file, in reference order."""
    held = frozenset(references.within(scope.conditions)) if scope.conditions else frozenset()
    for index in references.named(names):
        found = results[index]
        if is_open(found) or index in held:
            yield _use(scope, references, index, found)


def uses_within(
    scope: FileScope,
    references: References,
    results: Sequence[Resolution | None],
    scopes: Collection[str],
) -> Iterator[UnresolvedUse]:
    """The open uses in one file directly inside the symbols `scopes` (node IDs): those
    that resolved to nothing of ours, or only to a guess by name (answers list a guess
    apart from the edges that hold), and all in a C definition under an undecided
    condition, in reference order."""
    for index in references.within(scopes):
        found = results[index]
        if is_open(found) or references.lookup(index)[0] in scope.conditions:
            yield _use(scope, references, index, found)


def _use(
    scope: FileScope, references: References, index: int, found: Resolution | None
) -> UnresolvedUse:
    where, name, qualifier, kind = references.lookup(index)
    shown = (written(name), written(qualifier) if qualifier is not None else None)
    at = (scope.path, references.line(index), *shown, EDGE_KINDS_OF_USES[kind], where)
    if found is not None and not is_open(found):  # tied, in a definition under a condition
        return UnresolvedUse(*at, "compiled_if", found.targets, scope.conditions[where])
    if is_outside(found):
        return UnresolvedUse(*at, "config" if _unplaced(scope, name, qualifier) else "outside")
    if found is not None:
        condition = condition_of(scope, found.targets)
        if condition is not None:
            return UnresolvedUse(*at, "conditional", found.targets, condition)
        return UnresolvedUse(*at, "guess", found.targets)
    return UnresolvedUse(*at, _why(scope, where, name, qualifier))


def _place(use: UnresolvedUse) -> tuple[str, int]:
    return use.path, use.line


def _unplaced(scope: FileScope, name: str, qualifier: str | None) -> bool:
    """Whether the use's first name is bound by an import that led nowhere while the
    file's project configuration could not be read (it may be ours)."""
    return (name if qualifier is None else segments(qualifier)[0]) in scope.unplaced


def _why(scope: FileScope, where: str, name: str, qualifier: str | None) -> UnresolvedWhy:
    """Why a use (in the symbol `where`) resolved to nothing: bound from outside, an
    unknown receiver, a local, or a bare name with nothing of ours behind it."""
    local = name if qualifier is None else segments(qualifier)[0]
    binding = scope.bindings.get(local)
    if binding is not None and not binding.files:
        return "config" if _unplaced(scope, name, qualifier) else "outside"
    if qualifier is not None:
        return "receiver"
    if scope.assigning(where, name) is not None:
        return "local"
    return "builtin" if name in BUILTINS.get(scope.language, NO_NAMES) else "undefined"
