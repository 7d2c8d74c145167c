"""What C and C++ say of a function beyond its name: `static` at file level (internal
linkage) or a function-like macro (map.model.Symbol.form); the calls a macro's body
makes (and the name an object-like macro stands for, when it is one); a call the
parser took for a prototype; the name of a function a macro defines
(`START_TEST(test_x) { ... }`).

A macro's body is text to tree-sitter (`preproc_arg`). Its calls are read from a
second parse of a stand-in source of the file's length: every function-like macro's
body where it stands, inside one function, everything else blanked (newlines kept), so
each call's name node has the position it has in the file. A call of one of the
macro's own parameters calls what the use passes: not kept. Token pasting (`a##b`)
stands as one name no definition has, a stringified parameter (`#a`) as the parameter.
A prototype in a body is a call the parser misread (lua's `{ if keyiswhite(n)
reallymarkobject(g, gckey(n)); }`, an `if` without parentheses); a function the body
takes as a value (expat's `setTopLevel`: `... ? internalSubset : externalSubset1`) is
kept as one.
"""

from __future__ import annotations

import re
from functools import cache

from tree_sitter import Node, Parser, Query, QueryCursor

from map.extraction.extract_matches import Collected, Ref, Scope, new_ref
from map.extraction.languages import grammar
from map.extraction.node_text import text_of
from map.model import SymbolForm

C_FAMILY = frozenset({"c", "cpp"})
MACRO = "preproc_function_def"
ALIAS = "preproc_def"
_NAME = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_MACRO_NAME = re.compile(rb"[A-Z][A-Z0-9_]*")
_DEFINITION = "function_definition"
_CALLABLE = frozenset({"function", "method"})
_MISPARSED = frozenset({"declaration", _DEFINITION})
_KEYWORDS = frozenset({b"static", b"inline", b"const", b"extern", b"volatile", b"register"})
_FILE_LEVEL = frozenset(
    {"translation_unit", "declaration_list", "linkage_specification"}
    | {"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"}
    | {"template_declaration"}
)
"""What may hold a function at file level (a namespace's or `extern "C"`'s body, a
conditional's branch): not a class body."""
_OPEN = b"void _(){"
_NOT_PARAMETERS = frozenset(
    {"ERROR", "number_literal", "string_literal", "char_literal", "concatenated_string"}
    | {"null", "true", "false"}
)
_BLANK = bytes(0x0A if byte == 0x0A else 0x20 for byte in range(256))
"""Every byte but a newline to a space."""
_NOT_CALLS = frozenset({"defined", "sizeof", "_Generic", "__typeof__", "typeof"})
_BODY_USES = """
(call_expression function: (identifier) @name)
(declaration declarator: (function_declarator declarator: (identifier) @name))
([(argument_list (identifier) @value)
  (conditional_expression consequence: (identifier) @value)
  (conditional_expression alternative: (identifier) @value)
  (init_declarator value: (identifier) @value)
  (initializer_list (identifier) @value)
  (initializer_pair value: (identifier) @value)
  (assignment_expression right: (identifier) @value)
  (return_statement (identifier) @value)
  (pointer_expression argument: (identifier) @value)])
"""
"""What a macro's body uses of a function: calls (a prototype there is a misread call)
and, as in cfamily.scm, functions taken as values."""


def c_forms_of(found: Collected) -> None:
    """Each C or C++ function's form and, for a function a macro defines, its name; a
    call the parser took for a prototype is a call, not a function."""
    kept: list[Scope] = []
    for scope in found.scopes:
        if scope.kind in _CALLABLE:
            if scope.node.type in _MISPARSED and misparsed_call(scope.node):
                found.refs.append(new_ref(scope.name_node, "calls", None))
                continue
            scope.form = form_of(scope.node)
            made = macro_made(scope.node)
            if made is not None:  # `START_TEST(test_x) {`: the function is `test_x`
                scope.name, scope.name_node = text_of(made), made
        elif scope.node.type == ALIAS:
            scope.form = form_of(scope.node)
        kept.append(scope)
    found.scopes = kept


def form_of(node: Node) -> SymbolForm | None:
    """The form of the function defined or declared at `node`, or of a macro that names
    one (`#define s_free hi_free`) (None: neither)."""
    if node.type == MACRO or _alias(node) is not None:
        return "macro"
    parent = node.parent
    while parent is not None and parent.type == "template_declaration":
        parent = parent.parent
    if parent is None or parent.type not in _FILE_LEVEL:
        return None
    for child in node.children:
        if child.type == "storage_class_specifier" and child.text == b"static":
            return "static"
    return None


