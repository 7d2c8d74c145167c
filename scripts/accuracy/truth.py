"""The ground truth: where a symbol's name occurs as code that can mean it.

Every file of the language is parsed with tree-sitter (the map's grammars);
an occurrence is an identifier node whose text is the name: comments and
strings are never identifiers, so they are out by construction. Occurrences
the parse shows to be another symbol of the same name are dropped:

- a local of a function: a parameter, or a name assigned, declared or looped
  over inside a function, and the plain uses of that name in that function;
- a keyword argument's name (Python), which names a parameter;
- a name taken from outside the project: imported from a module that is not
  the project's, or a member of a foreign package (`werkzeug.utils.NAME`,
  Go's `http.NAME`) or of a well-known global (`JSON.parse`, `str.join`);
- for a method: a plain name (methods are reached through a receiver), a
  member of an imported module or namespace other than its class, and
  `super().NAME` inside its own body; for a top-level symbol: a member of
  anything but an imported module or namespace.

What the parse cannot tell (a member of a receiver whose type only a type
checker knows) is kept, and marked not `direct`; the sample leaves out the
names where that matters most (see sample.py).

The languages whose types call their own methods by plain name (Ruby, C#,
Kotlin, Swift, Scala) keep a method's plain-name uses everywhere, `direct`
only inside a type of the method's container's name (a reopened class, an
extension, a partial class): elsewhere it may be inherited or mixed in, or
another library's method of that name. PHP (`$this->name()`) and Lua
(`T:name()`) reach methods through a receiver only. Ruby's plain name that no
local binds is a call (`name` alone calls the method); Scala's `x name y`
calls `name`; a shell's functions are only command names and definitions (a
word given as an argument is text). Left out: Ruby's `send(:name)` and
`attr_*`, Scala's calls without parentheses (`x.name`), a shell's calls
through a variable (`$cmd`), Kotlin's calls with explicit type arguments
(tree-sitter-kotlin parses `x.f<T>(y)` as comparisons).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import tree_sitter as ts

from accuracy.imports import imported_names, in_import_of_other
from accuracy.nodes import (
    calls_it,
    declared_by_call,
    declares_other,
    in_type,
    member_of,
    names_prototype,
    nearest_function,
    receiver_of,
    receiver_text,
    root_of,
    walk,
)
from accuracy.syntax import (
    BINDING_NAMES,
    BINDINGS,
    C_DECLARATORS,
    CODE_PARENTS,
    FOREIGN_GLOBALS,
    FUNCTION_TYPES,
    NAME_TYPES,
    NOT_CODE_PARENTS,
    TYPE_DECLARATIONS,
)
from map.extraction.languages import grammar, language_for

PLAIN_NAME_METHODS = frozenset(TYPE_DECLARATIONS)
"""The languages whose methods their types call by plain name."""
MEMBER_CONTAINERS = frozenset({"ruby", "php", "csharp", "kotlin", "swift", "scala", "lua"})
"""The languages whose symbols inside a type, module or table are reached as its
members (or by plain name, see PLAIN_NAME_METHODS), functions and methods alike."""
OWN_RECEIVERS = frozenset({"self", "cls", "this"})
PARENT_RECEIVERS = frozenset({"super", "base", "static", "parent"})
"""Receivers that are the type itself or its parent (`parent::`, `base.`), where
MEMBER_CONTAINERS: an inherited method's own definition is the one project symbol."""


def reached_as_member(language: str, kind: str, container: str) -> bool:
    """Whether a symbol is reached through a receiver (or, in a type, by plain
    name): a method; in the languages of MEMBER_CONTAINERS, anything inside a
    container (Lua's `M.f`, Scala's object members, Ruby's module functions)."""
    return kind == "method" or (language in MEMBER_CONTAINERS and bool(container))


@dataclass(frozen=True)
class Occurrence:
    """One place the name occurs as code that can mean the symbol."""

    path: str
    line: int
    """1-based."""
    column: int
    """1-based, in characters."""
    is_call: bool
    """The name is what a call expression calls."""
    direct: bool
    """The parse alone ties it to the symbol: a plain name, a definition, or a member
    of `self`/`cls`/`this`, of the symbol's own class, or of an imported module;
    False for a member of a receiver whose type only a type checker knows."""


@dataclass(frozen=True)
class Wanted:
    """The symbol whose occurrences are wanted."""

    name: str
    member: bool
    """A method: reached only as `receiver.name` (or by its own definition)."""
    container: str
    """The class (or type) it belongs to, "" for a top-level symbol."""
    path: str
    lines: tuple[int, int]
    """Its definition's first and last lines, 1-based."""


