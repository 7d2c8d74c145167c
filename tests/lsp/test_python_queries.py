"""Live queries on the Python fixture, against both ty and pyright."""

from __future__ import annotations

import asyncio

import pytest

from lsp.errors import UnsupportedQueryError
from lsp.model import DocumentSymbolNode, Location
from tests.lsp.conftest import Live, line_of, position_of

SHAPES = "app/shapes.py"
REPORT = "app/report.py"


def _places(locations: list[Location]) -> set[tuple[str, int]]:
    return {(loc.path, loc.line) for loc in locations}


def test_definition_of_a_function_called_from_another_module(py_live: Live) -> None:
    line, col = position_of(py_live.root, REPORT, "total_area", after="return")
    found = py_live.run(py_live.pool.definition(REPORT, line, col))
    assert _places(found) == {(SHAPES, line_of(py_live.root, SHAPES, "def total_area"))}
    assert found[0].text.startswith("def total_area(")


def test_references_span_both_modules(py_live: Live) -> None:
    root = py_live.root
    line, col = position_of(root, SHAPES, "total_area", after="def ")
    found = py_live.run(py_live.pool.references(SHAPES, line, col))
    definition = (SHAPES, line_of(root, SHAPES, "def total_area"))
    uses = {
        (REPORT, line_of(root, REPORT, "total_area")),  # the import
        (REPORT, line_of(root, REPORT, "total_area", after="return")),  # the call
    }
    assert _places(found) == uses | {definition}
    without = py_live.run(py_live.pool.references(SHAPES, line, col, include_declaration=False))
    assert definition not in _places(without)
    assert (REPORT, line_of(root, REPORT, "total_area", after="return")) in _places(without)


def test_hover_shows_the_signature_and_docstring(py_live: Live) -> None:
    line, col = position_of(py_live.root, REPORT, "total_area", after="return")
    hover = py_live.run(py_live.pool.hover(REPORT, line, col))
    assert hover is not None
    assert "def total_area(shapes: list[Shape]) -> float" in hover.contents
    assert "The sum of the areas" in hover.contents


def test_document_symbols_are_a_tree(py_live: Live) -> None:
    tree = py_live.run(py_live.pool.document_symbols(SHAPES))
    by_name = {node.name: node for node in tree}
    assert list(by_name) == ["Shape", "Square", "total_area"]
    assert by_name["Shape"].kind == "class"
    assert by_name["total_area"].kind == "function"
    shape_members = _names(by_name["Shape"].children)
    assert {"__init__", "area", "describe"} <= shape_members
    assert {"__init__", "area"} <= _names(by_name["Square"].children)
    area = next(n for n in by_name["Square"].children if n.name == "area")
    assert area.selection.start_line + 1 == line_of(
        py_live.root, SHAPES, "def area", after="class Square"
    )


def _names(nodes: tuple[DocumentSymbolNode, ...]) -> set[str]:
    return {node.name for node in nodes}


def test_incoming_calls_name_the_caller_and_the_call(py_live: Live) -> None:
    root = py_live.root
    line, col = position_of(root, SHAPES, "total_area", after="def ")
    callers = py_live.run(py_live.pool.incoming_calls(SHAPES, line, col))
    assert [(c.name, c.location.path) for c in callers] == [("build_report", REPORT)]
    call_line = line_of(root, REPORT, "total_area", after="return")
    assert [span.start_line + 1 for span in callers[0].call_spans] == [call_line]


def test_outgoing_calls_list_what_a_function_calls(py_live: Live) -> None:
    line, col = position_of(py_live.root, REPORT, "build_report", after="def ")
    callees = py_live.run(py_live.pool.outgoing_calls(REPORT, line, col))
    assert {(c.name, c.location.path) for c in callees} >= {
        ("Square", SHAPES),
        ("total_area", SHAPES),
    }


def test_workspace_symbols_find_a_function_by_name(py_live: Live) -> None:
    found = py_live.run(py_live.pool.workspace_symbols("total_area"))
    assert ("total_area", SHAPES) in {(s.name, s.location.path) for s in found}


def test_type_definition_leads_outside_the_root_with_an_absolute_path(py_live: Live) -> None:
    line, col = position_of(py_live.root, REPORT, "squares", after="total_area(")
    found = py_live.run(py_live.pool.type_definition(REPORT, line, col))
    assert [loc.path.rsplit("/", 1)[-1] for loc in found] == ["builtins.pyi"]
    assert found[0].path.startswith("/")
    assert found[0].text.startswith("class list(")


IMPLEMENTATIONS = {"ty": ("class Shape", "class Square"), "pyright": None}
"""Per server, where the `area` methods it lists for `Shape.area` are (after which
class), or None: it offers no textDocument/implementation."""


def test_implementations_are_what_each_server_answers(py_live: Live) -> None:
    root = py_live.root
    line, col = position_of(root, SHAPES, "area", after="class Shape")
    server = py_live.pool.catalog.choice["python"]
    assert server in IMPLEMENTATIONS, f"pin what {server} answers"
    expected = IMPLEMENTATIONS[server]
    if expected is None:
        with pytest.raises(UnsupportedQueryError, match="textDocument/implementation"):
            py_live.run(py_live.pool.implementations(SHAPES, line, col))
        return
    found = py_live.run(py_live.pool.implementations(SHAPES, line, col))
    assert _places(found) == {
        (SHAPES, line_of(root, SHAPES, "def area", after=c)) for c in expected
    }


def test_status_reports_the_running_server(py_live: Live) -> None:
    py_live.run(py_live.pool.document_symbols(SHAPES))
    [status] = py_live.pool.status()
    assert status.language == "python"
    assert status.state == "running"
    assert status.pid is not None


def test_concurrent_queries_each_get_their_own_answer(py_live: Live) -> None:
    root = py_live.root
    call = position_of(root, REPORT, "total_area", after="return")
    decl = position_of(root, SHAPES, "total_area", after="def ")

    async def together() -> tuple[list[Location], list[Location], list[DocumentSymbolNode]]:
        return await asyncio.gather(
            py_live.pool.definition(REPORT, *call),
            py_live.pool.references(SHAPES, *decl),
            py_live.pool.document_symbols(SHAPES),
        )

    definition, references, symbols = py_live.run(together())
    assert _places(definition) == {(SHAPES, line_of(root, SHAPES, "def total_area"))}
    assert (REPORT, call[0] + 1) in _places(references)
    assert [node.name for node in symbols] == ["Shape", "Square", "total_area"]
