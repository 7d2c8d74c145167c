"""Block scopes inside one function: Go's blocks and closures, Python's comprehensions,
PHP's closures.

The map keeps a local's values per function (map.linking.assigned): a receiver `cmd`
and a `for _, cmd := range ...` in the same Go method, a test's `f := NewFlagSet()`
and a closure's parameter `f *Flag`, a Python loop's `line` and a comprehension's,
would be one name given two values, so no use of either could be typed. Here a
name declared in more than one block of a function (Go: a block, an `if`/`for`/
`switch` header, a case clause, a function literal; Python: a comprehension, a
lambda; PHP: a closure, an arrow function) gets, for every declaration but the
function's own, a name of its own (`cmd'812`: the name, a mark no identifier
holds, and where its block starts), and every use that sees that declaration (a
receiver's head, a bare name) is renamed alike: each is then one name given one
value. `written` gives a renamed local's
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
_BODIES = frozenset({"block", "statement_block"})
"""A function's body: one scope with its parameters."""
_FILES = frozenset({"program", "source_file", "module"})
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
    alone: bool = False
    """Whether a name declared once, in a block below its function's (or file's)
    own, is renamed too: the uses outside that block are not its (a test callback's
    `const createStore` is no local of the rest of the file)."""


_GO_FUNCTIONS = frozenset({"function_declaration", "method_declaration", "func_literal"})
_SCRIPT_FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "arrow_function",
        "method_definition",
    }
)
_SCRIPT = _Blocks(
    blocks=_SCRIPT_FUNCTIONS
    | {
        "program",
        "statement_block",
        "for_statement",
        "for_in_statement",
        "catch_clause",
        "switch_case",
    },
    functions=_SCRIPT_FUNCTIONS,
    declaring=frozenset(
        {"variable_declarator", "required_parameter", "optional_parameter", "formal_parameters"}
    ),
    outside=frozenset({"class_body"}),
    alone=True,
)
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
        "typescript": _SCRIPT,
        "tsx": _SCRIPT,
        "javascript": _SCRIPT,
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
        "php": _Blocks(
            blocks=frozenset(
                {
                    "method_declaration",
                    "function_definition",
                    "anonymous_function",
                    "arrow_function",
                }
            ),
            outside=frozenset({"declaration_list", "program"}),
        ),
    }
)
"""The languages whose functions hold block scopes, and how."""


class _Declared:
    """One declaration of a local: its block's span, from where it is seen, its name."""

    __slots__ = ("end", "name", "own", "seen_from", "start")

    def __init__(self, block: Node, seen_from: int, name: str, own: bool) -> None:
        self.start, self.end = block.start_byte, block.end_byte
        self.seen_from = seen_from
        self.name = name
        self.own = own
        """Whether the block is the function's (or the file's) own."""


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
        if ref.kind in _LOCALS and (ref.scope is not None or shape.alone) and ref.text != "_":
            by_key[id(ref.scope), ref.text].append(ref)
    split: dict[tuple[int, str], list[_Declared]] = {}
    known: dict[int, _Declared | None] = {}  # a name both typed and declared: one place
    for key, refs in by_key.items():
        if len(refs) < 2 and not shape.alone:
            continue
        places = [
            known[ref.start]
            if ref.start in known
            else known.setdefault(ref.start, _declared(ref, shape))
            for ref in refs
        ]
        if any(place is None for place in places):
            continue  # a field or another name not in a function's blocks: left as it is
        kept = [p for p in places if p is not None]
        blocks = {(p.start, p.end) for p in kept}
        if shape.alone:
            renamed = [not p.own for p in kept]
        elif len(blocks) > 1:
            outermost = min(blocks, key=lambda b: (b[0], -b[1]))
            renamed = [(p.start, p.end) != outermost for p in kept]
        else:
            continue
        if not any(renamed):
            continue
        for ref, place, rename in zip(refs, kept, renamed, strict=True):
            if rename:
                place.name = f"{ref.text}{MARK}{place.start}"
                ref.text = place.name
        split[key] = kept
    if not split:
        return
    names = {name for _, name in split}
    for ref in [*found.refs, *found.assigns]:
        if ref.qualifier:
            head = ref.qualifier.partition(".")[0].partition("(")[0]
            seen = _around(split, by_key, ref, head) if head in names else None
            if seen is not None:
                ref.qualifier = _seen(seen, ref.start, head) + ref.qualifier[len(head) :]
        elif ref.kind not in _LOCALS and ref.text in names:
            seen = _around(split, by_key, ref, ref.text)
            if seen is not None:
                ref.text = _seen(seen, ref.start, ref.text)


def _around(
    split: Mapping[tuple[int, str], list[_Declared]],
    declaring: Mapping[tuple[int, str], list[Ref]],
    ref: Ref,
    name: str,
) -> list[_Declared] | None:
    """The renamed declarations of `name` a use sees: its own function's, else those
    of the functions around it that none between declares again (a helper declared
    in a test's callback uses the callback's `let root: Root`)."""
    scope = ref.scope
    while True:
        seen = split.get((id(scope), name))
        if seen is not None or scope is None or (id(scope), name) in declaring:
            return seen
        scope = scope.parent


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
            if kind in _BODIES and parent is not None and parent.type in shape.functions:
                node = parent
            own = node.type in _FILES or _owned(node, ref, shape)
            start = node.start_byte if seen_from is None else seen_from
            return _Declared(node, start, ref.text, own)
        node = node.parent
    return None


def _owned(block: Node, ref: Ref, shape: _Blocks) -> bool:
    """Whether `block` is the own block of the symbol around `ref` (its node, or the
    function its node holds: `const render = (s) => ...`), no other block between."""
    if ref.scope is None:
        return False
    symbol = ref.scope.node
    node: Node | None = block
    while node is not None and node.start_byte >= symbol.start_byte:
        if node.start_byte == symbol.start_byte and node.end_byte == symbol.end_byte:
            return True
        node = node.parent
        if node is not None and node.type in shape.blocks:
            return node.start_byte == symbol.start_byte and node.end_byte == symbol.end_byte
    return False
