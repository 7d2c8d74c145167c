"""The map's data: what extraction produces and the graph is built from.

Positions follow LSP: 0-based lines and 0-based columns in UTF-16 code
units. People see 1-based, inclusive lines (`Range.first_line`,
`Range.last_line`).

Node IDs: a file is its repo-relative POSIX path (`src/auth/tokens.py`); a
symbol is `path#Qual.Name` (`src/auth/tokens.py#TokenStore.issue`); a second
symbol with the same qualified name in one file gets `~2`, a third `~3`, in
file order. Positions are never part of an ID.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias, TypedDict, get_args

SymbolKind = Literal[
    "module",
    "namespace",
    "class",
    "interface",
    "struct",
    "enum",
    "type",
    "function",
    "method",
    "constructor",
    "field",
    "property",
    "variable",
    "constant",
]

SymbolForm = Literal["static", "macro", "trait"]
"""What C or C++ says of a function beyond its kind, or that a PHP interface is a
trait (`Symbol.form`)."""

EdgeKind = Literal["contains", "imports", "calls", "references", "inherits"]
EDGE_KINDS: tuple[EdgeKind, ...] = get_args(EdgeKind)
ReferenceKind = Literal["calls", "references", "inherits", "values"]
"""How a reference uses a name; `values`: a function or method taken as a value
(passed, assigned, returned: a Go method value, a C function pointer), an edge of
kind `calls` to a function or method only (see `EDGE_OF`)."""
EDGE_OF: dict[str, EdgeKind] = {
    "calls": "calls",
    "references": "references",
    "inherits": "inherits",
    "values": "calls",
}
"""The kind of the edge a reference of each kind makes."""
CONFIDENCE_GUESSED = 0.5
"""An edge (or a resolution) of this confidence or less was guessed by name only (an
unknown receiver): answers list such edges apart from those that hold."""


@dataclass(frozen=True, slots=True)
class Range:
    """A span of text: LSP positions, end exclusive."""

    start_line: int
    start_char: int
    end_line: int
    end_char: int

    @property
    def first_line(self) -> int:
        """The first line, 1-based."""
        return self.start_line + 1

    @property
    def last_line(self) -> int:
        """The last line, 1-based and inclusive."""
        if self.end_char == 0 and self.end_line > self.start_line:
            return self.end_line
        return self.end_line + 1


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """How a piece of code is recognised again.

    `exact` hashes the text byte for byte; `normalized` hashes its tokens
    without comments or whitespace, so a reformat or a comment edit keeps it.
    """

    exact: str
    normalized: str


@dataclass(frozen=True, slots=True)
class Symbol:
    """A named definition in a file.

    `range` starts at the first decorator/annotation/attribute line and ends
    at the last line of the body; `selection` covers the name only.
    `container` is the chain of enclosing qualified-name parts
    (`("TokenStore",)` for `TokenStore.issue`). `declaration`: a C or C++
    function or method declared here and defined elsewhere (a header's
    prototype, a method declared in its class): uses that reach it are edges
    to its definition (docs/contracts.md#declarations-and-definitions). `form`: a C
    or C++ function `static` at file level (seen only by its own file and the files
    that include it), or a function-like `macro` (a call of it runs what its body
    calls: map.linking.macros), or a PHP `trait` (kind `interface`: the methods of
    the classes that use it, ahead of their parents' and interfaces').
    """

    node_id: str
    name: str
    qualname: str
    kind: SymbolKind
    range: Range
    selection: Range
    container: tuple[str, ...]
    fingerprint: Fingerprint
    declaration: bool = False
    form: SymbolForm | None = None


@dataclass(frozen=True, slots=True)
class Import:
    """An import statement: the module as written and the names it binds.

    `names` holds (imported name, local alias) pairs; a plain `import x.y`
    has no names, a star import has `("*", "*")`.
    """

    module: str
    names: tuple[tuple[str, str], ...]
    range: Range


@dataclass(frozen=True, slots=True)
class Reference:
    """A use of a name: a call, an inheritance, a function taken as a value, or another
    reference.

    `scope` is the node ID of the innermost enclosing symbol (the file's
    path at module level). `qualifier` is the receiver or module written
    before the name (`tokens` in `tokens.issue()`), when there is one.
    """

    name: str
    kind: ReferenceKind
    range: Range
    scope: str
    qualifier: str | None = None


ATTRIBUTE_PREFIX = "self."
"""An `Assignment` name with this prefix is an instance attribute (`self.app = app`)."""
RETURNS = "->"
"""The `Assignment` name of what a function (its scope) returns, from its annotation."""
GIVES = "<-"
"""The `Assignment` name of what a pytest fixture (its scope) returns or yields, from
its body: what a parameter of its name holds in the tests that request it."""
CONDITIONAL = "#if"
"""The `Assignment` name of the preprocessor conditions a C or C++ definition (its scope)
sits under that its file alone does not decide (the value: the directives as written,
`#ifdef Z_SOLO`): map.extraction.c_conditions."""
INACTIVE = "#if 0"
"""The `Assignment` name of a C or C++ definition (its scope) under a preprocessor
branch its file decides is not taken (the value: that branch's directive)."""
NARROWED = "?"
"""Prefixes the receiver (as a qualifier: `?$this.dispatcher`) an `instanceof` check in
a function (its scope) says may hold an instance of a class, in a PHP `Assignment` name."""


@dataclass(frozen=True, slots=True)
class Assignment:
    """A local name given a (dotted) name's value in a scope: `f = mod.func`
    (an alias), or, when `called`, what calling it gives: `app = Flask()`, and
    likewise an annotated name or parameter `app: Flask` (an instance). An
    empty `value` is a name given something unknown (a parameter, a loop
    variable, another expression): it hides what it shadows, and names nothing.

    `scope` is the node ID of the enclosing symbol (the path at module level).
    """

    name: str
    scope: str
    value: str
    called: bool


@dataclass(frozen=True, slots=True)
class FileExtract:
    """Everything extraction learned about one file."""

    path: str
    language: str
    content_hash: str
    symbols: tuple[Symbol, ...]
    imports: tuple[Import, ...]
    references: tuple[Reference, ...]
    assignments: tuple[Assignment, ...] = ()


class FileDetails(TypedDict):
    """What the map knows of a file node (its ID is its path)."""

    id: str
    kind: Literal["file"]
    path: str
    language: str
    content_hash: str


class SymbolDetails(TypedDict):
    """What the map knows of a symbol node: the graph's `kind`, `path`, `name`,
    `qualname` and 1-based, inclusive `lines`, and the extract's LSP `range` and
    `selection`, `container` and `fingerprint` (see `Symbol`)."""

    id: str
    kind: SymbolKind
    path: str
    name: str
    qualname: str
    lines: tuple[int, int]
    range: Range
    selection: Range
    container: tuple[str, ...]
    fingerprint: Fingerprint


NodeDetails: TypeAlias = FileDetails | SymbolDetails
"""A node's details; `kind == "file"` tells the two apart."""


class EdgeDetails(TypedDict):
    """What the map knows of one edge: the 1-based `lines` of its uses (of its
    imports, for `imports`; none for `contains`), its `confidence` (the highest of
    its uses') and, when a use was ambiguous, the other `candidates` (node IDs)."""

    kind: EdgeKind
    lines: tuple[int, ...]
    confidence: float
    candidates: tuple[str, ...]
