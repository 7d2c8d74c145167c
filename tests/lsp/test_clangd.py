"""clangd 22 behind the LivePool, on tests/fixtures/c_app.

The copy gets a compile_commands.json (clangd's background index, which finds
references in files never opened, reads only that, and needs absolute paths).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from string import Template

import pytest

from tests.lsp.conftest import Live, line_of, position_of
from tests.lsp.realserver import CallerFiles, Case, RealServerTests, Spot, places

GEOMETRY = "src/geometry.c"
MAIN = "src/main.c"
HEADER = "include/geometry.h"

C = Case(
    fixture="c_app",
    language="c",
    server="clangd",
    decl=Spot(GEOMETRY, "distance2", after="int square"),
    call=Spot(MAIN, "distance2", after="static int report"),
    caller="report",
    definition_text="int distance2(",
    hover_shows=(
        "int distance2(struct point a, struct point b)",
        "The squared distance between a and b",
    ),
    workspace_symbol=("report", MAIN),  # in a file never opened
    outside=CallerFiles(
        folder="src/",
        suffix=".c",
        head='#include "geometry.h"\n\n',
        calling=Template(
            "int $name(void) {\n  struct point p = {1, 2};\n  return distance2(p, p);\n}\n"
        ),
        call="distance2(",
        idle="int other(void) { return 0; }\n",
    ),
)


def _write_compile_commands(root: Path) -> None:
    flags = (root / "compile_flags.txt").read_text().split()
    commands = [
        {"directory": str(root), "file": source, "arguments": ["cc", *flags, "-c", source]}
        for source in (GEOMETRY, MAIN)
    ]
    (root / "compile_commands.json").write_text(json.dumps(commands, indent=1))


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    with C.open(tmp_path_factory) as live:
        _write_compile_commands(live.root)  # before the first query starts clangd
        yield live


def test_references_reach_a_file_never_opened_from_the_first_query(live: Live) -> None:
    # main.c is never opened here: only the background index knows its call, and
    # until that index is loaded clangd answers with the declaration alone.
    found = live.run(live.pool.references(*C.decl.at(live.root)))
    assert places(found) == {
        C.decl.place(live.root),
        (HEADER, line_of(live.root, HEADER, "int distance2")),
        C.call.place(live.root),
    }


def test_type_definition_of_a_variable_is_its_struct(live: Live) -> None:
    found = live.run(live.pool.type_definition(*Spot(MAIN, "origin").at(live.root)))
    assert places(found) == {(HEADER, line_of(live.root, HEADER, "struct point {"))}


def test_document_symbols_nest_fields_in_their_struct(live: Live) -> None:
    outline = {node.name: node for node in live.run(live.pool.document_symbols(HEADER))}
    assert {"point", "square", "distance2"} <= set(outline)
    point = outline["point"]
    assert point.kind == "class"  # clangd reports every struct as a Class symbol
    assert [(f.name, f.kind) for f in point.children] == [("x", "field"), ("y", "field")]
    assert outline["distance2"].kind == "function"


def test_outgoing_calls_name_the_callee_and_both_calls(live: Live) -> None:
    callees = live.run(live.pool.outgoing_calls(*C.decl.at(live.root)))
    assert [(s.name, s.location.path) for s in callees] == [("square", GEOMETRY)]
    call_line = position_of(live.root, GEOMETRY, "square", after="return square")[0]
    assert [span.start_line for span in callees[0].call_spans] == [call_line, call_line]


class TestClangd(RealServerTests):
    case = C
