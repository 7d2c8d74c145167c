"""typescript-language-server (tsserver 5.9) behind the LivePool, on tests/fixtures/ts_app."""

from __future__ import annotations

from collections.abc import Iterator
from string import Template

import pytest

from tests.lsp.conftest import Live, line_of, position_of
from tests.lsp.realserver import CallerFiles, Case, RealServerTests, Spot, outside_file, places

SHAPES = "src/shapes.ts"
MAIN = "src/main.ts"

TS = Case(
    fixture="ts_app",
    language="typescript",
    server="typescript-language-server",
    decl=Spot(SHAPES, "totalArea", after="export function "),
    call=Spot(MAIN, "totalArea", after="${"),
    caller="report",
    definition_text="function totalArea(",
    hover_shows=("totalArea(shapes: Shape[]): number", "The sum of the areas"),
    workspace_symbol=("totalArea", SHAPES),
    outside=CallerFiles(
        folder="src/",
        suffix=".ts",
        head='import { totalArea } from "./shapes";\n\n',
        calling=Template("export function $name(): number {\n  return totalArea([]);\n}\n"),
        call="totalArea(",
        idle="export function other(): number {\n  return 0;\n}\n",
    ),
)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    with TS.open(tmp_path_factory) as live:
        yield live


def test_references_are_complete_from_the_first_query(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # The session's first query: tsserver answers with the declaration alone until
    # its project is loaded; the pool must not pass that partial answer on.
    with TS.open(tmp_path_factory) as live:  # its own server
        found = live.run(live.pool.references(*TS.decl.at(live.root)))
        assert places(found) == {
            TS.decl.place(live.root),
            (MAIN, line_of(live.root, MAIN, "totalArea", after="import")),
            TS.call.place(live.root),
        }


def test_references_without_the_declaration_leave_it_out(live: Live) -> None:
    found = live.run(live.pool.references(*TS.decl.at(live.root), include_declaration=False))
    assert TS.decl.place(live.root) not in places(found)
    assert TS.call.place(live.root) in places(found)


def test_implementations_of_an_interface_are_its_classes(live: Live) -> None:
    found = live.run(live.pool.implementations(*Spot(SHAPES, "Shape {").at(live.root)))
    assert places(found) == {
        (SHAPES, line_of(live.root, SHAPES, "class Circle")),
        (SHAPES, line_of(live.root, SHAPES, "class Square")),
    }


def test_type_definition_of_a_variable_is_its_class(live: Live) -> None:
    one = 'import { Circle } from "./shapes";\n\nexport const unit = new Circle(1);\n'
    with outside_file(live.root, "src/one.ts", one):
        found = live.run(live.pool.type_definition(*Spot("src/one.ts", "unit").at(live.root)))
        assert places(found) == {(SHAPES, line_of(live.root, SHAPES, "class Circle"))}


def test_document_symbols_nest_members_in_their_class(live: Live) -> None:
    outline = {node.name: node for node in live.run(live.pool.document_symbols(SHAPES))}
    assert {"Shape", "Circle", "Square", "totalArea"} <= set(outline)
    circle = outline["Circle"]
    assert circle.kind == "class"
    assert {"constructor", "area", "radius"} <= {child.name for child in circle.children}
    area = next(child for child in circle.children if child.name == "area")
    assert area.kind == "method"
    assert circle.span.start_line < area.span.start_line < circle.span.end_line
    assert outline["totalArea"].kind == "function"


def test_outgoing_calls_name_the_callee_and_where_it_is_called(live: Live) -> None:
    callees = live.run(live.pool.outgoing_calls(*TS.decl.at(live.root)))
    assert {(c.name, c.location.path) for c in callees} == {("area", SHAPES)}
    call_line = position_of(live.root, SHAPES, "area", after="shape.")[0]
    assert {span.start_line for c in callees for span in c.call_spans} == {call_line}


def test_outgoing_calls_list_each_call_once(live: Live) -> None:
    callees = live.run(live.pool.outgoing_calls(*TS.decl.at(live.root)))
    call_line = position_of(live.root, SHAPES, "area", after="shape.")[0]
    # tsserver repeats the range of this call in fromRanges
    assert [span.start_line for c in callees for span in c.call_spans] == [call_line]


class TestTypescript(RealServerTests):
    case = TS