@dataclass(frozen=True)
class _Parsed:
    path: str
    tree: ts.Tree
    foreign: frozenset[str]
    """Names this file binds from outside the project (imports)."""
    imported: frozenset[str]
    """Names this file binds by any import (modules, namespaces, imported names)."""


class Truth:
    """The parsed files of one language in one corpus, indexed by name."""

    def __init__(self, root: Path, language: str) -> None:
        self.language = language
        self._parser = ts.Parser(grammar(language))
        self._by_name: defaultdict[str, list[tuple[_Parsed, ts.Node]]] = defaultdict(list)
        files = sorted(
            p
            for p in root.rglob("*")
            if p.is_file() and ".codeanchor" not in p.parts and ".git" not in p.parts
        )
        relative = [p.relative_to(root) for p in files]
        modules = {p.stem for p in relative} | {d.name for p in relative for d in p.parents}
        self._modules = frozenset(modules)
        self._shadowing: set[str] = set()
        self._macros: set[tuple[str, int]] = set()
        self._prototypes: set[tuple[str, int]] = set()
        for path in files:
            if language_for(path.name) != language:
                continue
            tree = self._parser.parse(path.read_bytes())
            parsed = _Parsed(
                path.relative_to(root).as_posix(),
                tree,
                imported_names(language, tree, self._modules),
                imported_names(language, tree, None),
            )
            for node in walk(tree.root_node):
                if node.type in NAME_TYPES[language] and node.text:
                    self._by_name[node.text.decode()].append((parsed, node))
                    if declares_other(language, node):
                        self._shadowing.add(node.text.decode())
                    self._shadowing.update(declared_by_call(language, node))
                    if node.parent is not None and node.parent.type == "preproc_function_def":
                        self._macros.add((parsed.path, node.start_point[0] + 1))
                    if language == "c" and names_prototype(node):
                        self._prototypes.add((parsed.path, node.start_point[0] + 1))

    def ambiguous(self, name: str) -> bool:
        """Whether the parse cannot judge `name`: it also names a module of the
        project, or something the map may hold no symbol for (see
        accuracy.nodes.declares_other)."""
        return name in self._modules or name in self._shadowing

    def defines_macro(self, path: str, line: int) -> bool:
        """Whether line `line` (1-based) of `path` defines a function-like macro."""
        return (path, line) in self._macros

    def declares_prototype(self, path: str, line: int) -> bool:
        """Whether line `line` (1-based) of `path` names a C function's prototype: the
        declaration of a function defined elsewhere, not a second symbol of its name."""
        return (path, line) in self._prototypes

    def occurrences(self, wanted: Wanted) -> list[Occurrence]:
        """Where the wanted symbol's name occurs as code that can mean it."""
        found = []
        for parsed, node in self._by_name.get(wanted.name, ()):
            member = member_of(self.language, node)
            if self._other_symbol(parsed, node, wanted, member):
                continue
            row, byte_col = node.start_point
            line_start = node.start_byte - byte_col
            text = parsed.tree.root_node.text or b""
            column = len(text[line_start : node.start_byte].decode(errors="replace")) + 1
            if member is not None:
                direct = self._direct(parsed, member, wanted)
            else:
                direct = not self._plain_method(wanted) or self._in_own_type(node, wanted)
            found.append(Occurrence(parsed.path, row + 1, column, self._is_call(node), direct))
        return found

    def _direct(self, parsed: _Parsed, member: ts.Node, wanted: Wanted) -> bool:
        receiver = receiver_of(self.language, member)
        text = receiver_text(receiver) if receiver is not None else ""
        own = OWN_RECEIVERS | (PARENT_RECEIVERS if self.language in MEMBER_CONTAINERS else set())
        return text in own | {wanted.container} | parsed.imported

    def _plain_method(self, wanted: Wanted) -> bool:
        """A member its type's code may call by plain name (see PLAIN_NAME_METHODS)."""
        return wanted.member and self.language in PLAIN_NAME_METHODS

    def _in_own_type(self, node: ts.Node, wanted: Wanted) -> bool:
        return in_type(self.language, node, wanted.container) or _names_definition(
            self.language, node
        )

    def _is_call(self, node: ts.Node) -> bool:
        if calls_it(self.language, node):
            return True
        # Ruby: a plain name no local binds calls the method (`name` alone); `alias new
        # old` names two methods, and calls neither
        return (
            self.language == "ruby"
            and node.type == "identifier"
            and member_of(self.language, node) is None
            and not _names_definition(self.language, node)
            and node.parent is not None
            and node.parent.type not in {"alias", "undef"}
        )

    def _other_symbol(
        self, parsed: _Parsed, node: ts.Node, wanted: Wanted, member: ts.Node | None
    ) -> bool:
        language = self.language
        name = wanted.name
        parent = node.parent
        if parent is None:
            return False
        if language == "python" and parent.type == "keyword_argument":
            return parent.child_by_field_name("name") == node
        if parent.type in NOT_CODE_PARENTS.get(language, frozenset()):
            return True
        if language in CODE_PARENTS and parent.type not in CODE_PARENTS[language]:
            return True
        if member is not None:
            return self._other_member(parsed, node, wanted, member)
        if self._plain_method(wanted):
            return self._local(parsed, node, name)
        if wanted.member and (node.type == "identifier" or language in MEMBER_CONTAINERS):
            # a method is reached through a receiver; a plain name is something else,
            # but for the name of its definition (TypeScript and Go name methods with
            # property and field identifiers)
            return not _names_definition(language, node)
        if language == "go" and parent.type == "qualified_type":
            package = parent.child_by_field_name("package")
            return package is not None and (package.text or b"").decode() in parsed.foreign
        if node.type == "identifier" and name in parsed.foreign and language == "python":
            return True
        if language == "python" and in_import_of_other(node, self._modules):
            return True
        return node.type in _binding_names(language) and self._local(parsed, node, name)

    def _other_member(
        self, parsed: _Parsed, node: ts.Node, wanted: Wanted, member: ts.Node
    ) -> bool:
        """`receiver.name` that the parse shows to be another symbol: a member of a
        foreign module or global; a member of an imported module when the symbol is a
        method; any other receiver when it is a top-level symbol (only modules and
        namespaces hold those); `super().name` (`super.`, `parent::`, `base.`) inside
        the symbol's own definition."""
        receiver = receiver_of(self.language, member)
        if receiver is None:
            return False
        text = receiver_text(receiver)
        root = root_of(self.language, receiver)
        if root in parsed.foreign | FOREIGN_GLOBALS[self.language]:
            return True
        if wanted.member:
            last = text.rpartition(".")[2]
            if root in parsed.imported and last != wanted.container:
                return True  # a member of a module or namespace, not of the class
            own = parsed.path == wanted.path and (
                wanted.lines[0] <= node.start_point[0] + 1 <= wanted.lines[1]
            )
            return own and text in {"super()", *(PARENT_RECEIVERS - {"static"})}
        return root not in parsed.imported

    def _local(self, parsed: _Parsed, node: ts.Node, name: str) -> bool:
        """Whether a function around `node` binds `name` as its own local."""
        scope = node.parent
        while scope is not None:
            if scope.type in FUNCTION_TYPES[self.language] and self._binds(parsed, scope, name):
                return True
            scope = scope.parent
        return False

    def _binds(self, parsed: _Parsed, scope: ts.Node, name: str) -> bool:
        for other, node in self._by_name.get(name, ()):
            if other is not parsed or not (scope.start_byte <= node.start_byte < scope.end_byte):
                continue
            if self._is_binding(node) and nearest_function(self.language, node) == scope:
                return True
        return False

    def _is_binding(self, node: ts.Node) -> bool:
        parent = node.parent
        if parent is None or node.type not in _binding_names(self.language):
            return False
        if self.language == "c":
            while parent is not None and parent.type in C_DECLARATORS:
                parent = parent.parent
            return parent is not None and parent.type in {"parameter_declaration", "declaration"}
        if self.language == "go" and parent.type in {"expression_list", "identifier_list"}:
            holder = parent.parent
            return holder is not None and holder.type in {
                "short_var_declaration",
                "range_clause",
            }
        for parent_type, field in BINDINGS[self.language]:
            if parent.type == parent_type and (
                not field or parent.child_by_field_name(field) == node
            ):
                return True
        return False


def _binding_names(language: str) -> frozenset[str]:
    """The node types that can bind a local in `language`."""
    return BINDING_NAMES.get(
        language, frozenset({"identifier", "shorthand_property_identifier_pattern"})
    )


def _names_definition(language: str, node: ts.Node) -> bool:
    """`node` is the name of a function or method definition (`def NAME`; of
    Python's only, in the languages outside MEMBER_CONTAINERS)."""
    parent = node.parent
    if language in MEMBER_CONTAINERS:
        kinds = FUNCTION_TYPES[language] | {"function_declaration", "singleton_method"}
    else:
        kinds = frozenset({"function_definition"})
    return (
        parent is not None and parent.type in kinds and parent.child_by_field_name("name") == node
    )
