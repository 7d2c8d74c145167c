"""The preprocessor conditions a C or C++ definition sits under, evaluated where the
file alone decides them.

A branch of `#if`/`#ifdef`/`#ifndef`/`#elif`/`#else` is taken, not taken, or
undecided. It is decided by the file alone for a number (`#if 0`), a header's
include guard (`#ifndef H` whose first line defines `H`), and `defined(X)` (or
`#ifdef X`, `X`) where the file itself defines `X` earlier in a taken branch (and
never `#undef`s it); `!`, `&&`, `||` and parentheses combine them (a term undecided
on its own may still decide the whole: `0 && X`). Anything else (a macro the
includes or the compile flags may define, a comparison) is undecided; a test of
`__cplusplus` stands aside (it chooses a linkage around a header). Each
definition under a branch not taken is recorded as INACTIVE, else under an undecided
one as CONDITIONAL (map.model, with the directive as written): linking skips the
first and takes the second's binding of a call as a guess when another definition
stands against it (map.linking.conditions).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tree_sitter import Node

from map.extraction.extract_matches import Collected
from map.model import CONDITIONAL, INACTIVE

_BRANCHES = frozenset({"preproc_if", "preproc_ifdef", "preproc_elif", "preproc_else"})
_HOLDERS = _BRANCHES | {"translation_unit", "linkage_specification", "declaration_list"}
"""Where a `#define` may stand at file level (a branch, `extern "C"`, a namespace)."""
_DEFINES = frozenset({"preproc_def", "preproc_function_def"})
_CPLUSPLUS = "__cplusplus"

Decided = bool | None
"""Taken (True), not taken (False), or undecided (None)."""


def conditions_of(root: Node, found: Collected) -> list[list[Any]]:
    """The conditions of the file's definitions, as the store lists assignments
    (`[name, scope, value, called]`): one per definition under a branch not taken or
    undecided."""
    rows: list[list[Any]] = []
    reader: _Reader | None = None
    for scope in found.scopes:
        if scope.kind is None or not scope.tail or not _under_branch(scope.node):
            continue
        reader = reader or _Reader(root)
        taken, directives = reader.branch(scope.node)
        if taken is not True:
            name = INACTIVE if taken is False else CONDITIONAL
            rows.append([name, scope.tail, directives, False])
    return rows


def _under_branch(node: Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type in _BRANCHES:
            return True
        parent = parent.parent
    return False


class _Reader:
    """One file's defines and branches."""

    def __init__(self, root: Node) -> None:
        self._defines: dict[str, list[Node]] = {}
        self._undefined: set[str] = set()
        self._taken: dict[int, tuple[Decided, str]] = {}
        self._bodies: dict[int, Decided] = {}
        for node in _file_level(root):
            if node.type in _DEFINES and (name := node.child_by_field_name("name")) is not None:
                self._defines.setdefault(_text(name), []).append(node)
            elif node.type == "preproc_call" and _text(node.children[0]) == "#undef":
                argument = node.child_by_field_name("argument")
                self._undefined.add(_text(argument).strip() if argument is not None else "")

    def branch(self, node: Node) -> tuple[Decided, str]:
        """Whether the branches around `node` are all taken (False: one is not; None:
        one is undecided), and the directives that are not taken, else undecided."""
        key = node.id
        if key not in self._taken:
            self._taken[key] = self._branch(node)
        return self._taken[key]

    def _branch(self, node: Node) -> tuple[Decided, str]:
        undecided: list[str] = []
        child, parent = node, node.parent
        while parent is not None:
            if parent.type in _BRANCHES and child not in _heads(parent):
                taken = self._chosen(parent)
                if taken is False:
                    return False, _directive(parent)
                if taken is None:
                    undecided.append(_directive(parent))
            child, parent = parent, parent.parent
        return (None, " and ".join(reversed(undecided))) if undecided else (True, "")

    def _chosen(self, branch: Node) -> Decided:
        """Whether `branch`'s own body is taken: its condition, and none before it."""
        key = branch.id
        if key not in self._bodies:
            self._bodies[key] = self._decide(branch)
        return self._bodies[key]

    def _decide(self, branch: Node) -> Decided:
        if _linkage(branch):
            return True
        if branch.type == "preproc_else":
            return _not(self._earlier(branch))
        own = self._condition(branch)
        return own if branch.type != "preproc_elif" else _and(own, _not(self._earlier(branch)))

    def _earlier(self, branch: Node) -> Decided:
        """Whether a branch before `branch` (an `#elif` or `#else`) is taken."""
        before = branch.parent
        if before is None or before.type not in _BRANCHES:
            return None
        own = self._condition(before)
        return own if before.type != "preproc_elif" else _or(own, self._earlier(before))

    def _condition(self, branch: Node) -> Decided:
        if branch.type == "preproc_ifdef":
            name = branch.child_by_field_name("name")
            defined = self._defined(_text(name), branch) if name is not None else None
            negated = _text(branch.children[0]).endswith("ifndef")
            return (
                True
                if negated and _guards(branch, name)
                else (_not(defined) if negated else defined)
            )
        condition = branch.child_by_field_name("condition")
        if condition is None:
            return None
        if _is_guard_test(condition) and _guards(branch, _tested(condition)):
            return True
        return self._value(condition, branch)

    def _value(self, expression: Node, at: Node) -> Decided:
        kind = expression.type
        if kind == "number_literal":
            number = _number(_text(expression))
            return None if number is None else number != 0
        if kind == "preproc_defined":
            return self._defined(_text(_tested(expression)), at)
        if kind == "identifier":
            return self._number_of(_text(expression), at)
        if kind == "parenthesized_expression" and expression.named_child_count == 1:
            return self._value(expression.named_children[0], at)
        operator = expression.child_by_field_name("operator")
        if kind == "unary_expression" and operator is not None and operator.type == "!":
            argument = expression.child_by_field_name("argument")
            return _not(self._value(argument, at)) if argument is not None else None
        left = expression.child_by_field_name("left")
        right = expression.child_by_field_name("right")
        if kind != "binary_expression" or operator is None or left is None or right is None:
            return None
        combine = {"&&": _and, "||": _or}.get(operator.type)
        return combine(self._value(left, at), self._value(right, at)) if combine else None

    def _defined(self, name: str, at: Node) -> Decided:
        """True when the file defines `name` before `at` in a taken branch and never
        undefines it; else undecided (the includes or the flags may define it)."""
        if name in self._undefined:
            return None
        for define in self._defines.get(name, ()):
            if define.start_byte < at.start_byte and self.branch(define)[0] is True:
                return True
        return None

    def _number_of(self, name: str, at: Node) -> Decided:
        """A macro's value as a condition, when the file defines it as a number."""
        if self._defined(name, at) is not True:
            return None
        values = [d.child_by_field_name("value") for d in self._defines[name]]
        numbers = {_number(_text(v).strip()) if v is not None else None for v in values}
        number = numbers.pop() if len(numbers) == 1 else None
        return None if number is None else number != 0


