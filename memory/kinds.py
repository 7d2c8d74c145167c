"""What kind of change a modified reference went through, from the two syntax trees.

Both versions are parsed with the file's tree-sitter grammar (`map.grammar`)
and cut into leaves, each in one category: a comment, a docstring (Python:
a string alone as the first statement of a module, class or function), an
annotation (a type hint: Python's `: T` and `-> T`, TypeScript's `: T`,
`<T>` type parameters and arguments; none in Go or C, where types are code),
or code. A leaf is in the definition's signature when it is in its parameters,
return type, bases or type parameters (not its name or decorators). A comma
before a closing bracket is no leaf, 'a' and "a" are the same string, and a
Python class's `(object)` is no bases at all. Python brackets that change nothing
(`cos((x))`, `for (a, b) in`) are no leaves, and a base class's type arguments
(`Base[int]`) are type hints.

    cosmetic     only comments and docstrings differ (whitespace is no leaf)
    annotations  the code is the same once type hints are left out
    signature    parameters or return changed, type hints aside (the body may
                 have changed too)
    body         only the body's code changed (and perhaps type hints)

`lines` counts the lines holding a leaf that differs (the larger of the
two sides). A symbol's text is parsed on its own: a method is dedented (Python)
or put back into a class shell (TypeScript, Java, C++, ...) first. In a
language without a grammar, comment-free tokens decide cosmetic or body.
"""

from __future__ import annotations

import textwrap
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from itertools import pairwise
from typing import Literal

from rapidfuzz.distance import Indel
from tree_sitter import Node, Parser

from map import grammar, language_for
from memory.model import CodeChange
from memory.similarity import tokens

Category = Literal["code", "comment", "docstring", "annotation"]
_ANNOTATIONS: dict[str, frozenset[str]] = {
    "python": frozenset({"type"}),
    "typescript": frozenset({"type_annotation", "type_parameters", "type_arguments"}),
    "tsx": frozenset({"type_annotation", "type_parameters", "type_arguments"}),
}
"""Node types that are type hints only, per language (fields `type` and `return_type`
for Python's `type`)."""
_SIGNATURE_FIELDS = (
    "parameters", "return_type", "result", "receiver", "superclasses", "type_parameters",
    "declarator", "type",
)  # fmt: skip
"""The fields of a definition that make its signature (a C function's `type` is its return
type, its `declarator` its name and parameters)."""
_QUOTES = frozenset({"string_start", "string_end", "'", '"'})
"""Leaves that only quote a string (Python's string_start/end, the ECMAScript quotes)."""
_PRIMARY = frozenset({
    "identifier", "attribute", "call", "subscript", "string", "integer", "float", "true",
    "false", "none", "list", "dict", "set", "tuple", "parenthesized_expression",
    "concatenated_string",
})  # fmt: skip
"""Python expressions that never need brackets around them."""
_TYPE_ONLY = frozenset({"interface_declaration", "type_alias_declaration"})
"""Declarations made of types: their types are their code."""
_SHELLS: dict[str, tuple[str, str]] = {
    "typescript": ("class _ {\n", "\n}"),
    "tsx": ("class _ {\n", "\n}"),
    "javascript": ("class _ {\n", "\n}"),
    "java": ("class _ {\n", "\n}"),
    "csharp": ("class _ {\n", "\n}"),
    "kotlin": ("class _ {\n", "\n}"),
    "swift": ("class _ {\n", "\n}"),
    "scala": ("class _ {\n", "\n}"),
    "cpp": ("struct _ {\n", "\n};"),
    "rust": ("impl _ {\n", "\n}"),
    "ruby": ("class X_\n", "\nend"),
    "php": ("<?php\nclass _ {\n", "\n}"),
}
"""What a member's text is put back into to parse as it would in its file."""


@dataclass(frozen=True, slots=True)
class _Leaf:
    text: str
    category: Category
    signature: bool
    line: int
    start: int
    """Its first byte in the text parsed."""


