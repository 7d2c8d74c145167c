"""What a resolution is, how sure it is, and the last resort: a guess by name.

A name no lookup answers may still match definitions elsewhere: one match
is kept with `CONFIDENCE_BY_NAME`, a few are kept together as candidates
with the confidence split between them, more are dropped rather than
guessed (never a C `static` function: another file's is out of sight). A method
name that Python's builtin types, generators or files
have (`get`, `pop`, `send`) is never guessed on a receiver of unknown type.
A use the lookups type as something not ours (a member of a library's module, of
an instance of a library's type) is `OUTSIDE`: never guessed, never an edge.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from map.linking.scopes import Declared
from map.model import CONFIDENCE_GUESSED

CALLABLE_KINDS = frozenset({"function", "method"})
CONFIDENCE_EXACT = 1.0
CONFIDENCE_INHERITED = 0.9
CONFIDENCE_BY_NAME = CONFIDENCE_GUESSED
MAX_CANDIDATES = 5
MACRO = "macro"
"""A C or C++ function-like macro's form (map.linking.macros)."""
STATIC = "static"
"""A C or C++ function's form when only its own file (and its includers) see it: never
guessed by name, never the definition of another file's declaration."""
BY_NAME_LANGUAGES = frozenset(
    {"c", "cpp", "java", "rust", "go"}
    | {"ruby", "php", "csharp", "kotlin", "swift", "scala", "lua", "bash"}
)
LEXICAL_CONSTANT_LANGUAGES = frozenset({"ruby", "cpp"})
"""Languages whose names in other files are looked up under the modules around the use
first (Ruby: `Cart` inside `module Shop` may be Shop::Cart; C++: `area` in `Shape::twice`,
defined out of line, may be Shape::area in the header, `Unit` in `namespace geo`
geo::Unit)."""
BUILTIN_MEMBERS: frozenset[str] = frozenset(
    name
    for kind in (object, str, bytes, int, float, list, tuple, dict, set, frozenset)
    for name in dir(kind)
) | frozenset({"send", "throw", "close", "read", "write", "readline", "flush", "seek"})
"""Python methods of builtin types, generators and files: a call of one of these on
a receiver of unknown type is never guessed to be a project method of that name."""
LANGUAGE_FAMILIES = {
    "tsx": "typescript",
    "javascript": "typescript",
    "cpp": "c",
    "kotlin": "java",
    "scala": "java",
}
"""Languages whose code calls each other's definitions; a name never matches across families."""


@dataclass(frozen=True, slots=True)
class Resolution:
    """The symbols a reference names and the confidence in each."""

    targets: tuple[str, ...]
    confidence: float
    constructors: tuple[str, ...] = ()
    """What a call of a class (the target) runs too: its own or inherited `__init__`."""

    @property
    def candidates(self) -> tuple[str, ...]:
        """The competing targets when there is more than one, else ()."""
        return self.targets if len(self.targets) > 1 else ()

    @property
    def reached(self) -> tuple[str, ...]:
        """Every symbol the reference has an edge to: the targets, then the constructors."""
        return self.targets + self.constructors


OUTSIDE = Resolution((), 0.0)
"""What a use of something typed as not ours resolves to: a member of a module from
outside the project, or of an instance of its type (Go's `t.Run` on `*testing.T`, a
Python `runner.invoke` on `runner = CliRunner()` imported from a library). No target:
no edge; left open as `outside` (map.linking.unresolved), never guessed by name."""


def is_outside(found: Resolution | None) -> bool:
    """Whether a resolution says the use names something not ours (`OUTSIDE`)."""
    return found is not None and not found.targets and found.confidence == 0.0


def file_of(node_id: str) -> str:
    """The path part of a node ID."""
    return node_id.split("#", 1)[0]


def exact(ids: tuple[str, ...]) -> Resolution | None:
    """Certain targets: several definitions of one qualified name in one file
    (overloads, a property's setter) each hold it fully; others share it."""
    if not ids:
        return None
    one_name = len({node_id.rsplit("~", 1)[0] for node_id in ids}) == 1
    return Resolution(ids, CONFIDENCE_EXACT if one_name else CONFIDENCE_EXACT / len(ids))


class Declarations(Protocol):
    """What a guess by name reads of a file: its language and its symbols (a file's
    scope has them, and so has the lighter table a relink in the store reads)."""

    @property
    def language(self) -> str: ...

    @property
    def symbols(self) -> Mapping[str, Declared]: ...


class NameIndex:
    """Guesses by name among every file's definitions, remembered until `forget`."""

    def __init__(
        self, scopes: Mapping[str, Declarations], defs_by_name: Mapping[str, set[str]]
    ) -> None:
        self._scopes = scopes
        self._defs = defs_by_name
        self._named: dict[tuple[str, bool, str], Resolution | None] = {}

    def forget(self) -> None:
        """Drop the guesses made so far; call whenever scopes or definitions change."""
        self._named.clear()

    def guess(self, language: str, name: str, *, members: bool) -> Resolution | None:
        """Definitions of `name` (members of a class or not) in `language`'s family."""
        family = LANGUAGE_FAMILIES.get(language, language)
        key = (name, members, family)
        if key not in self._named:
            self._named[key] = self._search(name, members, family)
        return self._named[key]

    def _search(self, name: str, members: bool, family: str) -> Resolution | None:
        matches: list[str] = []
        for node_id in self._defs.get(name, ()):
            owner = self._scopes[file_of(node_id)]
            symbol = owner.symbols[node_id]
            if (
                symbol.form != STATIC
                and bool(symbol.container) == members
                and LANGUAGE_FAMILIES.get(owner.language, owner.language) == family
            ):
                matches.append(node_id)
                if len(matches) > MAX_CANDIDATES:
                    return None  # too many to guess among: the rest need not be read
        matches.sort()
        if not matches:
            return None
        return Resolution(tuple(matches), CONFIDENCE_BY_NAME / len(matches))
