"""Live outlines seen through node IDs."""

from __future__ import annotations

from lsp.model import DocumentSymbolNode, Span
from verify import NodeTarget, enclosing, find_by_name, find_exact, flatten, name_parts


def _node(
    name: str, kind: str, first: int, last: int, *kids: DocumentSymbolNode
) -> DocumentSymbolNode:
    span = Span(first, 0, last, 10)
    return DocumentSymbolNode(name, kind, None, span, Span(first, 4, first, 4 + len(name)), kids)


def test_server_spellings_become_qualified_parts() -> None:
    assert name_parts("(*Server).Handle") == ("Server", "Handle")
    assert name_parts("(Server).Close") == ("Server", "Close")
    assert name_parts("Shape::area") == ("Shape", "area")
    assert name_parts("area(int, int)") == ("area",)
    assert name_parts("operator()") == ("operator()",)


def test_flatten_gives_map_style_ids_with_repeats() -> None:
    outline = [
        _node(
            "Store", "class", 0, 20, _node("value", "method", 2, 4), _node("value", "method", 6, 8)
        ),
        _node("helper", "function", 22, 24),
        _node("(*Store).Close", "method", 26, 28),
    ]
    symbols = flatten("a.py", outline)
    assert [s.node_id for s in symbols] == [
        "a.py#Store",
        "a.py#Store.value",
        "a.py#Store.value~2",
        "a.py#helper",
        "a.py#Store.Close",
    ]
    assert symbols[1].container == ("Store",)
    assert find_exact(symbols, NodeTarget("a.py", "Store.value", 2)) is symbols[2]
    assert find_exact(symbols, NodeTarget("a.py", "Store.nope")) is None
    assert [s.node_id for s in find_by_name(symbols, "value")] == [
        "a.py#Store.value",
        "a.py#Store.value~2",
    ]
    assert [s.qualname for s in enclosing(symbols, 7, 1)] == ["Store", "Store.value"]


def test_a_c_forward_declaration_leaves_the_definition_its_map_id() -> None:
    """clangd lists `static int helper(int);` and the definition below it; the map keeps
    only the definition, as `a.c#helper`, and so does the live outline."""
    outline = [
        _node("helper", "function", 0, 0),
        _node("wrapped", "function", 1, 2),  # a prototype over two lines
        _node("main", "function", 3, 4),
        _node("helper", "function", 6, 8),
        _node("wrapped", "function", 9, 14),
        _node("one_liner", "function", 15, 15),
    ]
    assert [(s.node_id, s.span.start_line) for s in flatten("a.c", outline)] == [
        ("a.c#main", 3),
        ("a.c#helper", 6),
        ("a.c#wrapped", 9),
        ("a.c#one_liner", 15),
    ]
    # elsewhere a repeated name keeps its ordinal (Python redefinitions are two symbols)
    assert [s.node_id for s in flatten("a.py", [outline[0], outline[2], outline[3]])] == [
        "a.py#helper",
        "a.py#main",
        "a.py#helper~2",
    ]