def change_between(path: str, old: str, new: str, *, member: bool, definition: bool) -> CodeChange:
    """How `old` became `new`, both the text of the same reference in the file `path`.

    `definition`: the texts are one symbol's (a signature is looked for);
    `member`: that symbol sits inside a class or similar (its text is parsed in a shell).
    """
    language = language_for(path)
    if language is None:
        same = tokens(old) == tokens(new)
        return CodeChange("cosmetic" if same else "body", _line_diff(old, new))
    before = _leaves(language, old, member=member, definition=definition)
    after = _leaves(language, new, member=member, definition=definition)
    lines = _changed_lines(before, after)

    def texts(leaves: list[_Leaf], keep: frozenset[Category]) -> list[str]:
        return [leaf.text for leaf in leaves if leaf.category in keep]

    code = frozenset[Category]({"code"})
    if texts(before, code) == texts(after, code):
        hinted = frozenset[Category]({"code", "annotation"})
        same_hints = texts(before, hinted) == texts(after, hinted)
        return CodeChange("cosmetic" if same_hints else "annotations", lines)
    signature_of = [
        [leaf.text for leaf in side if leaf.signature and leaf.category == "code"]
        for side in (before, after)
    ]
    return CodeChange("signature" if signature_of[0] != signature_of[1] else "body", lines)


def _line_diff(old: str, new: str) -> int:
    a = [line.strip() for line in old.splitlines() if line.strip()]
    b = [line.strip() for line in new.splitlines() if line.strip()]
    return _opcode_lines(a, b, range(1, len(a) + 1), range(1, len(b) + 1))


def _changed_lines(before: list[_Leaf], after: list[_Leaf]) -> int:
    a = [(leaf.category, leaf.text) for leaf in before]
    b = [(leaf.category, leaf.text) for leaf in after]
    return _opcode_lines(a, b, [leaf.line for leaf in before], [leaf.line for leaf in after])


def _opcode_lines(
    a: Sequence[Hashable], b: Sequence[Hashable], lines_a: Sequence[int], lines_b: Sequence[int]
) -> int:
    """The lines (the larger side's count) holding an item the two sequences do not share."""
    old: set[int] = set()
    new: set[int] = set()
    for op in Indel.opcodes(a, b):
        if op.tag != "equal":
            old.update(lines_a[op.src_start : op.src_end])
            new.update(lines_b[op.dest_start : op.dest_end])
    return max(len(old), len(new))


@cache
def _parser(language: str) -> Parser:
    return Parser(grammar(language))


def _leaves(language: str, text: str, *, member: bool, definition: bool) -> list[_Leaf]:
    head, tail = ("", "")
    if language == "python":
        text = textwrap.dedent(text)
    elif member and language in _SHELLS:
        head, tail = _SHELLS[language]
    elif language == "php":
        head = "<?php\n"
    skip = head.count("\n")
    tree = _parser(language).parse((head + text + tail).encode())
    node = _definition(tree.root_node, skip) if definition else None
    spans = [] if node is None else _signature_spans(node)
    plain = _plain_bases(node) if language == "python" else None
    generic = _generic_bases(node) if language == "python" else []
    hints = _ANNOTATIONS.get(language, frozenset())
    if node is not None and node.type in _TYPE_ONLY:
        hints = frozenset()
    found: list[_Leaf] = []
    _walk(tree.root_node, language, hints, "code", spans, skip, found)
    if plain is not None:
        found = [leaf for leaf in found if not plain[0] <= leaf.start < plain[1]]
    if generic:
        found = [
            replace(leaf, category="annotation")
            if leaf.category == "code" and any(a <= leaf.start < b for a, b in generic)
            else leaf
            for leaf in found
        ]
    return _without_trailing_commas(found)


def _plain_bases(node: Node | None) -> tuple[int, int] | None:
    """The span of a Python class's `(object)`: the same as no bases at all."""
    bases = node.child_by_field_name("superclasses") if node is not None else None
    if bases is None or (bases.text or b"").replace(b" ", b"") != b"(object)":
        return None
    return bases.start_byte, bases.end_byte


