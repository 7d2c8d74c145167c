"""clangd 22 behind the LivePool, on tests/fixtures/c_app and c_nodb.

Neither tree has a compile_commands.json, which clangd's background index (what
finds references in files never opened) reads: the pool generates one under
`.codeanchor/`. c_app has a compile_flags.txt; c_nodb has nothing but sources,
with headers in folders of their own, included by a path below such a folder.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from string import Template

import pytest

from disk.statedir import STATE_DIR
from tests.lsp.conftest import Live, line_of, open_live, position_of
from tests.lsp.realserver import (
    PATIENT,
    CallerFiles,
    Case,
    RealServerTests,
    Spot,
    places,
    write,
)

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


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    with C.open(tmp_path_factory) as live:
        yield live


def test_references_reach_a_file_never_opened_from_the_first_query(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # main.c is never opened here: only the background index knows its call, and
    # until that index is loaded clangd answers with the declaration alone.
    with C.open(tmp_path_factory) as live:  # its own server: this is its first query
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


NODB_HEADER = "lib/include/geo/geometry.h"
NODB_SOURCE = "lib/src/geometry.c"
NODB_LIMITS = "util/limits_util.h"


@pytest.fixture(scope="module")
def nodb(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    dest = tmp_path_factory.mktemp("c_nodb")
    with open_live("c_nodb", dest, language="c", server="clangd", settings=PATIENT) as live:
        yield live


def _tree(root: Path) -> set[str]:
    """Every file under `root` outside codeanchor's own folder."""
    return {
        path.relative_to(root).as_posix()
        for path in root.rglob("*")
        if path.is_file() and STATE_DIR not in path.relative_to(root).parts
    }


def test_without_a_database_references_reach_every_file_never_opened(nodb: Live) -> None:
    # Only the header is queried: the three sources are found by the background
    # index, which needs the header's folder (lib/include) to parse them.
    before = _tree(nodb.root)
    found = nodb.run(nodb.pool.references(*Spot(NODB_HEADER, "distance2").at(nodb.root)))
    assert places(found) == {
        Spot(NODB_HEADER, "distance2").place(nodb.root),
        Spot(NODB_SOURCE, "distance2").place(nodb.root),
        Spot("app/main.c", "distance2").place(nodb.root),
        Spot("app/bounds.c", "distance2").place(nodb.root),
    }
    assert _tree(nodb.root) == before  # nothing written in the user's tree


def test_a_header_declaration_leads_to_its_definition_and_back(nodb: Live) -> None:
    declaration = Spot(NODB_HEADER, "distance2")
    definition = Spot(NODB_SOURCE, "distance2")
    found = nodb.run(nodb.pool.definition(*declaration.at(nodb.root)))
    assert places(found) == {definition.place(nodb.root)}
    back = nodb.run(nodb.pool.definition(*definition.at(nodb.root)))
    assert places(back) == {declaration.place(nodb.root)}


def test_callers_of_a_function_declared_in_a_nested_include_folder(nodb: Live) -> None:
    callers = nodb.run(nodb.pool.incoming_calls(*Spot(NODB_LIMITS, "clamp").at(nodb.root)))
    assert {(s.name, s.location.path) for s in callers} == {
        ("distance2", NODB_SOURCE),
        ("bounded", "app/bounds.c"),
    }


def test_a_header_in_no_include_folder_is_named_with_its_fix(nodb: Live) -> None:
    assert nodb.pool.workspace_problems(NODB_SOURCE) == []  # <stdio.h> is the system's
    write(nodb.root, "app/py.c", "#include <Python_nowhere.h>\n\nint py(void) { return 0; }\n")
    assert nodb.run(nodb.pool.document_symbols("app/py.c"))
    [problem] = nodb.pool.workspace_problems("app/py.c")
    assert "Python_nowhere.h (included by 1 file(s))" in problem.cause
    assert "compile_flags.txt" in problem.fix


class TestClangd(RealServerTests):
    case = C
