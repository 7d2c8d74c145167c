"""nav_workspace_symbols asks the languages the workspace has, and ranks exact names first.

Through a real MCP stdio client, with real ty and typescript-language-server.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from bridge.tools.symbol_search import EXACT, FUZZY, match_rank
from lsp.errors import ServerRequestError
from tests.adversarial.cli import cli
from tests.bridge.mcp_session import call, call_error, example_repo, serve
from tests.conftest import FIXTURES, require_binary
from verify import live_failure

SCENARIO_TIMEOUT_S = 180.0
PYTHON_HELPERS = """\
def total_area(sizes):
    return sum(area(s) for s in sizes)


def area_of(size):
    return area(size)
"""
PYTHON_SHAPES = "def area(size):\n    return size * size\n"


def _repo(tmp_path: Path, *, python: bool) -> Path:
    """A TypeScript project (tests/fixtures/ts_app), with Python files beside it if asked."""
    require_binary("typescript-language-server")
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "ts_app", root)
    (root / "codeanchor.toml").write_text("watch = false\n")
    if python:
        require_binary("ty")
        (root / "a_helpers.py").write_text(PYTHON_HELPERS)
        (root / "z_shapes.py").write_text(PYTHON_SHAPES)
    return root


def _ask(root: Path, **arguments: object) -> dict[str, object]:
    async def scenario() -> dict[str, object]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(root) as client:
            return await call(client, "nav_workspace_symbols", **arguments)

    return asyncio.run(scenario())


def test_a_typescript_repository_is_asked_as_typescript_by_default(tmp_path: Path) -> None:
    envelope = _ask(_repo(tmp_path, python=False), query="area")
    data = envelope["data"]
    assert isinstance(data, dict)
    assert data["languages"] == ["typescript"]
    names = [s["name"] for s in data["symbols"]]
    assert names[:3] == ["area", "area", "area"] and "totalArea" in names
    assert envelope["warnings"] == []


def test_every_language_answers_and_exact_names_come_first(tmp_path: Path) -> None:
    envelope = _ask(_repo(tmp_path, python=True), query="area")
    data = envelope["data"]
    assert isinstance(data, dict)
    assert sorted(data["languages"]) == ["python", "typescript"]
    found = [(s["name"], s["path"]) for s in data["symbols"]]
    assert ("area", "z_shapes.py") in found and ("area", "src/shapes.ts") in found
    ranks = [match_rank("area", name) for name, _ in found]
    assert ranks == sorted(ranks) and ranks[0] == EXACT
    # the prefix match before the substring ones, whatever order the servers gave
    assert found.index(("area_of", "a_helpers.py")) < found.index(("total_area", "a_helpers.py"))


def test_the_cli_asks_the_workspace_languages_by_default(tmp_path: Path) -> None:
    done = cli(_repo(tmp_path, python=False), "nav", "workspace-symbols", "area", "--json")
    assert done.code == 0, done.err
    data = done.json()["data"]
    assert data["languages"] == ["typescript"] and data["symbols"][0]["name"] == "area"


def test_asking_a_language_the_workspace_lacks_says_so(tmp_path: Path) -> None:
    require_binary("ty")
    envelope = _ask(_repo(tmp_path, python=False), query="area", language="python")
    warnings = envelope["warnings"]
    assert isinstance(warnings, list)
    assert any("no python source files" in w for w in warnings)


def test_a_server_error_is_one_clean_line(tmp_path: Path) -> None:
    """tsserver asked in a Python-only repository has no project: a one-line error."""
    require_binary("typescript-language-server")
    repo = example_repo(tmp_path, watch=False)

    async def scenario() -> dict[str, object]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo) as client:
            return await call_error(
                client, "nav_workspace_symbols", query="Cart", language="typescript"
            )

    error = asyncio.run(scenario())
    message = str(error["message"])
    assert "\n" not in message and " at " not in message
    assert "no typescript source files" in message
    assert "language" in str(error["hint"])


@pytest.mark.parametrize(
    ("name", "rank"),
    [
        ("area", EXACT),
        ("Area", EXACT),
        ("Square.area", EXACT),  # gopls names a method with its receiver type
        ("shapes::area", EXACT),
        ("area_of", 1),
        ("Square.area_of", 1),
        ("totalArea", 2),
        ("area.Square", 1),
        ("ar_ea", FUZZY),
    ],
)
def test_match_rank(name: str, rank: int) -> None:
    assert match_rank("area", name) == rank


def test_a_server_stack_trace_becomes_one_line() -> None:
    detail = (
        "1: <syntax> TypeScript Server Error (5.9.3)\nNo Project.\nError: No Project.\n"
        "    at Object.ThrowNoProject (/x/typescript.js:186170:11)\n"
        "    at process.processTicksAndRejections (node:internal:83:21)"
    )
    error = ServerRequestError("typescript-language-server", "workspace/symbol", detail)
    message = live_failure(error)
    assert "\n" not in message and " at " not in message
    assert message.endswith("TypeScript Server Error (5.9.3) No Project.")
