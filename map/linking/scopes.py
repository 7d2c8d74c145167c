"""What each file can see: its own symbols by qualified name and what its imports bind
(bound by map.linking.bindings).

A `FileScope` is derived from one extract plus the module index. Its
`signature` covers everything that depends on other files' existence
(where imports resolve, Go package siblings, C include closure); when it
moves, every reference of the file is resolved again.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from map.extraction.script_locals import NUMBERED
from map.linking.assigned import Assigned
from map.model import (
    ATTRIBUTE_PREFIX,
    CONDITIONAL,
    INACTIVE,
    Assignment,
    FileExtract,
    Import,
    Reference,
    Symbol,
    SymbolForm,
    SymbolKind,
)

MACRO_CALLS = frozenset({"calls", "values"})
"""What a macro's body does with a function that a use of the macro does too."""
CLASS_KINDS = frozenset({"class", "interface", "struct", "enum", "type"})
UNSCOPED_MEMBER_LANGUAGES = frozenset(
    {"python", "go", "php", "rust", "typescript", "tsx", "javascript"}
)
"""Languages whose class members are not in scope unqualified inside the class (Python's
class body, a Go method's receiver type, a PHP class, a Rust `impl`, a TS/JS class):
only through `self`/`$this`/`this`/`Self::` or a receiver (a PHP `unlink($path)` in a
method `unlink` is the builtin, a Rust `new()` in an `impl` a free function, a TS
`getName(x)` in a method `getName` the imported function)."""
FLAT_LANGUAGES = frozenset({"go"})
"""Languages whose bare names are looked up at the top level only (Go: no function
nests a named one, and a method is reached through its receiver, even in its file)."""


@dataclass(frozen=True, slots=True)
class ModuleBinding:
    """A local name bound to a module (files: one file, or a Go package's files)."""

    files: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NameBinding:
    """A local name bound to `name` as exported by the module in `files` (() = external)."""

    files: tuple[str, ...]
    name: str


Binding = ModuleBinding | NameBinding


@dataclass(frozen=True, slots=True)
class Declared:
    """What lookups read of a symbol (a `Symbol` without its ranges and fingerprint,
    which a loaded map keeps packed: map.linking.packed)."""

    name: str
    qualname: str
    kind: SymbolKind
    container: tuple[str, ...]
    declaration: bool = False
    """Declared here, defined elsewhere (map.model.Symbol.declaration)."""
    form: SymbolForm | None = None
    """A C or C++ `static` function or function-like `macro` (map.model.Symbol.form)."""


