"""Smoke tests of the Python servers one may choose besides ty and pyright
(docs/languages.md): basedpyright, pyrefly and jedi-language-server,
each a real server (scripts/setup.sh installs them) on the py_app fixture.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lsp.errors import UnsupportedQueryError
from lsp.model import DocumentSymbolNode
from tests.lsp.conftest import Live, line_of, open_live, position_of
from tests.lsp.realserver import PATIENT, places

SELECTABLE = ("basedpyright", "pyrefly", "jedi-language-server")
SHAPES = "app/shapes.py"
REPORT = "app/report.py"


@pytest.fixture(scope="module", params=SELECTABLE)
def live(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Live]:
    """One pool per selectable server over a copy of py_app (read-only tests)."""
    dest = tmp_path_factory.mktemp(f"py_app_{request.param}")
    with open_live("py_app", dest, server=request.param, settings=PATIENT) as pool:
        yield pool


def _call(live: Live) -> tuple[str, int, int]:
    return (REPORT, *position_of(live.root, REPORT, "total_area", after="return"))


def test_definition_of_a_call_in_another_module(live: Live) -> None:
    found = live.run(live.pool.definition(*_call(live)))
    assert places(found) == {(SHAPES, line_of(live.root, SHAPES, "def total_area"))}


def test_references_reach_the_other_module(live: Live) -> None:
    root = live.root
    line, col = position_of(root, SHAPES, "total_area", after="def ")
    found = places(live.run(live.pool.references(SHAPES, line, col)))
    assert (REPORT, line_of(root, REPORT, "total_area", after="return")) in found


def test_hover_shows_the_docstring(live: Live) -> None:
    hover = live.run(live.pool.hover(*_call(live)))
    assert hover is not None
    assert "total_area" in hover.contents and "The sum of the areas" in hover.contents


def test_the_outline_is_a_tree_of_the_file(live: Live) -> None:
    tree = live.run(live.pool.document_symbols(SHAPES))
    assert {"Shape", "Square", "total_area"} <= {node.name for node in tree}
    square: DocumentSymbolNode = next(node for node in tree if node.name == "Square")
    assert square.kind == "class"
    assert "area" in {child.name for child in square.children}


def test_workspace_symbols_find_a_function_by_name(live: Live) -> None:
    found = live.run(live.pool.workspace_symbols("total_area"))
    assert ("total_area", SHAPES) in {(s.name, s.location.path) for s in found}


def test_callers_or_a_clear_refusal(live: Live) -> None:
    """basedpyright and pyrefly name the caller; jedi-language-server has no call
    hierarchy, and says so (a server that gains it fails here, to be noted)."""
    line, col = position_of(live.root, SHAPES, "total_area", after="def ")
    incoming = live.pool.incoming_calls(SHAPES, line, col)
    if live.pool.catalog.choice["python"] == "jedi-language-server":
        with pytest.raises(UnsupportedQueryError, match="prepareCallHierarchy"):
            live.run(incoming)
        return
    callers = live.run(incoming)
    assert [(s.name, s.location.path) for s in callers] == [("build_report", REPORT)]
