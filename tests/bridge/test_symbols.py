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
