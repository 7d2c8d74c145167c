"""typescript-language-server (tsserver 5.9) behind the LivePool, on tests/fixtures/ts_app."""

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

SHAPES = "src/shapes.ts"
MAIN = "src/main.ts"
EXTRA = "src/extra.ts"


@pytest.fixture(scope="module")
def ts(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    dest = tmp_path_factory.mktemp("ts")
    with open_live(
        "ts_app", dest, language="typescript", server="typescript-language-server", settings=PATIENT
    ) as live:
        yield live


def _decl(live: Live) -> tuple[int, int]:
    return position_of(live.root, SHAPES, "totalArea", after="export function ")


def _call(live: Live) -> tuple[int, int]:
    return position_of(live.root, MAIN, "totalArea", after="${")


def test_references_are_complete_from_the_first_query(ts: Live) -> None:
    # The session's first query: tsserver answers with the declaration alone until
    # its project is loaded; the pool must not pass that partial answer on.
    found = ts.run(ts.pool.references(SHAPES, *_decl(ts)))
    assert places(found) == {
        (SHAPES, line_of(ts.root, SHAPES, "export function totalArea")),
        (MAIN, line_of(ts.root, MAIN, "totalArea", after="import")),
        (MAIN, line_of(ts.root, MAIN, "totalArea", after="${")),
    }


def test_definition_of_a_call_is_the_function_in_another_file(ts: Live) -> None:
    found = ts.run(ts.pool.definition(MAIN, *_call(ts)))
    assert places(found) == {(SHAPES, line_of(ts.root, SHAPES, "export function totalArea"))}
    assert "function totalArea(" in found[0].text


def test_references_without_the_declaration_leave_it_out(ts: Live) -> None:
    found = ts.run(ts.pool.references(SHAPES, *_decl(ts), include_declaration=False))
    assert (SHAPES, line_of(ts.root, SHAPES, "export function totalArea")) not in places(found)
    assert (MAIN, line_of(ts.root, MAIN, "totalArea", after="${")) in places(found)


def test_implementations_of_an_interface_are_its_classes(ts: Live) -> None:
    found = ts.run(ts.pool.implementations(SHAPES, *position_of(ts.root, SHAPES, "Shape {")))
    assert places(found) == {
        (SHAPES, line_of(ts.root, SHAPES, "class Circle")),
        (SHAPES, line_of(ts.root, SHAPES, "class Square")),
    }


def test_type_definition_of_a_variable_is_its_class(ts: Live) -> None:
    write(
        ts.root,
        "src/one.ts",
        'import { Circle } from "./shapes";\n\nexport const unit = new Circle(1);\n',
    )
    found = ts.run(
        ts.pool.type_definition("src/one.ts", *position_of(ts.root, "src/one.ts", "unit"))
    )
    assert places(found) == {(SHAPES, line_of(ts.root, SHAPES, "class Circle"))}


def test_hover_shows_the_signature_and_the_doc_comment(ts: Live) -> None:
    info = ts.run(ts.pool.hover(MAIN, *_call(ts)))
    assert info is not None
    assert "totalArea(shapes: Shape[]): number" in info.contents
    assert "The sum of the areas" in info.contents


def test_document_symbols_nest_members_in_their_class(ts: Live) -> None:
    outline = {node.name: node for node in ts.run(ts.pool.document_symbols(SHAPES))}
    assert {"Shape", "Circle", "Square", "totalArea"} <= set(outline)
    circle = outline["Circle"]
    assert circle.kind == "class"
    assert {"constructor", "area", "radius"} <= {child.name for child in circle.children}
    area = next(child for child in circle.children if child.name == "area")
    assert area.kind == "method"
    assert circle.span.start_line < area.span.start_line < circle.span.end_line
    assert outline["totalArea"].kind == "function"


def test_workspace_symbols_find_a_function_by_name(ts: Live) -> None:
    found = ts.run(ts.pool.workspace_symbols("totalArea", language="typescript"))
    assert ("totalArea", SHAPES) in {(s.name, s.location.path) for s in found}


def test_incoming_calls_name_the_caller_and_where_it_calls(ts: Live) -> None:
    callers = ts.run(ts.pool.incoming_calls(SHAPES, *_decl(ts)))
    assert [(c.name, c.location.path) for c in callers] == [("report", MAIN)]
    assert {span.start_line for span in callers[0].call_spans} == {_call(ts)[0]}


def test_outgoing_calls_name_the_callee_and_where_it_is_called(ts: Live) -> None:
    callees = ts.run(ts.pool.outgoing_calls(SHAPES, *_decl(ts)))
    assert {(c.name, c.location.path) for c in callees} == {("area", SHAPES)}
    call_line = position_of(ts.root, SHAPES, "area", after="shape.")[0]
    assert {span.start_line for c in callees for span in c.call_spans} == {call_line}


def test_outgoing_calls_list_each_call_once(ts: Live) -> None:
    callees = ts.run(ts.pool.outgoing_calls(SHAPES, *_decl(ts)))
    call_line = position_of(ts.root, SHAPES, "area", after="shape.")[0]
    # tsserver repeats the range of this call in fromRanges
    assert [span.start_line for c in callees for span in c.call_spans] == [call_line]


def test_lines_inserted_on_disk_shift_answers_at_once(ts: Live) -> None:
    insert_lines_at_top(ts.root, SHAPES, 5, "//")
    insert_lines_at_top(ts.root, MAIN, 5, "//")
    found = ts.run(ts.pool.definition(MAIN, *_call(ts)))
    assert places(found) == {(SHAPES, line_of(ts.root, SHAPES, "export function totalArea"))}
    callers = ts.run(ts.pool.incoming_calls(SHAPES, *_decl(ts)))
    assert {span.start_line for c in callers for span in c.call_spans} == {_call(ts)[0]}


def test_a_new_file_never_opened_shows_up_in_references_and_callers(ts: Live) -> None:
    write(
        ts.root,
        EXTRA,
        'import { totalArea } from "./shapes";\n\nexport const none = () => totalArea([]);\n',
    )
    found = ts.run(ts.pool.references(SHAPES, *_decl(ts)))
    assert (EXTRA, line_of(ts.root, EXTRA, "totalArea", after="=>")) in places(found)
    callers = ts.run(ts.pool.incoming_calls(SHAPES, *_decl(ts)))
    assert EXTRA in {c.location.path for c in callers}


def test_a_deleted_file_is_gone_from_references(ts: Live) -> None:
    write(
        ts.root,
        EXTRA,
        'import { totalArea } from "./shapes";\n\nexport const gone = totalArea([]);\n',
    )
    assert EXTRA in {loc.path for loc in ts.run(ts.pool.references(SHAPES, *_decl(ts)))}
    (ts.root / EXTRA).unlink()
    assert EXTRA not in {loc.path for loc in ts.run(ts.pool.references(SHAPES, *_decl(ts)))}


def test_an_edit_that_keeps_size_and_mtime_is_seen(ts: Live) -> None:
    head = 'import { totalArea } from "./shapes";\n'
    before, after = two_functions(
        "export function more(): number {\n  return totalArea([]);\n}\n",
        "export function other(): number {\n  return 0;\n}\n",
    )
    write(ts.root, "src/more.ts", head + before)
    assert ("src/more.ts", line_of(ts.root, "src/more.ts", "totalArea", after="return")) in places(
        ts.run(ts.pool.references(SHAPES, *_decl(ts)))
    )
    rewrite_keeping_mtime(ts.root, "src/more.ts", head + after)
    assert ("src/more.ts", line_of(ts.root, "src/more.ts", "totalArea", after="return")) in places(
        ts.run(ts.pool.references(SHAPES, *_decl(ts)))
    )