def _file_level(node: Node) -> Iterator[Node]:
    for child in node.children:
        yield child
        if child.type in _HOLDERS or child.type == "namespace_definition":
            body = child.child_by_field_name("body")
            yield from _file_level(child if body is None else body)


def _linkage(branch: Node) -> bool:
    """Whether `branch` tests `__cplusplus` (`#ifdef __cplusplus` around `extern "C" {`:
    its unbalanced brace makes the parse hold the rest of the file in the branch): it
    chooses a linkage, never a definition, and stands aside."""
    return _CPLUSPLUS in _directive(branch)


def _heads(branch: Node) -> tuple[Node | None, ...]:
    """The parts of a branch that are not its body: its condition and what follows it."""
    return tuple(branch.child_by_field_name(f) for f in ("name", "condition", "alternative"))


def _guards(branch: Node, name: Node | None) -> bool:
    """Whether `branch` (`#ifndef H` or `#if !defined(H)`) is an include guard: its
    body opens by defining `H`."""
    heads = _heads(branch)
    body = [c for c in branch.named_children if c not in heads and c.type != "comment"]
    first = body[0].child_by_field_name("name") if body and body[0].type == "preproc_def" else None
    return name is not None and first is not None and first.text == name.text


def _is_guard_test(condition: Node) -> bool:
    operator = condition.child_by_field_name("operator")
    argument = condition.child_by_field_name("argument")
    return (
        condition.type == "unary_expression"
        and operator is not None
        and operator.type == "!"
        and argument is not None
        and argument.type == "preproc_defined"
    )


def _tested(expression: Node) -> Node | None:
    """The name `defined X` (or `!defined(X)`) tests."""
    while expression.type != "preproc_defined":
        argument = expression.child_by_field_name("argument")
        if argument is None:
            return None
        expression = argument
    return next((c for c in expression.named_children if c.type == "identifier"), None)


def _directive(branch: Node) -> str:
    """The branch's directive as written (`#ifdef Z_SOLO`; an `#else` with what it is
    the else of), from its tokens: never the text of the whole branch."""
    tested = branch.child_by_field_name("condition") or branch.child_by_field_name("name")
    line = _text(branch.children[0]).replace(" ", "").replace("\t", "")
    if tested is not None:
        line += " " + _text(tested)
    if branch.type == "preproc_else" and branch.parent is not None:
        return f"{line} of {_directive(branch.parent)}"
    return line


def _number(text: str) -> int | None:
    try:
        return int(text.rstrip("uUlL"), 0)
    except ValueError:
        return None


def _text(node: Node | None) -> str:
    return (node.text or b"").decode("utf-8", errors="replace") if node is not None else ""


def _not(value: Decided) -> Decided:
    return None if value is None else not value


def _and(left: Decided, right: Decided) -> Decided:
    if left is False or right is False:
        return False
    return True if left is True and right is True else None


def _or(left: Decided, right: Decided) -> Decided:
    if left is True or right is True:
        return True
    return False if left is False and right is False else None
