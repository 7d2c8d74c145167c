"""The uses one extraction keeps, as the map store lists them: each reference with
the innermost symbol around it (the widest-ranked one per name position, none
that a local hides or a qualifier holds), and each local name given a value.

Called by map.extraction.extract once its sweep gave every match its scope.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from tree_sitter import Node

from map.extraction.extract_matches import Collected, Ref, Scope
from map.extraction.node_text import plain_name
from map.extraction.snapshot import REFERENCE_KINDS
from map.model import ATTRIBUTE_PREFIX, GIVES, RETURNS

Span = Callable[[Node, Node], list[int]]
"""From the start of one node to the end of another, as the store's four ints."""
_UNKNOWN = "assign.other"
_LOCAL = "assign."
_ALIAS = "assign.alias"
_HIDING: Mapping[str, bool] = MappingProxyType({"references": True, "values": False})
"""The uses a local of their name hides: a reference by an unknown local (True), a
function taken as a value by any local but an alias (False)."""
_RECEIVERS = frozenset({"self", "cls"})
_GIVEN_NAMES: Mapping[str, str] = MappingProxyType(
    {
        "assign.returns": RETURNS,
        "assign.returns.own": RETURNS,
        "assign.gives": GIVES,
        "assign.gives.alias": GIVES,
    }
)
"""The `Assignment` names of what a function returns (annotated) or gives (a fixture)."""
ASSIGN_RANK: Mapping[str, int] = MappingProxyType(
    {
        "assign.type": 0,
        "assign.call": 1,
        "assign.alias": 1,
        "assign.doc": 1,
        "assign.narrow": 0,
        "assign.other": 2,
        "attr.type": 0,
        "attr.call": 1,
        "attr.alias": 1,
        "assign.returns.own": -1,
        "assign.returns": 0,
        "assign.gives": 1,
        "assign.gives.alias": 1,
    }
)
"""The roles a local name is given a value in, most telling first (a type, then a
call or alias, then unknown): the captures that are assignments, not uses."""
_REF_PRIORITY: Mapping[str, int] = MappingProxyType(
    {"inherits": 0, "calls": 1, "values": 2, "references": 3}
)
_KIND_INDEX: Mapping[str, int] = MappingProxyType({k: i for i, k in enumerate(REFERENCE_KINDS)})


def references_of(span: Span, found: Collected) -> list[list[Any]]:
    """The references kept, in file order, as the store lists them."""
    defined = {scope.name_node.start_byte for scope in found.scopes} | found.skipped
    tails = found.tails
    # a use of a parameter or another unknown local names nothing of ours: not kept
    unknown_locals = {(id(ref.scope), ref.text) for ref in found.assigns if ref.kind == _UNKNOWN}
    # a function taken as a value is never a local, unless one that aliases a name
    not_functions = {
        (id(ref.scope), ref.text)
        for ref in found.assigns
        if ref.kind.startswith(_LOCAL) and ref.kind != _ALIAS
    }
    best: dict[int, Ref] = {}
    for ref in found.refs:
        key = ref.start
        hidden = _HIDING.get(ref.kind)
        if key in defined or (
            hidden is not None
            and ref.qualifier is None
            and (id(ref.scope), ref.text) in (unknown_locals if hidden else not_functions)
        ):
            continue
        kept = best.get(key)
        if kept is None or _rank(ref) < _rank(kept):
            best[key] = ref
    for scope in found.scopes:  # a declaration names its definition (map.linking.resolve)
        if scope.declaration:
            best[scope.name_node.start_byte] = Ref(
                scope.name_node, "references", None, scope.name_node.start_byte, scope.name, scope
            )
    starts = sorted(best)
    for q_start, q_end in found.qualifier_spans:
        index = bisect_left(starts, q_start)
        while index < len(starts) and starts[index] < q_end:
            best.pop(starts[index], None)
            index += 1
    references: list[list[Any]] = []
    for key in starts:
        kept_ref = best.get(key)
        if kept_ref is None:
            continue
        name = plain_name(kept_ref.text)
        if not name or (
            kept_ref.kind == "references"
            and kept_ref.qualifier is None
            and name in found.type_parameters
        ):
            continue
        references.append(
            [
                name,
                _KIND_INDEX[kept_ref.kind],
                span(kept_ref.name_node, kept_ref.name_node),
                _scope_tail(kept_ref.scope, tails),
                kept_ref.qualifier,
            ]
        )
    return references


def assignments_of(found: Collected) -> list[list[Any]]:
    """The local names given a value, each with its scope, as the store lists them; a
    defined variable or constant only when given a known value (`var Default =
    &Command{}`, `CONFIG = Config()`: what a use of it as a receiver holds)."""
    defined = {scope.name_node.start_byte for scope in found.scopes}
    kept: dict[int, Ref] = {}  # one per name: an annotation, else a value, else unknown
    for ref in found.assigns:
        key = ref.start
        unknown = ref.kind == _UNKNOWN or not ref.qualifier
        if (key in defined and unknown) or (ref.kind == _UNKNOWN and ref.text in _RECEIVERS):
            continue  # `self` and `cls` are known without their parameter
        if key not in kept or ASSIGN_RANK[ref.kind] < ASSIGN_RANK[kept[key].kind]:
            kept[key] = ref
    return [
        [
            _GIVEN_NAMES.get(ref.kind)
            or (ATTRIBUTE_PREFIX if ref.kind.startswith("attr.") else "") + ref.text,
            _scope_tail(_around(ref.scope) if key in defined else ref.scope, found.tails),
            ref.qualifier if ref.qualifier and ref.kind != "assign.other" else "",
            not ref.kind.endswith(".alias"),
        ]
        for key, ref in sorted(kept.items())
    ]


def _around(scope: Scope | None) -> Scope | None:
    """The scope around a defined name's own (where a constant's value is given)."""
    return scope.parent if scope is not None else None


def _scope_tail(scope: Scope | None, tails: dict[str, str]) -> str | None:
    """The node ID, without its path, of the innermost symbol around a reference (None:
    the file; a container maps to the same-named symbol of the file, e.g. a Rust impl
    to its struct)."""
    while scope is not None:
        if scope.kind is not None:
            return scope.tail
        mapped = tails.get(".".join(scope.parts))
        if mapped is not None:
            return mapped
        scope = scope.parent
    return None


def _rank(ref: Ref) -> tuple[int, bool]:
    """Which of two references at one name to keep: inherits, then calls, then
    the one with a qualifier."""
    return _REF_PRIORITY[ref.kind], ref.qualifier is None
