"""gopls (Debian's 0.5.0, go 1.19) behind the LivePool, on tests/fixtures/go_app.

gopls 0.5 does not watch the disk: edits reach it as didChangeWatchedFiles, and
files changed outside are opened (it caches unopened files by mtime).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.lsp.conftest import Live, line_of, open_live, position_of
from tests.lsp.realserver import (
    PATIENT,
    insert_lines_at_top,
    places,
    rewrite_keeping_mtime,
    two_functions,
    write,
)

SHAPES = "shapes/shapes.go"
MAIN = "main.go"
EXTRA = "extra.go"


@pytest.fixture(scope="module")
def go(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    with open_live(
        "go_app", tmp_path_factory.mktemp("go"), language="go", server="gopls", settings=PATIENT
    ) as live:
        yield live


def _decl(live: Live) -> tuple[int, int]:
    return position_of(live.root, SHAPES, "Total", after="func Total")


def _call(live: Live) -> tuple[int, int]:
    return position_of(live.root, MAIN, "Total", after="shapes.Total")


def test_references_reach_a_file_never_opened_from_the_first_query(go: Live) -> None:
    found = go.run(go.pool.references(SHAPES, *_decl(go)))
    assert places(found) == {
        (SHAPES, line_of(go.root, SHAPES, "func Total")),
        (MAIN, line_of(go.root, MAIN, "shapes.Total")),
    }


def test_definition_of_a_call_is_the_function_in_another_package(go: Live) -> None:
    found = go.run(go.pool.definition(MAIN, *_call(go)))
    assert places(found) == {(SHAPES, line_of(go.root, SHAPES, "func Total"))}
    assert "func Total(" in found[0].text


def test_implementations_of_an_interface_are_its_types(go: Live) -> None:
    found = go.run(
        go.pool.implementations(SHAPES, *position_of(go.root, SHAPES, "Shape interface"))
    )
    assert places(found) == {
        (SHAPES, line_of(go.root, SHAPES, "type Circle")),
        (SHAPES, line_of(go.root, SHAPES, "type Square")),
    }


def test_type_definition_of_a_variable_is_its_type(go: Live) -> None:
    found = go.run(
        go.pool.type_definition(MAIN, *position_of(go.root, MAIN, "all", after="func report"))
    )
    assert places(found) == {(SHAPES, line_of(go.root, SHAPES, "type Shape interface"))}


def test_hover_shows_the_signature_and_the_doc_comment_without_links(go: Live) -> None:
    info = go.run(go.pool.hover(MAIN, *_call(go)))
    assert info is not None
    assert "func shapes.Total(shapes []shapes.Shape) float64" in info.contents
    assert "Total is the sum of the areas of shapes." in info.contents
    assert "pkg.go.dev" not in info.contents  # the catalog turns hover links off


def test_document_symbols_nest_fields_in_their_struct(go: Live) -> None:
    outline = {node.name: node for node in go.run(go.pool.document_symbols(SHAPES))}
    assert {"Shape", "Circle", "Square", "Total"} <= set(outline)
    circle = outline["Circle"]
    assert circle.kind == "struct"
    assert [(f.name, f.kind) for f in circle.children] == [("Radius", "field")]
    assert [(m.name, m.kind) for m in outline["Shape"].children] == [("Area", "method")]
    assert outline["Total"].kind == "function"


def test_workspace_symbols_find_a_function_by_name(go: Live) -> None:
    found = go.run(go.pool.workspace_symbols("Total", language="go"))
    assert ("Total", SHAPES) in {(s.name, s.location.path) for s in found}


def test_incoming_calls_name_the_caller_and_where_it_calls(go: Live) -> None:
    callers = go.run(go.pool.incoming_calls(SHAPES, *_decl(go)))
    assert [(s.name, s.location.path) for s in callers] == [("report", MAIN)]
    assert {span.start_line for span in callers[0].call_spans} == {_call(go)[0]}


def test_outgoing_calls_name_the_interface_method_called(go: Live) -> None:
    callees = go.run(go.pool.outgoing_calls(SHAPES, *_decl(go)))
    assert [(s.name, s.location.path) for s in callees] == [("Area", SHAPES)]
    assert callees[0].location.line == line_of(go.root, SHAPES, "Area() float64")
    call_line = position_of(go.root, SHAPES, "Area", after="shape.")[0]
    assert {span.start_line for span in callees[0].call_spans} == {call_line}


def test_lines_inserted_on_disk_shift_answers_at_once(go: Live) -> None:
    insert_lines_at_top(go.root, SHAPES, 5, "//")
    insert_lines_at_top(go.root, MAIN, 5, "//")
    found = go.run(go.pool.definition(MAIN, *_call(go)))
    assert places(found) == {(SHAPES, line_of(go.root, SHAPES, "func Total"))}
    refs = go.run(go.pool.references(SHAPES, *_decl(go)))
    assert (MAIN, line_of(go.root, MAIN, "shapes.Total")) in places(refs)


def test_a_new_file_never_opened_shows_up_in_references_and_callers(go: Live) -> None:
    write(
        go.root,
        EXTRA,
        'package main\n\nimport "example.com/goapp/shapes"\n\n'
        "func extra() float64 {\n\treturn shapes.Total(nil)\n}\n",
    )
    found = go.run(go.pool.references(SHAPES, *_decl(go)))
    assert (EXTRA, line_of(go.root, EXTRA, "shapes.Total")) in places(found)
    callers = go.run(go.pool.incoming_calls(SHAPES, *_decl(go)))
    assert {("extra", EXTRA), ("report", MAIN)} == {(s.name, s.location.path) for s in callers}


def test_a_deleted_file_is_gone_from_references(go: Live) -> None:
    write(
        go.root,
        EXTRA,
        'package main\n\nimport "example.com/goapp/shapes"\n\n'
        "func gone() float64 {\n\treturn shapes.Total(nil)\n}\n",
    )
    assert EXTRA in {loc.path for loc in go.run(go.pool.references(SHAPES, *_decl(go)))}
    (go.root / EXTRA).unlink()
    assert EXTRA not in {loc.path for loc in go.run(go.pool.references(SHAPES, *_decl(go)))}


def test_an_edit_that_keeps_size_and_mtime_is_seen(go: Live) -> None:
    head = 'package main\n\nimport "example.com/goapp/shapes"\n'
    before, after = two_functions(
        "func more() float64 {\n\treturn shapes.Total(nil)\n}\n",
        "func other() int {\n\treturn 0\n}\n",
    )
    write(go.root, "more.go", head + before)
    assert ("more.go", line_of(go.root, "more.go", "shapes.Total")) in places(
        go.run(go.pool.references(SHAPES, *_decl(go)))
    )
    rewrite_keeping_mtime(go.root, "more.go", head + after)
    assert ("more.go", line_of(go.root, "more.go", "shapes.Total")) in places(
        go.run(go.pool.references(SHAPES, *_decl(go)))
    )
