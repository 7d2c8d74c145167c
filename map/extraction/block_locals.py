"""Block scopes inside one function: Go's blocks and closures, Python's comprehensions.

The map keeps a local's values per function (map.linking.assigned): a receiver `cmd`
and a `for _, cmd := range ...` in the same Go method, a test's `f := NewFlagSet()`
and a closure's parameter `f *Flag`, a Python loop's `line` and a comprehension's,
would be one name given two values, so no use of either could be typed. Here a
name declared in more than one block of a function (Go: a block, an `if`/`for`/
`switch` header, a case clause, a function literal; Python: a comprehension, a
lambda) gets, for every declaration but the function's own, a name of its own
(`cmd'812`: the name, a mark no identifier holds, and where its block starts), and
every use that sees that declaration (a receiver's head, a bare name) is renamed
alike: each is then one name given one value. `written` gives a renamed local's
name as written.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from tree_sitter import Node

from map.extraction.extract_matches import Collected, Ref

MARK = "'"
"""Separates a renamed local's written name from its block's start (no Go or Python
name holds it)."""
_MARKED = re.compile(MARK + "[0-9]+")
_LOCALS = frozenset({"assign.type", "assign.call", "assign.alias", "assign.other"})
"""The assignment roles that declare a local (not a struct field's, nor a result's)."""


@dataclass(frozen=True, slots=True)
class _Blocks:
    """A language's block scopes."""

    blocks: frozenset[str]
    """The nodes whose declarations only their own text sees."""
    functions: frozenset[str] = frozenset()
    """Nodes whose body block is one scope with them (a Go function's parameters)."""
    declaring: frozenset[str] = frozenset()
    """The nodes after whose end a name they declare is seen (Go's `x := x.f()` reads
    the outer x); elsewhere a name is seen from its block's start (a comprehension's
    variable in the expression before its `for`)."""
    outside: frozenset[str] = frozenset()
    """Nodes above which no declaration is a function's local (a struct, a class)."""


_GO_FUNCTIONS = frozenset({"function_declaration", "method_declaration", "func_literal"})
LANGUAGES: Mapping[str, _Blocks] = MappingProxyType(
    {
        "go": _Blocks(
            blocks=_GO_FUNCTIONS
            | {
                "block",
                "if_statement",
                "for_statement",
                "expression_switch_statement",
                "type_switch_statement",
                "select_statement",
                "expression_case",
                "type_case",
                "default_case",
                "communication_case",
            },
            functions=_GO_FUNCTIONS,
            declaring=frozenset(
                {
                    "short_var_declaration",
                    "range_clause",
                    "var_spec",
                    "parameter_declaration",
                    "variadic_parameter_declaration",
                }
            ),
            outside=frozenset({"field_declaration", "source_file"}),
        ),
        "python": _Blocks(
            blocks=frozenset(
                {
                    "function_definition",
                    "lambda",
                    "list_comprehension",
                    "set_comprehension",
                    "dictionary_comprehension",
                    "generator_expression",
                }
            ),
            outside=frozenset({"class_definition", "module"}),
        ),
    }
)
"""The languages whose functions hold block scopes, and how."""


class _Declared:
    """One declaration of a local: its block's span, from where it is seen, its name."""

    __slots__ = ("end", "name", "seen_from", "start")

    def __init__(self, block: Node, seen_from: int, name: str) -> None:
        self.start, self.end = block.start_byte, block.end_byte
        self.seen_from = seen_from
        self.name = name


def written(text: str) -> str:
    """A name or receiver as written, its renamed local's mark dropped (`cmd'812.args`
    -> cmd.args)."""
    return _MARKED.sub("", text) if MARK in text else text


def split_blocks(found: Collected, language: str) -> None:
    """Rename the locals of `found` declared in several blocks of one function, and
    their uses (see the module); nothing for a language not in `LANGUAGES`."""
    shape = LANGUAGES.get(language)
    if shape is None:
        return
    by_key: defaultdict[tuple[int, str], list[Ref]] = defaultdict(list)
    for ref in found.assigns:
        if ref.kind in _LOCALS and ref.scope is not None and ref.text != "_":
            by_key[id(ref.scope), ref.text].append(ref)
    split: dict[tuple[int, str], list[_Declared]] = {}
    for key, refs in by_key.items():
        if len(refs) < 2:
            continue
        places = [_declared(ref, shape) for ref in refs]
        if any(place is None for place in places):
            continue  # a field or another name not in a function's blocks: left as it is
        blocks = {(p.start, p.end) for p in places if p is not None}
        if len(blocks) < 2:
            continue
        outermost = min(blocks, key=lambda b: (b[0], -b[1]))
        for ref, place in zip(refs, places, strict=True):
            assert place is not None
            if (place.start, place.end) != outermost:
                place.name = f"{ref.text}{MARK}{place.start}"
                ref.text = place.name
        split[key] = [p for p in places if p is not None]
    if not split:
        return
    for ref in [*found.refs, *found.assigns]:
        if ref.scope is None:
            continue
        if ref.qualifier:
            head = ref.qualifier.partition(".")[0].partition("(")[0]
            seen = split.get((id(ref.scope), head))
            if seen is not None:
                ref.qualifier = _seen(seen, ref.start, head) + ref.qualifier[len(head) :]
        elif ref.kind not in _LOCALS:
            seen = split.get((id(ref.scope), ref.text))
            if seen is not None:
                ref.text = _seen(seen, ref.start, ref.text)


def _seen(declared: list[_Declared], at: int, name: str) -> str:
    """The name of the declaration a use at byte `at` sees: the innermost block around
    it that declares the name before it."""
    best: _Declared | None = None
    for one in declared:
        inside = one.start <= at < one.end and one.seen_from <= at
        if inside and (best is None or one.end - one.start < best.end - best.start):
            best = one
    return best.name if best is not None else name


def _declared(ref: Ref, shape: _Blocks) -> _Declared | None:
    """Where a declaration's name is seen: its block, and the byte from which on."""
    node: Node | None = ref.name_node.parent
    seen_from: int | None = None
    while node is not None:
        kind = node.type
        if kind in shape.outside:
            return None
        if seen_from is None and kind in shape.declaring:
            seen_from = node.end_byte
        if kind == "type_switch_statement" and seen_from is None:
            value = node.child_by_field_name("value")
            seen_from = value.end_byte if value is not None else node.start_byte
        if kind in shape.blocks:
            parent = node.parent
            if kind == "block" and parent is not None and parent.type in shape.functions:
                node = parent
            return _Declared(node, node.start_byte if seen_from is None else seen_from, ref.text)
        node = node.parent
    return None
