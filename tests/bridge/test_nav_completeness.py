"""Nav answers primed by the candidate scan and checked against it, on real servers.

TypeScript (through a real MCP client): tests outside every tsconfig `include`
(tests/fixtures/ts_outside, laid out like ky). Python (ty and pyright) and C
(clangd, with its generated compilation database and without any): a file
never opened that calls the function, and a comment that names it; PHP
(intelephense) and Bash (bash-language-server) alike. Go (gopls):
implementations, and a same-name method of a type that is no implementation.
"""

from __future__ import annotations

import asyncio
import dataclasses
import shutil
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bridge.context import AppContext
from bridge.tools.nav import nav_callers, nav_implementations, nav_references
from tests.bridge.mcp_session import call, serve
from tests.conftest import FIXTURES, require_binary
from tests.lsp.conftest import PYTHON_SERVERS, line_of

SCENARIO_TIMEOUT_S = 240.0
DELAY = "source/utils/delay.ts"
MERGE = "source/utils/merge.ts"
HELPERS = "test/helpers.ts"


def _copy(fixture: str, dest: Path) -> Path:
    root = dest / fixture
    shutil.copytree(FIXTURES / fixture, root)
    return root


def _run(scenario: Callable[[], Awaitable[None]]) -> None:
    async def bounded() -> None:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S):
            await scenario()

    asyncio.run(bounded())


def _places(items: list[dict[str, Any]]) -> set[tuple[str, int]]:
    return {(item["path"], item["line"]) for item in items}


def _call_places(callers: list[dict[str, Any]]) -> set[tuple[str, int]]:
    return {(c["path"], line) for c in callers for line in c["callLines"]}


def test_typescript_answers_include_tests_outside_tsconfig_and_say_how_complete(
    tmp_path: Path,
) -> None:
    require_binary("typescript-language-server")
    root = _copy("ts_outside", tmp_path)
    delay_test = "test/delay.test.ts"
    merge_test = "test/merge.test.ts"

    async def scenario() -> None:
        async with serve(root) as client:
            # The session's first question: the test file was never opened.
            refs = await call(client, "nav_references", target=f"{DELAY}:2", name="retryDelay")
            data = refs["data"]
            uses = {
                (delay_test, line_of(root, delay_test, needle)) for needle in ("import", "(1) ===")
            }
            assert uses | {(delay_test, line_of(root, delay_test, "(3)"))} <= _places(
                data["locations"]
            )
            assert data["completeness"] == "complete", data["completenessReasons"]
            assert data["unconfirmed"] == []
            assert data["priming"]["filesOpened"] >= 1
            assert data["priming"]["capHit"] is False

            # A comment and a same-name helper are weighed and listed apart; the server was
            # right to leave them out, so the answer stays complete.
            refs = await call(client, "nav_references", target=f"{MERGE}:4", name="mergeHeaders")
            data = refs["data"]
            assert (merge_test, line_of(root, merge_test, "const merged")) in _places(
                data["locations"]
            )
            assert HELPERS not in {loc["path"] for loc in data["locations"]}
            assert data["completeness"] == "complete", data["completenessReasons"]
            assert {(u["path"], u["line"], u["seenAs"]) for u in data["unconfirmed"]} == {
                (HELPERS, 1, "mention"),
                (HELPERS, 2, "definition"),
            }
            assert not any("partial answer" in w for w in refs["warnings"])

            # Callers in the tests: tsserver's call hierarchy never names them itself.
            callers = await call(client, "nav_callers", target=f"{MERGE}:4", name="mergeHeaders")
            data = callers["data"]
            assert {c["name"] for c in data["callers"]} == {"request", "testExtraWins", "testEmpty"}
            assert (merge_test, line_of(root, merge_test, "const merged")) in _call_places(
                data["callers"]
            )
            assert data["completeness"] == "complete", data["completenessReasons"]

    _run(scenario)


def _python_repo(dest: Path) -> Path:
    root = _copy("py_app", dest)
    (root / "app" / "totals.py").write_text(
        "from app.shapes import Square, total_area\n\n\n"
        "def grand_total() -> float:\n"
        "    # total_area over one unit square\n"
        "    return total_area([Square(1.0)])\n",
        encoding="utf-8",
    )
    return root


def _ask(
    root: Path,
    tool: Callable[..., Awaitable[Any]],
    target: str,
    *,
    name: str | None = None,
    patch: Callable[[AppContext], None] | None = None,
) -> dict[str, Any]:
    async def ask() -> dict[str, Any]:
        app = AppContext(root)
        if patch is not None:
            patch(app)
        try:
            async with asyncio.timeout(SCENARIO_TIMEOUT_S):
                envelope = await tool(app, target, name)
            data: dict[str, Any] = envelope["data"]
            return data
        finally:
            await app.aclose()

    return asyncio.run(ask())


@pytest.mark.parametrize("server", PYTHON_SERVERS)
def test_python_references_reach_a_file_never_opened_and_list_a_comment_apart(
    tmp_path: Path, server: str
) -> None:
    require_binary(server)
    root = _python_repo(tmp_path)
    (root / "codeanchor.toml").write_text(f'servers = {{ python = "{server}" }}\n')
    data = _ask(root, nav_references, "app/shapes.py#total_area")
    totals = "app/totals.py"
    assert (totals, line_of(root, totals, "return total_area")) in _places(data["locations"])
    assert data["completeness"] == "complete", data["completenessReasons"]
    assert [(u["path"], u["line"], u["source"]) for u in data["unconfirmed"]] == [
        (totals, line_of(root, totals, "# total_area"), "text")
    ]
    assert data["priming"] is None  # this server searches the whole workspace itself


