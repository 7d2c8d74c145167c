"""clangd 22 behind the LivePool, on tests/fixtures/c_app.

The copy gets a compile_commands.json (clangd's background index, which finds
references in files never opened, reads only that, and needs absolute paths).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

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

GEOMETRY = "src/geometry.c"
MAIN = "src/main.c"
HEADER = "include/geometry.h"
EXTRA = "src/extra.c"


def _write_compile_commands(root: Path) -> None:
    flags = (root / "compile_flags.txt").read_text().split()
    commands = [
        {"directory": str(root), "file": source, "arguments": ["cc", *flags, "-c", source]}
        for source in (GEOMETRY, MAIN)
    ]
    (root / "compile_commands.json").write_text(json.dumps(commands, indent=1))


@pytest.fixture(scope="module")
def c(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    with open_live(
        "c_app", tmp_path_factory.mktemp("c"), language="c", server="clangd", settings=PATIENT
    ) as live:
        _write_compile_commands(live.root)  # before the first query starts clangd
        yield live


def _decl(live: Live) -> tuple[int, int]:
    return position_of(live.root, GEOMETRY, "distance2", after="int square")


def _call(live: Live) -> tuple[int, int]:
    return position_of(live.root, MAIN, "distance2", after="static int report")


def test_references_reach_a_file_never_opened_from_the_first_query(c: Live) -> None:
    # main.c is never opened here: only the background index knows its call, and
    # until that index is loaded clangd answers with the declaration alone.
    found = c.run(c.pool.references(GEOMETRY, *_decl(c)))
    assert places(found) == {
        (GEOMETRY, line_of(c.root, GEOMETRY, "int distance2")),
        (HEADER, line_of(c.root, HEADER, "int distance2")),
        (MAIN, line_of(c.root, MAIN, "distance2(", after="static int report")),
    }


def test_definition_of_a_call_is_the_function_body(c: Live) -> None:
    found = c.run(c.pool.definition(MAIN, *_call(c)))
    assert places(found) == {(GEOMETRY, line_of(c.root, GEOMETRY, "int distance2"))}


def test_hover_shows_the_signature_and_the_comment(c: Live) -> None:
    info = c.run(c.pool.hover(MAIN, *_call(c)))
    assert info is not None
    assert "int distance2(struct point a, struct point b)" in info.contents
    assert "The squared distance between a and b" in info.contents


def test_type_definition_of_a_variable_is_its_struct(c: Live) -> None:
    found = c.run(c.pool.type_definition(MAIN, *position_of(c.root, MAIN, "origin")))
    assert places(found) == {(HEADER, line_of(c.root, HEADER, "struct point {"))}


def test_document_symbols_nest_fields_in_their_struct(c: Live) -> None:
    outline = {node.name: node for node in c.run(c.pool.document_symbols(HEADER))}
    assert {"point", "square", "distance2"} <= set(outline)
    point = outline["point"]
    assert point.kind == "class"  # clangd reports every struct as a Class symbol
    assert [(f.name, f.kind) for f in point.children] == [("x", "field"), ("y", "field")]
    assert outline["distance2"].kind == "function"


def test_workspace_symbols_find_a_function_in_a_file_never_opened(c: Live) -> None:
    found = c.run(c.pool.workspace_symbols("report", language="c"))
    assert ("report", MAIN) in {(s.name, s.location.path) for s in found}


def test_incoming_calls_name_the_caller_and_where_it_calls(c: Live) -> None:
    callers = c.run(c.pool.incoming_calls(GEOMETRY, *_decl(c)))
    assert [(s.name, s.location.path) for s in callers] == [("report", MAIN)]
    assert {span.start_line for span in callers[0].call_spans} == {_call(c)[0]}


def test_outgoing_calls_name_the_callee_and_both_calls(c: Live) -> None:
    callees = c.run(c.pool.outgoing_calls(GEOMETRY, *_decl(c)))
    assert [(s.name, s.location.path) for s in callees] == [("square", GEOMETRY)]
    call_line = position_of(c.root, GEOMETRY, "square", after="return square")[0]
    assert [span.start_line for span in callees[0].call_spans] == [call_line, call_line]


def test_lines_inserted_on_disk_shift_answers_at_once(c: Live) -> None:
    insert_lines_at_top(c.root, GEOMETRY, 5, "//")
    insert_lines_at_top(c.root, MAIN, 5, "//")  # main.c was never opened
    found = c.run(c.pool.definition(MAIN, *_call(c)))
    assert places(found) == {(GEOMETRY, line_of(c.root, GEOMETRY, "int distance2"))}
    refs = c.run(c.pool.references(GEOMETRY, *_decl(c)))
    assert (MAIN, line_of(c.root, MAIN, "distance2(", after="static int report")) in places(refs)


def test_a_new_file_never_opened_shows_up_in_references_and_callers(c: Live) -> None:
    write(
        c.root,
        EXTRA,
        '#include "geometry.h"\n\nint extra(void) {\n  struct point p = {1, 2};\n'
        "  return distance2(p, p);\n}\n",
    )
    found = c.run(c.pool.references(GEOMETRY, *_decl(c)))
    assert (EXTRA, line_of(c.root, EXTRA, "distance2(")) in places(found)
    callers = c.run(c.pool.incoming_calls(GEOMETRY, *_decl(c)))
    assert {("extra", EXTRA), ("report", MAIN)} == {(s.name, s.location.path) for s in callers}


def test_a_deleted_file_is_gone_from_references(c: Live) -> None:
    # clangd keeps a deleted file's references until it is sent empty (blank_deleted_files).
    write(c.root, EXTRA, '#include "geometry.h"\n\nint gone(void) { return square(2); }\n')
    square = position_of(c.root, GEOMETRY, "square", after="int ")
    assert EXTRA in {loc.path for loc in c.run(c.pool.references(GEOMETRY, *square))}
    (c.root / EXTRA).unlink()
    assert EXTRA not in {loc.path for loc in c.run(c.pool.references(GEOMETRY, *square))}


def test_an_edit_that_keeps_size_and_mtime_is_seen(c: Live) -> None:
    head = '#include "geometry.h"\n'
    before, after = two_functions(
        "int more(void) { return square(3); }\n", "int other(void) { return 0; }\n"
    )
    write(c.root, "src/more.c", head + before)
    square = position_of(c.root, GEOMETRY, "square", after="int ")
    assert ("src/more.c", line_of(c.root, "src/more.c", "square(")) in places(
        c.run(c.pool.references(GEOMETRY, *square))
    )
    rewrite_keeping_mtime(c.root, "src/more.c", head + after)
    assert ("src/more.c", line_of(c.root, "src/more.c", "square(")) in places(
        c.run(c.pool.references(GEOMETRY, *square))
    )
