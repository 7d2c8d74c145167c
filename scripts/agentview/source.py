"""What the source itself says, by tree-sitter: whether a site is code or a comment
or string, which line carries a definition's name, and the small edits the
benchmark makes (a required parameter added, a statement put in a body).

The benchmark's checks compare answers with these facts, never with what the
product is expected to say.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import tree_sitter as ts
from accuracy.nodes import walk
from accuracy.syntax import NAME_TYPES

from map.extraction.languages import grammar

COMMENTS_AND_STRINGS = frozenset(
    {
        "comment",
        "line_comment",
        "block_comment",
        "string",
        "string_content",
        "concatenated_string",
        "template_string",
        "string_fragment",
        "regex",
        "interpreted_string_literal",
        "raw_string_literal",
        "rune_literal",
        "string_literal",
        "char_literal",
        "system_lib_string",
    }
)
CODE_IN_STRINGS = frozenset({"interpolation", "template_substitution"})
"""Code inside a string: f-string and template-literal substitutions."""
MACRO_BODY = "preproc_arg"
"""C keeps a macro's body as raw text: code, unless the site sits in a comment or
string of that text."""
DEFINITIONS = frozenset(
    {
        "function_definition",
        "class_definition",
        "decorated_definition",
        "function_declaration",
        "generator_function_declaration",
        "method_definition",
        "class_declaration",
        "abstract_class_declaration",
        "interface_declaration",
        "type_alias_declaration",
        "method_declaration",
        "type_spec",
        "declaration",
        "struct_specifier",
        "type_definition",
    }
)
FUNCTION_VALUES = frozenset({"arrow_function", "function_expression", "function"})
CALLS = frozenset({"call", "call_expression"})
SPREADS = frozenset({"list_splat", "dictionary_splat", "spread_element", "variadic_argument"})
BODIES = frozenset({"block", "statement_block", "compound_statement"})
FILLER = {
    "python": "_bench_marker = 0",
    "typescript": "void 0;",
    "go": "_ = 0",
    "c": "(void)0;",
}
"""A statement that changes a body and nothing else."""
EXTRA = {"typescript": "benchExtra: symbol", "go": "benchExtra int", "c": "int bench_extra"}
"""A required first parameter no caller passes (Python gets a keyword-only one)."""


Change = tuple[int, int, str]
"""Replace bytes [start, end) with the text."""


class EditError(Exception):
    """The benchmark could not make an edit it wanted; the message says why."""


@dataclass(frozen=True)
class Edit:
    """A change to one file: the new bytes, and the old ones to restore."""

    path: str
    before: bytes
    after: bytes


class Sources:
    """The files of one language in a root, parsed once each, on demand."""

    def __init__(self, root: Path, language: str) -> None:
        self.root = root
        self.language = language
        self._parser = ts.Parser(grammar(language))
        self._trees: dict[str, tuple[bytes, ts.Tree]] = {}
        self._name_index: dict[str, tuple[bytes, dict[str, list[ts.Node]]]] = {}

    def tree(self, path: str) -> tuple[bytes, ts.Tree]:
        """The file's bytes and parse (re-parsed when the file changed)."""
        data = (self.root / path).read_bytes()
        kept = self._trees.get(path)
        if kept is None or kept[0] != data:
            kept = (data, self._parser.parse(data))
            self._trees[path] = kept
        return kept

    def line_text(self, path: str, line: int) -> str:
        """Line `line` (1-based) of the file, "" past its end."""
        lines = self.tree(path)[0].decode(errors="replace").splitlines()
        return lines[line - 1] if 0 < line <= len(lines) else ""

    def in_macro_body(self, path: str, line: int, column: int) -> bool:
        """Whether the site is in a C macro's body (raw text to tree-sitter)."""
        return self._node_types(path, line, column) & {MACRO_BODY} != set()

    def _node_at(self, path: str, line: int, column: int) -> ts.Node | None:
        """The smallest node at `line`:`column` (1-based, characters)."""
        _, tree = self.tree(path)
        text = self.line_text(path, line)
        point = (line - 1, len(text[: column - 1].encode()))
        return tree.root_node.descendant_for_point_range(point, point)

    def _node_types(self, path: str, line: int, column: int) -> set[str]:
        node = self._node_at(path, line, column)
        types = set()
        while node is not None:
            types.add(node.type)
            node = node.parent
        return types

    def in_comment_or_string(self, path: str, line: int, column: int) -> bool:
        """Whether the site at `line`:`column` (1-based, characters) is inside a
        comment or a string (and not in code substituted into a string)."""
        text = self.line_text(path, line)
        node = self._node_at(path, line, column)
        while node is not None:
            if node.type in CODE_IN_STRINGS:
                return False
            if node.type in COMMENTS_AND_STRINGS:
                return True
            if node.type == MACRO_BODY:
                return _in_raw_comment_or_string(text[: column - 1])
            node = node.parent
        return False

    def name_line(self, path: str, name: str, lines: tuple[int, int]) -> int:
        """The first line within `lines` where `name` occurs as a name (the
        definition's own name: decorators and doc comments come before it)."""
        node = self._name_node(path, name, lines)
        return node.start_point[0] + 1 if node is not None else lines[0]

    def _name_node(self, path: str, name: str, lines: tuple[int, int]) -> ts.Node | None:
        rows = self._names(path).get(name, [])
        return next((n for n in rows if lines[0] <= n.start_point[0] + 1 <= lines[1]), None)

    def _names(self, path: str) -> dict[str, list[ts.Node]]:
        """The file's name nodes by their text, in document order (kept per content)."""
        data, tree = self.tree(path)
        kept = self._name_index.get(path)
        if kept is None or kept[0] is not data:
            index: dict[str, list[ts.Node]] = {}
            types = NAME_TYPES[self.language]
            for node in walk(tree.root_node):
                if node.type in types and node.text:
                    index.setdefault(node.text.decode(), []).append(node)
            kept = (data, index)
            self._name_index[path] = kept
        return kept[1]

    def definition(self, path: str, name: str, lines: tuple[int, int]) -> ts.Node | None:
        """The definition node whose name is the first occurrence of `name` in `lines`
        (for `const name = (...) => ...`, the function)."""
        node = self._name_node(path, name, lines)
        holder = node.parent if node is not None else None
        value = holder.child_by_field_name("value") if holder is not None else None
        if (
            holder is not None
            and holder.type == "variable_declarator"
            and value is not None
            and value.type in FUNCTION_VALUES
        ):
            return value
        while node is not None and node.type not in DEFINITIONS:
            node = node.parent
        return node

    def plain_call_lines(self, path: str, line: int, column: int) -> range | None:
        """The lines of the call whose callee's name is at `line`:`column` (1-based),
        None when its arguments spread a list or a mapping (no checker can count them)."""
        node = self._node_at(path, line, column)
        while node is not None and node.type not in CALLS:
            node = node.parent
        if node is None:
            return None
        arguments = node.child_by_field_name("arguments")
        spread = arguments is not None and any(
            child.type in SPREADS for child in arguments.named_children
        )
        return None if spread else range(line, node.end_point[0] + 2)

    def is_prototype(self, path: str, name: str, lines: tuple[int, int]) -> bool:
        """A C declaration without a body (a prototype in a header)."""
        node = self.definition(path, name, lines)
        return node is not None and node.type == "declaration"

    def prototypes(self, name: str, paths: list[str]) -> list[tuple[str, ts.Node]]:
        """Every C declaration of function `name` in `paths`: (path, parameter list)."""
        found = []
        for path in paths:
            _, tree = self.tree(path)
            for node in walk(tree.root_node):
                if node.type == "function_declarator" and _declared_name(node) == name:
                    holder = node.parent
                    while holder is not None and holder.type not in DEFINITIONS:
                        holder = holder.parent
                    params = node.child_by_field_name("parameters")
                    if holder is not None and holder.type == "declaration" and params:
                        found.append((path, params))
        return found

    def add_parameter(self, path: str, name: str, lines: tuple[int, int]) -> Edit:
        """The file with a required parameter added to the definition of `name`."""
        definition = self.definition(path, name, lines)
        params = _parameters(definition, name) if definition is not None else None
        if params is None:
            raise EditError(f"{path}: no parameter list found for {name}")
        data, _ = self.tree(path)
        change = (
            _python_keyword_only(params)
            if self.language == "python"
            else _first_parameter(params, self.language)
        )
        return self._checked(path, data, [change])

    def add_parameter_to_prototypes(self, name: str, paths: list[str]) -> list[Edit]:
        """C: the same parameter added to every prototype of `name` in `paths`."""
        by_path: dict[str, list[Change]] = {}
        for path, params in self.prototypes(name, paths):
            by_path.setdefault(path, []).append(_first_parameter(params, self.language))
        return [self._checked(path, self.tree(path)[0], ats) for path, ats in by_path.items()]

    def change_body(self, path: str, name: str, lines: tuple[int, int]) -> Edit:
        """The file with a statement added at the start of the body of `name`."""
        definition = self.definition(path, name, lines)
        body = _body(definition) if definition is not None else None
        if body is None:
            raise EditError(f"{path}: no body found for {name}")
        data, _ = self.tree(path)
        filler = FILLER[self.language]
        if self.language == "python":
            first = body.named_children[0] if body.named_children else None
            if first is None or first.start_point[0] == definition.start_point[0]:  # type: ignore[union-attr]
                raise EditError(f"{path}: {name}'s body shares its first line")
            line_start = first.start_byte - first.start_point[1]
            indent = data[line_start : first.start_byte].decode()
            return self._checked(path, data, [(line_start, line_start, f"{indent}{filler}\n")])
        at = body.start_byte + 1
        return self._checked(path, data, [(at, at, f"\n{filler}\n")])

    def _checked(self, path: str, data: bytes, changes: list[Change]) -> Edit:
        after = data
        for start, end, text in sorted(changes, reverse=True):
            after = after[:start] + text.encode() + after[end:]
        if (
            self._parser.parse(after).root_node.has_error
            and not self.tree(path)[1].root_node.has_error
        ):
            raise EditError(f"{path}: the edit would not parse")
        return Edit(path, data, after)