@pytest.mark.parametrize("server", PYTHON_SERVERS)
def test_python_callers_that_all_agree_are_complete(tmp_path: Path, server: str) -> None:
    require_binary(server)
    root = _python_repo(tmp_path)
    (root / "codeanchor.toml").write_text(f'servers = {{ python = "{server}" }}\n')
    data = _ask(root, nav_callers, "app/shapes.py#total_area")
    assert {c["name"] for c in data["callers"]} == {"build_report", "grand_total"}
    assert data["completeness"] == "complete", data["completenessReasons"]
    assert data["crossCheck"]["candidateSites"] == 2


def _c_repo(dest: Path) -> Path:
    root = _copy("c_app", dest)
    (root / "src" / "cube.c").write_text(
        '#include "geometry.h"\n\n'
        "/* cube(v) is v times square(v) */\n"
        "int cube(int v) {\n"
        "  return v * square(v);\n"
        "}\n",
        encoding="utf-8",
    )
    return root


def _without_compilation_database(app: AppContext) -> None:
    clangd = app.catalog.servers["clangd"]
    plain = dataclasses.replace(clangd, compile_commands_arg="")
    app.catalog = app.catalog.with_overrides({}, {"clangd": plain})


@pytest.mark.parametrize("database", ["generated", "none"])
def test_c_references_reach_a_file_never_opened(tmp_path: Path, database: str) -> None:
    require_binary("clangd")
    root = _c_repo(tmp_path)
    patch = _without_compilation_database if database == "none" else None
    data = _ask(root, nav_references, "src/geometry.c#square", patch=patch)
    cube = ("src/cube.c", line_of(root, "src/cube.c", "return v * square"))
    assert cube in _places(data["locations"])
    assert data["completeness"] == "complete", data["completenessReasons"]
    assert {(u["path"], u["source"]) for u in data["unconfirmed"]} == {
        ("src/cube.c", "text"),
        ("include/geometry.h", "text"),
    }
    if database == "none":
        # Only the queried file was open: the others were opened for the question.
        assert data["priming"]["filesOpened"] >= 1


def test_go_implementations_list_a_same_name_method_of_another_shape_apart(
    tmp_path: Path,
) -> None:
    require_binary("gopls")
    root = _copy("go_app", tmp_path)
    shapes = "shapes/shapes.go"
    interface_line = line_of(root, shapes, "Area() float64")
    found = _ask(root, nav_implementations, f"{shapes}:{interface_line}", name="Area")
    assert _places(found["locations"]) == {
        (shapes, line_of(root, shapes, "func (c Circle) Area")),
        (shapes, line_of(root, shapes, "func (s Square) Area")),
    }
    assert found["completeness"] == "complete", found["completenessReasons"]

    (root / "shapes" / "label.go").write_text(
        "package shapes\n\n// Label is no Shape: its Area is a name.\n"
        "type Label struct{}\n\n"
        'func (l Label) Area() string {\n\treturn "A1"\n}\n',
        encoding="utf-8",
    )
    found = _ask(root, nav_implementations, f"{shapes}:{interface_line}", name="Area")
    assert "shapes/label.go" not in {loc["path"] for loc in found["locations"]}
    assert found["completeness"] == "partial"
    assert [(u["path"], u["seenAs"]) for u in found["unconfirmed"]] == [
        ("shapes/label.go", "definition")
    ]


@dataclasses.dataclass(frozen=True)
class _Fresh:
    """A fixture, and a file written into it that the server never opened: it calls
    `target`'s function (at the line holding `call`) and names it in a comment."""

    server: str
    fixture: str
    path: str
    text: str
    target: str
    call: str
    comment: str
    other: tuple[str, str]
    """Another file that calls it, and the text of its call's line."""


FRESH = (
    _Fresh(
        "intelephense",
        "php_app",
        "src/Totals.php",
        "<?php\nnamespace App;\n\n// make_cart gives an empty cart to total\n"
        "function grand_total(): int\n{\n    return make_cart()->total([1, 2]);\n}\n",
        "src/Cart.php#make_cart",
        "return make_cart",
        "// make_cart",
        ("src/Checkout.php", "make_cart()"),
    ),
    _Fresh(
        "bash-language-server",
        "sh_app",
        "report.sh",
        "#!/usr/bin/env bash\nsource ./lib/cart.sh\n\n# cart_total counts what it is given\n"
        "report() {\n  cart_total 4 5\n}\n",
        "lib/cart.sh#cart_total",
        "  cart_total",
        "# cart_total",
        ("checkout.sh", "  cart_total"),
    ),
)


@pytest.mark.parametrize("case", FRESH, ids=lambda case: case.server)
def test_references_reach_a_file_never_opened_and_list_a_comment_apart(
    tmp_path: Path, case: _Fresh
) -> None:
    # PHP and Bash: each server indexes the whole workspace itself (nothing primed)
    require_binary(case.server)
    root = _copy(case.fixture, tmp_path)
    (root / case.path).write_text(case.text, encoding="utf-8")
    data = _ask(root, nav_references, case.target)
    other, needle = case.other
    assert _places(data["locations"]) >= {
        (case.path, line_of(root, case.path, case.call)),
        (other, line_of(root, other, needle)),
    }
    assert data["completeness"] == "complete", data["completenessReasons"]
    assert [(u["path"], u["line"], u["source"]) for u in data["unconfirmed"]] == [
        (case.path, line_of(root, case.path, case.comment), "text")
    ]
    assert data["priming"] is None
