"""Python src layouts and namespace packages, resolved by every Python server.

tests/fixtures/py_src keeps its package under src/ (srcpkg, re-exporting its
core from __init__) and a namespace package without any __init__.py (nsplug);
the tests folder imports both as an installed project would. Neither ty nor
pyright needs configuration for this: both add src/ to their search paths.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.lsp.conftest import PYTHON_SERVERS, Live, open_live
from tests.lsp.realserver import PATIENT, Spot, places

CORE = "src/srcpkg/core.py"
LOUD = "src/nsplug/greeters/loud.py"
TESTS = "tests/test_greet.py"


@pytest.fixture(scope="module", params=PYTHON_SERVERS)
def live(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Live]:
    dest = tmp_path_factory.mktemp(f"py_src_{request.param}")
    with open_live("py_src", dest, server=request.param, settings=PATIENT) as live:
        yield live


def test_an_import_of_a_src_layout_package_leads_to_its_definition(live: Live) -> None:
    found = live.run(live.pool.definition(*Spot(TESTS, "greet", after="assert").at(live.root)))
    assert places(found) == {Spot(CORE, "greet").place(live.root)}


def test_an_import_of_a_namespace_package_leads_to_its_definition(live: Live) -> None:
    found = live.run(
        live.pool.definition(*Spot(TESTS, "shout", after="assert shout").at(live.root))
    )
    assert places(found) == {Spot(LOUD, "shout", after="def ").place(live.root)}


def test_references_reach_the_tests_the_namespace_package_and_the_reexport(live: Live) -> None:
    found = places(live.run(live.pool.references(*Spot(CORE, "greet").at(live.root))))
    expected = {
        Spot(CORE, "greet").place(live.root),
        Spot("src/srcpkg/__init__.py", "greet").place(live.root),
        Spot(LOUD, "greet").place(live.root),
        Spot(LOUD, "greet", after="return").place(live.root),
        Spot(TESTS, "greet", after="srcpkg.core").place(live.root),
        Spot(TESTS, "greet", after="assert").place(live.root),
        Spot(TESTS, "greet", after="srcpkg.").place(live.root),
    }
    assert expected <= found
    assert {path for path, _ in found} == {path for path, _ in expected}