def macro_made(node: Node) -> Node | None:
    """The name of the function a macro defines at `node`, a definition the parser made
    of `START_TEST(test_nul_byte) { ... }` (a test framework's macro expanding to
    `static void test_nul_byte(void) {`): a macro's name (capitals) declared with one
    parameter that is a bare name (None: not such a definition)."""
    declarator = node.child_by_field_name("declarator") if node.type == _DEFINITION else None
    if declarator is None or declarator.type != "function_declarator":
        return None
    name = declarator.child_by_field_name("declarator")
    parameters = declarator.child_by_field_name("parameters")
    if name is None or not _MACRO_NAME.fullmatch(name.text or b"") or parameters is None:
        return None
    listed = parameters.named_children
    if len(listed) != 1 or listed[0].type != "parameter_declaration":
        return None
    if listed[0].named_child_count != 1:
        return None
    named = listed[0].child_by_field_name("type")
    return named if named is not None and named.type == "type_identifier" else None


def misparsed_call(node: Node) -> bool:
    """Whether a prototype or definition the parser made of a statement is a call: its
    parameter list holds a literal or a parse error (`EXPECT_ABORT_BEGIN` on the line
    before `TEST_ASSERT_EQUAL(a, 1);`, a macro written without its semicolon, reads as
    the call's return type), or it is a prototype inside a function's body."""
    if node.type == "declaration" and _in_body(node):
        return True
    declarator = node.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    parameters = declarator.child_by_field_name("parameters") if declarator else None
    return parameters is not None and any(c.type in _NOT_PARAMETERS for c in parameters.children)


def _in_body(node: Node) -> bool:
    parent = node.parent
    while parent is not None:
        if parent.type == "compound_statement":
            return True
        parent = parent.parent
    return False


def macro_calls(source: bytes, found: Collected, language: str) -> list[Ref]:
    """The calls the bodies of the file's function-like macros make, and the names they
    take as values, by name (none of a macro's own parameters)."""
    aliases = [_alias(scope.node) for scope in found.scopes if scope.node.type == ALIAS]
    named = [new_ref(value, "values", None) for value in aliases if value is not None]
    macros = [scope.node for scope in found.scopes if scope.node.type == MACRO]
    if not macros:
        return named
    stand_in = bytearray(source.translate(_BLANK))
    own: list[tuple[int, int, frozenset[str]]] = []
    for macro in sorted(macros, key=lambda n: n.start_byte):
        body = macro.child_by_field_name("value")
        if body is None or body.start_byte - macro.start_byte < len(_OPEN):
            continue
        opening = b";" if own else _OPEN
        stand_in[macro.start_byte : macro.start_byte + len(opening)] = opening
        text = source[body.start_byte : body.end_byte].replace(b"##", b"__")
        stand_in[body.start_byte : body.end_byte] = text.replace(b"#", b" ")
        own.append((body.start_byte, body.end_byte, _parameters(macro)))
    text = bytes(stand_in).replace(b"\\\n", b" \n").replace(b"\\\r\n", b" \r\n") + b"\n}"
    tree = Parser(grammar(language)).parse(text)
    calls: list[Ref] = []
    for _, captures in QueryCursor(_calls(language)).matches(tree.root_node):
        called = "name" in captures
        ref = new_ref(
            captures["name" if called else "value"][0], "calls" if called else "values", None
        )
        held = next((p for start, end, p in own if start <= ref.start < end), None)
        if held is not None and ref.text not in held and ref.text not in _NOT_CALLS:
            calls.append(ref)
    return named + calls


def _alias(node: Node) -> Node | None:
    """The value of an object-like macro that is one name (`#define s_free hi_free`: a
    call of `s_free` calls `hi_free`, when that is a function)."""
    if node.type != ALIAS:
        return None
    value = node.child_by_field_name("value")
    text = value.text if value is not None else None
    return value if text and _NAME.fullmatch(text) and text not in _KEYWORDS else None


def _parameters(macro: Node) -> frozenset[str]:
    listed = macro.child_by_field_name("parameters")
    if listed is None:
        return frozenset()
    return frozenset(
        (child.text or b"").decode("utf-8", errors="replace")
        for child in listed.named_children
        if child.type == "identifier"
    )


@cache
def _calls(language: str) -> Query:
    return Query(grammar(language), _BODY_USES)