def _generic_bases(node: Node | None) -> list[tuple[int, int]]:
    """The spans of a Python class's bases' type arguments (`Base[int, str]`): type hints."""
    bases = node.child_by_field_name("superclasses") if node is not None else None
    if bases is None:
        return []
    found = []
    for base in bases.named_children:
        index = base.child_by_field_name("value") if base.type == "subscript" else None
        if index is not None:
            found.append((index.end_byte, base.end_byte))
    return found


def _signature_spans(node: Node) -> list[tuple[int, int]]:
    """The byte spans of a definition's parameters, return type, bases and the like."""
    spans = []
    for name in _SIGNATURE_FIELDS:
        for child in node.children_by_field_name(name):
            spans.append((child.start_byte, child.end_byte))
    return spans


def _without_trailing_commas(leaves: list[_Leaf]) -> list[_Leaf]:
    """A comma before a closing bracket is layout (formatters add and drop it)."""
    code = [leaf for leaf in leaves if leaf.category != "comment"]
    trailing = {
        id(leaf)
        for leaf, after in pairwise(code)
        if leaf.text == "," and after.text in (")", "]", "}")
    }
    return [leaf for leaf in leaves if id(leaf) not in trailing]


def _definition(root: Node, skip: int) -> Node | None:
    """The first node (preorder) past the shell that has a body: the symbol's definition."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.start_point.row >= skip and node.child_by_field_name("body") is not None:
            return node
        stack.extend(reversed(node.children))
    return None


def _walk(
    node: Node,
    language: str,
    hints: frozenset[str],
    category: Category,
    spans: list[tuple[int, int]],
    skip: int,
    out: list[_Leaf],
) -> None:
    children = node.children
    if not children:
        if node.end_point.row >= skip and node.end_byte > node.start_byte:
            text = (node.text or b"").decode("utf-8", "replace")
            if node.type in _QUOTES:  # 'a' and "a" are the same string
                text = text.replace("'", '"')
            row = node.start_point.row - skip + 1
            kind: Category = "comment" if "comment" in node.type else category
            signature = any(start <= node.start_byte < end for start, end in spans)
            out.append(_Leaf(text, kind, signature, row, node.start_byte))
        return
    redundant = language == "python" and _redundant_parens(node)
    for index, child in enumerate(children):
        if redundant and index in (0, len(children) - 1) and child.type in ("(", ")"):
            continue
        inner = category
        if category == "code":
            if _is_hint(child, node, hints, language) or (
                not child.is_named
                and index + 1 < len(children)
                and child.type in (":", "->")
                and _is_hint(children[index + 1], node, hints, language)
            ):
                inner = "annotation"
            elif language == "python" and _is_docstring(child, node, children[:index]):
                inner = "docstring"
        _walk(child, language, hints, inner, spans, skip, out)


def _redundant_parens(node: Node) -> bool:
    """Python brackets that change nothing: `((x))`, `cos((x))`, `for (a, b) in`."""
    if node.type == "parenthesized_expression":
        inner = node.named_children
        return len(inner) == 1 and inner[0].type in _PRIMARY
    if node.type == "tuple_pattern":
        parent = node.parent
        return parent is not None and parent.type in ("for_statement", "assignment")
    return False


def _is_hint(child: Node, parent: Node, hints: frozenset[str], language: str) -> bool:
    if child.type not in hints:
        return False
    if language != "python":
        return True
    return any(parent.child_by_field_name(name) == child for name in ("type", "return_type"))


def _is_docstring(child: Node, parent: Node, before: list[Node]) -> bool:
    """A string alone as the first statement of a module, or of a class's or function's body
    (`before`: its earlier siblings, comments at most)."""
    if child.type != "expression_statement" or child.named_child_count != 1:
        return False
    if any(node.type != "comment" for node in before):
        return False
    first = child.named_children[0]
    if first.type not in ("string", "concatenated_string"):
        return False
    if parent.type == "module":
        return True
    owner = parent.parent
    return (
        parent.type == "block"
        and owner is not None
        and owner.type in ("function_definition", "class_definition")
    )
