"""Disk is truth: edits made outside codeanchor show in the very next query.

Each test warms a fresh pool on a private copy of py_app, changes files on
disk the way another tool would, and queries again at once: no sleep. The
outside edits every server faces (references after inserts, renames, new,
deleted and mtime-kept files, quick writes, git checkout) are in
test_stale_matrix.py; these are the Python-specific views of them (outlines,
workspace symbols, the open-document limit).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from lsp.model import Location
from lsp.settings import LiveSettings
from tests.lsp.conftest import PYTHON_SERVERS, Live, line_of, open_live, position_of

SHAPES = "app/shapes.py"
REPORT = "app/report.py"
CLI = "app/cli.py"


@pytest.fixture(params=PYTHON_SERVERS)
def live(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Live]:
    with open_live("py_app", tmp_path, server=request.param) as live:
        yield live


def _places(locations: list[Location]) -> set[tuple[str, int]]:
    return {(loc.path, loc.line) for loc in locations}


def _definition_of_total_area(live: Live) -> set[tuple[str, int]]:
    line, col = position_of(live.root, REPORT, "total_area", after="return")
    return _places(live.run(live.pool.definition(REPORT, line, col)))


def _insert_at_top(path: Path, count: int) -> None:
    lines = "".join(f"# inserted line {n}\n" for n in range(count))
    path.write_text(lines + path.read_text(encoding="utf-8"), encoding="utf-8")


def test_lines_inserted_in_an_open_file_shift_its_outline(live: Live) -> None:
    before = live.run(live.pool.document_symbols(SHAPES))
    _insert_at_top(live.root / SHAPES, 5)
    after = live.run(live.pool.document_symbols(SHAPES))
    assert [n.span.start_line for n in after] == [n.span.start_line + 5 for n in before]
    assert _definition_of_total_area(live) == {
        (SHAPES, line_of(live.root, SHAPES, "def total_area"))
    }


def test_a_function_renamed_on_disk_is_found_by_its_new_name_only(live: Live) -> None:
    assert _definition_of_total_area(live)
    for name in (SHAPES, REPORT):
        path = live.root / name
        path.write_text(
            path.read_text(encoding="utf-8").replace("total_area", "sum_of_areas"),
            encoding="utf-8",
        )
    found = live.run(live.pool.workspace_symbols("sum_of_areas"))
    assert ("sum_of_areas", SHAPES) in {(s.name, s.location.path) for s in found}
    stale = live.run(live.pool.workspace_symbols("total_area"))
    assert "total_area" not in {s.name for s in stale}
    line, col = position_of(live.root, REPORT, "sum_of_areas", after="return")
    definition = live.run(live.pool.definition(REPORT, line, col))
    assert _places(definition) == {(SHAPES, line_of(live.root, SHAPES, "def sum_of_areas"))}


def test_a_search_path_added_to_pyproject_is_seen_at_once(live: Live) -> None:
    root = live.root
    (root / "lib/libpkg").mkdir(parents=True)
    (root / "lib/libpkg/__init__.py").write_text("def helper() -> int:\n    return 1\n")
    (root / "app/uses_lib.py").write_text("from libpkg import helper\n\nprint(helper())\n")
    line, col = position_of(root, "app/uses_lib.py", "helper", after="print")
    helper = ("lib/libpkg/__init__.py", 1)
    assert helper not in _places(live.run(live.pool.definition("app/uses_lib.py", line, col)))
    with (root / "pyproject.toml").open("a", encoding="utf-8") as pyproject:
        pyproject.write('\n[tool.ty.environment]\nextra-paths = ["lib"]\n')
        pyproject.write('\n[tool.pyright]\nextraPaths = ["lib"]\n')
    assert _places(live.run(live.pool.definition("app/uses_lib.py", line, col))) == {helper}


def test_only_the_most_recent_documents_stay_open_and_answers_stay_right(tmp_path: Path) -> None:
    settings = LiveSettings(max_open_documents=2)
    with open_live("py_app", tmp_path, server="ty", settings=settings) as live:
        for name in (CLI, REPORT, SHAPES, "app/decorators.py"):
            assert live.run(live.pool.document_symbols(name))
        session = live.pool.session("python")
        assert len(session.open_documents()) == 2
        _insert_at_top(live.root / REPORT, 3)  # REPORT was closed: the disk tells
        assert _definition_of_total_area(live) == {
            (SHAPES, line_of(live.root, SHAPES, "def total_area"))
        }
        assert [p.name for p in session.open_documents()] == ["decorators.py", "report.py"]