def apply(root: Path, edits: list[Edit]) -> None:
    """Write the edits' new contents."""
    for edit in edits:
        (root / edit.path).write_bytes(edit.after)


def restore(root: Path, edits: list[Edit]) -> None:
    """Write the edits' old contents back."""
    for edit in edits:
        (root / edit.path).write_bytes(edit.before)


def _in_raw_comment_or_string(before: str) -> bool:
    """In a C macro's raw text: the site follows an open `//`, `/*` or quote."""
    unquoted = re.sub(r'"(\\.|[^"\\])*"', '""', before)
    return unquoted.count('"') % 2 == 1 or "//" in unquoted or "/*" in unquoted


def _declared_name(declarator: ts.Node) -> str:
    inner = declarator.child_by_field_name("declarator")
    while inner is not None and inner.type != "identifier":
        inner = inner.child_by_field_name("declarator")
    return (inner.text or b"").decode() if inner is not None else ""


def _parameters(definition: ts.Node, name: str) -> ts.Node | None:
    if definition.type == "decorated_definition":
        inner = definition.child_by_field_name("definition")
        definition = inner if inner is not None else definition
    params = definition.child_by_field_name("parameters")
    if params is not None:
        return params
    for node in walk(definition):  # C: the function declarator under the definition
        if node.type == "function_declarator" and _declared_name(node) == name:
            return node.child_by_field_name("parameters")
    return None


