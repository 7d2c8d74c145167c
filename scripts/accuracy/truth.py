"""The ground truth: where a symbol's name occurs as code that can mean it.

Every file of the language is parsed with tree-sitter (the map's grammars);
an occurrence is an identifier node whose text is the name: comments and
strings are never identifiers, so they are out by construction. Occurrences
the parse shows to be another symbol of the same name are dropped:

- a local of a function: a parameter, or a name assigned, declared or looped
  over inside a function, and the plain uses of that name in that function;
- a keyword argument's name (Python), which names a parameter;
- a name taken from outside the project: imported from a module that is not
  the project's (Python: the whole file's plain uses; Go: `pkg.Name` where
  `pkg` is an imported package), or a member of a well-known global
  (TypeScript `JSON.parse`, Python builtins such as `str.join`).

What the parse cannot tell (an attribute on a receiver of unknown type) is
kept; the sample avoids the names where that matters most (see sample.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import tree_sitter as ts

from map.languages import grammar, language_for

NAME_TYPES: dict[str, frozenset[str]] = {
    "python": frozenset({"identifier"}),
    "typescript": frozenset(
        {
            "identifier",
            "property_identifier",
            "type_identifier",
            "shorthand_property_identifier",
            "shorthand_property_identifier_pattern",
        }
    ),
    "go": frozenset({"identifier", "field_identifier", "type_identifier"}),
    "c": frozenset({"identifier", "field_identifier", "type_identifier"}),
}
FUNCTION_TYPES: dict[str, frozenset[str]] = {
    "python": frozenset({"function_definition", "lambda"}),
    "typescript": frozenset(
        {
            "function_declaration",
            "function_expression",
            "arrow_function",
            "method_definition",
            "generator_function_declaration",
            "generator_function",
        }
    ),
    "go": frozenset({"function_declaration", "method_declaration", "func_literal"}),
    "c": frozenset({"function_definition"}),
}
# (parent type, field of the child, or "" for any child): the child identifier binds a local
BINDINGS: dict[str, frozenset[tuple[str, str]]] = {
    "python": frozenset(
        {
            ("parameters", ""),
            ("lambda_parameters", ""),
            ("default_parameter", "name"),
            ("typed_default_parameter", "name"),
            ("typed_parameter", ""),
            ("list_splat_pattern", ""),
            ("dictionary_splat_pattern", ""),
            ("assignment", "left"),
            ("augmented_assignment", "left"),
            ("pattern_list", ""),
            ("tuple_pattern", ""),
            ("for_statement", "left"),
            ("for_in_clause", "left"),
            ("as_pattern_target", ""),
            ("named_expression", "name"),
        }
    ),
    "typescript": frozenset(
        {
            ("required_parameter", "pattern"),
            ("optional_parameter", "pattern"),
            ("variable_declarator", "name"),
            ("arrow_function", "parameter"),
            ("object_pattern", ""),
            ("array_pattern", ""),
        }
    ),
    "go": frozenset(
        {
            ("parameter_declaration", "name"),
            ("variadic_parameter_declaration", "name"),
            ("var_spec", "name"),
            ("const_spec", "name"),
            ("range_clause", "left"),
        }
    ),
    "c": frozenset(),
}
C_DECLARATORS = frozenset(
    {"pointer_declarator", "array_declarator", "init_declarator", "parenthesized_declarator"}
)
# members of these globals are never project symbols
FOREIGN_GLOBALS: dict[str, frozenset[str]] = {
    "python": frozenset(
        {"str", "bytes", "dict", "list", "set", "tuple", "int", "object", "super", "type"}
    ),
    "typescript": frozenset(
        {
            "JSON",
            "Object",
            "Array",
            "Math",
            "Promise",
            "Number",
            "String",
            "console",
            "Reflect",
            "Symbol",
            "Date",
            "Error",
            "Map",
            "Set",
            "BigInt",
        }
    ),
    "go": frozenset(),
    "c": frozenset(),
}
MEMBER_PARENTS = {
    "python": ("attribute", "attribute", "object"),
    "typescript": ("member_expression", "property", "object"),
    "go": ("selector_expression", "field", "operand"),
}
"""(node type, field of the member's name, field of the receiver)."""
CALL_TYPES = {
    "python": ("call", "function"),
    "typescript": ("call_expression", "function"),
    "go": ("call_expression", "function"),
    "c": ("call_expression", "function"),
}


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
        for path in files:
            if language_for(path.name) != language:
                continue
            tree = self._parser.parse(path.read_bytes())
            parsed = _Parsed(
                path.relative_to(root).as_posix(),
                tree,
                _foreign(language, tree, self._modules),
                _foreign(language, tree, None),
            )
            for node in _walk(tree.root_node):
                if node.type in NAME_TYPES[language] and node.text:
                    self._by_name[node.text.decode()].append((parsed, node))
                    if _declares_other(language, node):
                        self._shadowing.add(node.text.decode())

    def ambiguous(self, name: str) -> bool:
        """Whether the parse cannot judge `name`: it also names a module of the
        project, or something the map may hold no symbol for (see _declares_other)."""
        return name in self._modules or name in self._shadowing

    def occurrences(self, wanted: Wanted) -> list[Occurrence]:
        """Where the wanted symbol's name occurs as code that can mean it."""
        found = []
        for parsed, node in self._by_name.get(wanted.name, ()):
            member = _member_of(self.language, node)
            if self._other_symbol(parsed, node, wanted, member):
                continue
            row, byte_col = node.start_point
            line_start = node.start_byte - byte_col
            text = parsed.tree.root_node.text or b""
            column = len(text[line_start : node.start_byte].decode(errors="replace")) + 1
            direct = member is None or self._direct(parsed, member, wanted)
            found.append(Occurrence(parsed.path, row + 1, column, self._is_call(node), direct))
        return found

    def _direct(self, parsed: _Parsed, member: ts.Node, wanted: Wanted) -> bool:
        receiver = member.child_by_field_name(MEMBER_PARENTS[self.language][2])
        text = (receiver.text or b"").decode() if receiver is not None else ""
        return text in {"self", "cls", "this", wanted.container} | parsed.imported

    def _is_call(self, node: ts.Node) -> bool:
        call_type, field = CALL_TYPES[self.language]
        callee = _member_of(self.language, node) or node
        parent = callee.parent
        return (
            parent is not None
            and parent.type == call_type
            and parent.child_by_field_name(field) == callee
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
        if member is not None:
            return self._other_member(parsed, node, wanted, member)
        if wanted.member and node.type == "identifier":
            # a method is reached through a receiver; a plain name is something else
            return parent.child_by_field_name("name") != node
        if language == "go" and parent.type == "qualified_type":
            package = parent.child_by_field_name("package")
            return package is not None and (package.text or b"").decode() in parsed.foreign
        if node.type == "identifier" and name in parsed.foreign and language == "python":
            return True
        if language == "python" and _in_import_of_other(node, self._modules):
            return True
        return node.type == "identifier" and self._local(parsed, node, name)

    def _other_member(
        self, parsed: _Parsed, node: ts.Node, wanted: Wanted, member: ts.Node
    ) -> bool:
        """`receiver.name` that the parse shows to be another symbol: a member of a
        foreign module or global; a member of an imported module when the symbol is a
        method; any other receiver when it is a top-level symbol (only modules and
        namespaces hold those); `super().name` inside the symbol's own definition."""
        receiver = member.child_by_field_name(MEMBER_PARENTS[self.language][2])
        if receiver is None:
            return False
        text = (receiver.text or b"").decode()
        root = _root_of(self.language, receiver)
        if root in parsed.foreign | FOREIGN_GLOBALS[self.language]:
            return True
        if wanted.member:
            last = text.rpartition(".")[2]
            if root in parsed.imported and last != wanted.container:
                return True  # a member of a module or namespace, not of the class
            own = parsed.path == wanted.path and (
                wanted.lines[0] <= node.start_point[0] + 1 <= wanted.lines[1]
            )
            return own and text == "super()"
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
            if self._is_binding(node) and _nearest_function(self.language, node) == scope:
                return True
        return False

    def _is_binding(self, node: ts.Node) -> bool:
        parent = node.parent
        if parent is None or node.type not in {
            "identifier",
            "shorthand_property_identifier_pattern",
        }:
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


def _walk(root: ts.Node) -> Iterator[ts.Node]:
    cursor = root.walk()
    while True:
        node = cursor.node
        if node is not None:
            yield node
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while cursor.goto_parent():
            if cursor.goto_next_sibling():
                break
        else:
            return


def _member_of(language: str, node: ts.Node) -> ts.Node | None:
    """The member expression whose member name `node` is (`x.NAME`), if it is one."""
    shape = MEMBER_PARENTS.get(language)
    parent = node.parent
    if shape is None or parent is None or parent.type != shape[0]:
        return None
    return parent if parent.child_by_field_name(shape[1]) == node else None


def _root_of(language: str, receiver: ts.Node) -> str:
    """The leftmost name of a receiver chain (`a` of `a.b.c`)."""
    shape = MEMBER_PARENTS[language]
    while receiver.type == shape[0]:
        inner = receiver.child_by_field_name(shape[2])
        if inner is None:
            break
        receiver = inner
    return (receiver.text or b"").decode()


GO_DECLARATIONS = frozenset({"field_declaration", "method_elem", "method_spec"})
TS_DECLARATIONS = frozenset(
    {"enum_assignment", "enum_body", "property_signature", "public_field_definition"}
)


def _declares_other(language: str, node: ts.Node) -> bool:
    """`node` declares a name the map keeps no symbol for: the member assigned in
    `x.NAME = ...`; a Python class attribute; a TypeScript enum member, interface
    property, class field or type parameter; a Go struct field or interface method."""
    parent = node.parent
    if language == "typescript" and parent is not None:
        if parent.type == "type_parameter":
            return parent.child_by_field_name("name") == node
        if parent.type in TS_DECLARATIONS:
            return parent.type == "enum_body" or parent.child_by_field_name("name") == node
    if language == "go" and parent is not None and parent.type in GO_DECLARATIONS:
        return parent.child_by_field_name("name") == node
    if language == "python" and parent is not None and parent.type == "assignment":
        statement = parent.parent
        block = statement.parent if statement is not None else None
        holder = block.parent if block is not None else None
        if holder is not None and holder.type == "class_definition":
            return parent.child_by_field_name("left") == node
    member = _member_of(language, node)
    holder = member.parent if member is not None else None
    if holder is None or holder.type not in {"assignment", "assignment_expression"}:
        return False
    return holder.child_by_field_name("left") == member


def _nearest_function(language: str, node: ts.Node) -> ts.Node | None:
    scope = node.parent
    while scope is not None and scope.type not in FUNCTION_TYPES[language]:
        scope = scope.parent
    return scope


def _foreign(language: str, tree: ts.Tree, modules: frozenset[str] | None) -> frozenset[str]:
    """The names a file binds by importing from outside the project (`modules`: the
    project's module names), or by any import at all (`modules` None)."""
    names: set[str] = set()
    for node in _walk(tree.root_node):
        if language == "python" and node.type in {"import_statement", "import_from_statement"}:
            names |= _python_imported(node, modules)
        elif language == "go" and node.type == "import_spec":
            name = node.child_by_field_name("name")
            path = node.child_by_field_name("path")
            text = (path.text or b"").decode().strip('"') if path is not None else ""
            names.add((name.text or b"").decode() if name is not None else text.split("/")[-1])
        elif language == "typescript" and modules is None and node.type == "import_clause":
            names |= {
                (n.text or b"").decode()
                for n in _walk(node)
                if n.type == "identifier" and _binds_import(n)
            }
    return frozenset(names)


def _binds_import(node: ts.Node) -> bool:
    """A name a TypeScript import clause binds: a default or namespace import, or
    an import specifier's local name (`b` of `{a as b}`, `a` of `{a}`)."""
    spec = node.parent
    if spec is None or spec.type != "import_specifier":
        return True
    alias = spec.child_by_field_name("alias")
    return (alias or spec.child_by_field_name("name")) == node


def _python_imported(node: ts.Node, modules: frozenset[str] | None) -> set[str]:
    """Names a Python import binds: all of them (`modules` None), or those of
    modules outside the project."""

    def outside(module: str) -> bool:
        if modules is None:
            return True
        return not module.startswith(".") and module.split(".")[0] not in modules

    module = node.child_by_field_name("module_name")
    bound = set()
    if module is not None:  # from M import a, b as c
        if not outside((module.text or b"").decode()):
            return set()
        for child in node.children_by_field_name("name"):
            alias = child.child_by_field_name("alias") if child.type == "aliased_import" else None
            bound.add(((alias or child).text or b"").decode().split(".")[-1])
        return bound
    for child in node.children_by_field_name("name"):  # import a.b, c as d
        target = child.child_by_field_name("name") if child.type == "aliased_import" else child
        alias = child.child_by_field_name("alias") if child.type == "aliased_import" else None
        text = (target.text or b"").decode() if target is not None else ""
        if outside(text):
            bound.add((alias.text or b"").decode() if alias is not None else text.split(".")[0])
    return bound


def _in_import_of_other(node: ts.Node, modules: frozenset[str]) -> bool:
    """`node` is in a Python import and names a module, or something of a module
    outside the project."""
    child, holder = node, node.parent
    while holder is not None and holder.type not in {"import_statement", "import_from_statement"}:
        child, holder = holder, holder.parent
    if holder is None:
        return False
    if holder.type == "import_statement" or child == holder.child_by_field_name("module_name"):
        return True
    return bool(_python_imported(holder, modules))