@dataclass(slots=True)
class FileScope:
    """One file's symbols and import bindings, ready for name lookups."""

    path: str
    language: str
    symbols: dict[str, Declared]
    """node ID -> the symbol, in file order."""
    by_qual: dict[str, tuple[str, ...]]
    imports: tuple[Import, ...] = ()
    bindings: dict[str, Binding] = field(default_factory=dict)
    stars: tuple[str, ...] = ()
    visible_files: tuple[str, ...] = ()
    imported_files: dict[str, tuple[int, ...]] = field(default_factory=dict)
    direct_includes: tuple[str, ...] = ()
    unplaced: frozenset[str] = frozenset()
    """Local names bound by imports that led nowhere while the file's project
    configuration could not be read (map.linking.scripts): they may be ours."""
    bases: dict[str, tuple[Reference, ...]] = field(default_factory=dict)
    assigned: Assigned = field(default_factory=lambda: Assigned(()))
    """(scope ID, name) -> the distinct values the name is given in that scope."""
    expansions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A C or C++ function-like macro (node ID) -> the names its body calls."""
    conditions: dict[str, str] = field(default_factory=dict)
    """A C or C++ definition (node ID) under preprocessor conditions its file does not
    decide -> the directives (map.linking.conditions); one under a branch not taken
    is in no lookup (not in `by_qual`)."""
    _enclosing: dict[str, tuple[tuple[str, ...], str | None]] = field(default_factory=dict)
    _chains: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _by_attribute: dict[tuple[str, str], tuple[Assignment, ...]] | None = None

    @property
    def signature(self) -> tuple[object, ...]:
        """What the file's resolution takes from the rest of the repo's layout."""
        return (self.bindings, self.stars, self.visible_files, self.imported_files, self.unplaced)

    def top(self, name: str) -> tuple[str, ...]:
        """Top-level symbols called `name`."""
        return self.by_qual.get(name, ())

    def numbered(self, qualname: str) -> tuple[str, ...]:
        """The one symbol a numbered name stands for (`Counter~7`, `Counter~1`: the
        file's seventh, first `Counter`; map.extraction.script_locals), else ()."""
        if NUMBERED not in qualname:
            return ()
        base, _, number = qualname.rpartition(NUMBERED)
        node_id = f"{self.path}#{base}" + ("" if number == "1" else NUMBERED + number)
        return (node_id,) if node_id in self.symbols else ()

    def literal_member(self, node_id: str) -> bool:
        """A method outside any class (an object literal's, `{ async test() {} }`): it
        binds no name a bare use could mean."""
        symbol = self.symbols[node_id]
        if symbol.kind != "method":
            return False
        owner = self.by_qual.get(".".join(symbol.container), ())
        return not (owner and self.is_class(owner[0]))

    def lookup_prefixes(self, scope_id: str) -> tuple[str, ...]:
        """Qualified-name prefixes under which a name used in `scope_id` is looked up,
        innermost first, ending with "" (top level); Python, Go, PHP, Rust and TS/JS skip
        classes."""
        return self._scope_facts(scope_id)[0]

    def enclosing_class(self, scope_id: str) -> str | None:
        """The innermost class-like symbol around `scope_id` (itself included)."""
        return self._scope_facts(scope_id)[1]

    def _scope_facts(self, scope_id: str) -> tuple[tuple[str, ...], str | None]:
        known = self._enclosing.get(scope_id)
        if known is None:
            symbol = self.symbols.get(scope_id)
            chain = symbol.qualname.split(".") if symbol is not None else []
            prefixes: list[str] = []
            owner: str | None = None
            for i in range(len(chain), 0, -1):
                ids = self.by_qual.get(".".join(chain[:i]), ())
                is_class = bool(ids) and self.is_class(ids[0])
                if is_class and owner is None:
                    owner = ids[0]
                if self.language in FLAT_LANGUAGES:
                    continue  # a bare name never names a method, a Go method's own neither
                if not (is_class and self.language in UNSCOPED_MEMBER_LANGUAGES):
                    prefixes.append(".".join(chain[:i]) + ".")
            prefixes.append("")
            known = (tuple(prefixes), owner)
            self._enclosing[scope_id] = known
        return known

    def assigning(self, scope_id: str, name: str) -> str | None:
        """Where `name`, used in `scope_id`, is given what it holds there: the innermost
        function around it that gives it anything (Python skips class bodies), or
        the module (its path); None when none does (see `assigned` for what)."""
        return self.assigned.first(self._assigning_scopes(scope_id), name)

    def _assigning_scopes(self, scope_id: str) -> tuple[str, ...]:
        known = self._chains.get(scope_id)
        if known is None:
            symbol = self.symbols.get(scope_id)
            chain = symbol.qualname.split(".") if symbol is not None else []
            found = [scope_id] if symbol is not None else []
            for i in range(len(chain) - 1, 0, -1):
                found.extend(
                    node_id
                    for node_id in self.by_qual.get(".".join(chain[:i]), ())
                    if not self.is_class(node_id)
                )
            known = self._chains[scope_id] = (*found, self.path)
        return known

    def attribute(self, class_id: str, name: str) -> tuple[Assignment, ...]:
        """What the instances of a class hold in `name`: its class-body assignment or
        annotation, else what its methods give `self.name` (the known values only)."""
        body = self.assigned.get((class_id, name))
        if body:
            return body
        return self._attributes().get((class_id, name), ())

    def _attributes(self) -> dict[tuple[str, str], tuple[Assignment, ...]]:
        if self._by_attribute is None:
            found: defaultdict[tuple[str, str], dict[Assignment, None]] = defaultdict(dict)
            for (where, local), givens in self.assigned.raw_items():
                if not local.startswith(ATTRIBUTE_PREFIX):
                    continue
                owner = self.enclosing_class(where)
                if owner is None:
                    continue
                for value, called in givens:
                    if value:
                        found[owner, local.removeprefix(ATTRIBUTE_PREFIX)][
                            Assignment(local, where, value, called)
                        ] = None
            self._by_attribute = {key: tuple(values) for key, values in found.items()}
        return self._by_attribute

    def forget_cache(self) -> None:
        """Drop what lookups remembered about this file's scopes (about a third of the
        scopes' memory once a whole repository is linked; rebuilt when next asked)."""
        self._enclosing = {}
        self._chains = {}
        self._by_attribute = None

    def is_class(self, node_id: str) -> bool:
        """True when the symbol is class-like (members can be looked up in it)."""
        symbol = self.symbols.get(node_id)
        return symbol is not None and symbol.kind in CLASS_KINDS


def declared(symbols: Iterable[Symbol]) -> dict[str, Declared]:
    """What lookups read of each symbol, by node ID, in file order."""
    containers: dict[tuple[str, ...], tuple[str, ...]] = {}  # one per class, not per member
    found: dict[str, Declared] = {}
    for s in symbols:
        container = containers.setdefault(s.container, s.container)
        found[s.node_id] = Declared(s.name, s.qualname, s.kind, container, s.declaration, s.form)
    return found


def expansions(extract: FileExtract) -> dict[str, tuple[str, ...]]:
    """The names each function-like macro of a file calls in its body, by node ID."""
    macros = {s.node_id for s in extract.symbols if s.form == "macro"}
    if not macros:
        return {}
    called: defaultdict[str, dict[str, None]] = defaultdict(dict)
    for ref in extract.references:
        if ref.scope in macros and ref.kind in MACRO_CALLS and ref.qualifier is None:
            called[ref.scope][ref.name] = None
    return {macro: tuple(names) for macro, names in called.items()}


def new_scope(extract: FileExtract) -> FileScope:
    """The scope of one file, before its imports are bound."""
    symbols = declared(extract.symbols)
    conditions = {a.scope: a.value for a in extract.assignments if a.name == CONDITIONAL}
    inactive = {a.scope for a in extract.assignments if a.name == INACTIVE}
    by_qual: defaultdict[str, list[str]] = defaultdict(list)
    for s in extract.symbols:
        if s.node_id not in inactive:
            by_qual[s.qualname].append(s.node_id)
    bases: defaultdict[str, list[Reference]] = defaultdict(list)
    for ref in extract.references:
        if ref.kind == "inherits":
            bases[ref.scope].append(ref)
    return FileScope(
        path=extract.path,
        language=extract.language,
        symbols=symbols,
        by_qual={q: tuple(ids) for q, ids in by_qual.items()},
        imports=extract.imports,
        bases={c: tuple(refs) for c, refs in bases.items()},
        assigned=Assigned(extract.assignments),
        expansions=expansions(extract),
        conditions=conditions,
    )