def _body(definition: ts.Node) -> ts.Node | None:
    if definition.type == "decorated_definition":
        inner = definition.child_by_field_name("definition")
        definition = inner if inner is not None else definition
    body = definition.child_by_field_name("body")
    return body if body is not None and body.type in BODIES else None


def _python_keyword_only(params: ts.Node) -> Change:
    """Where and what to insert so the function gets a required keyword-only
    parameter: after `*`/`*args`, else before `**kwargs`, else at the end."""
    children = params.named_children
    splat = next(
        (c for c in children if c.type in {"list_splat_pattern", "keyword_separator"}), None
    )
    if splat is not None:
        return splat.end_byte, splat.end_byte, ", bench_extra"
    double = next((c for c in children if c.type == "dictionary_splat_pattern"), None)
    if double is not None:
        return double.start_byte, double.start_byte, "*, bench_extra, "
    at = children[-1].end_byte if children else params.start_byte + 1
    return at, at, ", *, bench_extra" if children else "*, bench_extra"


def _first_parameter(params: ts.Node, language: str) -> Change:
    """What to change so the function gets a required first parameter."""
    extra = EXTRA[language]
    inner = (params.text or b"").decode()[1:-1].strip()
    start, end = params.start_byte + 1, params.end_byte - 1
    if inner in {"", "void"}:
        return start, end, extra
    return start, start, f"{extra}, "
