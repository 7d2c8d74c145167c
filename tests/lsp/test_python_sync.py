"""Disk is truth: edits made outside codeanchor show in the very next query.

Each test warms a fresh pool on a private copy of py_app, changes files on
disk the way another tool would, and queries again at once: no sleep.
"""

from __future__ import annotations

import os
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


def _references_to_total_area(live: Live) -> set[tuple[str, int]]:
    line, col = position_of(live.root, SHAPES, "total_area", after="def ")
    return _places(live.run(live.pool.references(SHAPES, line, col)))


def _insert_at_top(path: Path, count: int) -> None:
    lines = "".join(f"# inserted line {n}\n" for n in range(count))
    path.write_text(lines + path.read_text(encoding="utf-8"), encoding="utf-8")


def test_lines_inserted_in_an_unopened_file_shift_its_positions(live: Live) -> None:
    before = _definition_of_total_area(live)
    assert before == {(SHAPES, line_of(live.root, SHAPES, "def total_area"))}
    _insert_at_top(live.root / SHAPES, 5)
    after = _definition_of_total_area(live)
    assert after == {(SHAPES, line_of(live.root, SHAPES, "def total_area"))}
    assert after == {(path, line + 5) for path, line in before}


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


def test_a_caller_appended_to_a_never_opened_file_is_a_reference(live: Live) -> None:
    assert (CLI, 1) not in _references_to_total_area(live)
    cli = live.root / CLI
    cli.write_text(
        cli.read_text(encoding="utf-8")
        + "\n\ndef summary() -> float:\n"
        + "    from app.shapes import Square, total_area\n\n"
        + "    return total_area([Square(3.0)])\n",
        encoding="utf-8",
    )
    call = (CLI, line_of(live.root, CLI, "total_area", after="return"))
    assert call in _references_to_total_area(live)


def test_a_new_file_with_a_caller_is_a_reference(live: Live) -> None:
    _references_to_total_area(live)
    (live.root / "app/extra.py").write_text(
        "from app.shapes import Square, total_area\n\n\n"
        "def twice() -> float:\n"
        "    return 2 * total_area([Square(1.0)])\n",
        encoding="utf-8",
    )
    call = ("app/extra.py", line_of(live.root, "app/extra.py", "total_area", after="return"))
    assert call in _references_to_total_area(live)


def test_a_deleted_file_is_gone_from_results(live: Live) -> None:
    assert REPORT in {path for path, _ in _references_to_total_area(live)}
    (live.root / REPORT).unlink()
    assert REPORT not in {path for path, _ in _references_to_total_area(live)}


def test_an_edit_that_keeps_size_and_mtime_is_still_seen(live: Live) -> None:
    """`cp -p` and `rsync -t` restore mtime; ctime and inode still tell."""
    before = _definition_of_total_area(live)
    live.run(live.pool.document_symbols(SHAPES))  # SHAPES open, REPORT open: both paths
    for name in (SHAPES, REPORT):
        path = live.root / name
        old = path.stat()
        text = path.read_text(encoding="utf-8")
        path.write_text(text.replace("total_area", "area_total"), encoding="utf-8")
        os.utime(path, ns=(old.st_atime_ns, old.st_mtime_ns))
        assert path.stat().st_size == old.st_size
        assert path.stat().st_mtime_ns == old.st_mtime_ns
    found = live.run(live.pool.workspace_symbols("area_total"))
    assert ("area_total", SHAPES) in {(s.name, s.location.path) for s in found}
    line, col = position_of(live.root, REPORT, "area_total", after="return")
    assert _places(live.run(live.pool.definition(REPORT, line, col))) == before


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
