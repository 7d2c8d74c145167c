"""An answer's places feed the next question: workspace symbols give node IDs and
the line of the name, and a position on a decorator or doc comment targets the
definition below it. A real MCP client drives `codeanchor serve`; ty answers."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bridge.tools.targets import PositionTarget, to_lsp_position
from tests.bridge.mcp_session import call, serve
from tests.conftest import FIXTURES, require_binary, write_tree

SCENARIO_TIMEOUT_S = 180.0
SOURCES = {
    "codeanchor.toml": "watch = false\n",
    "shop/__init__.py": "",
    "shop/store.py": (
        "import functools\n"
        "\n"
        "\n"
        "class Store:\n"
        "    @classmethod\n"
        "    @functools.cache\n"
        "    def restock(cls, amount):\n"
        "        return amount\n"
        "\n"
        "\n"
        "# Opens the store for the day.\n"
        "def open_store():\n"
        "    return Store.restock(3)\n"
    ),
    "shop/use.py": "from shop.store import Store\n\n\ndef refill():\n    return Store.restock(1)\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_tree(tmp_path, SOURCES)


def _found_then_references(
    root: Path, query: str, pick: Callable[[dict[str, Any]], bool], language: str | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The workspace symbol `pick` chooses among those found for `query`, and the
    references asked at its `path:LINE` with its `name`, in one server session."""

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(root) as client:
            found = await call(client, "nav_workspace_symbols", query=query, language=language)
            (symbol,) = [s for s in found["data"]["symbols"] if pick(s)]
            refs = await call(
                client,
                "nav_references",
                target=f"{symbol['path']}:{symbol['line']}",
                name=symbol["name"],
            )
            return symbol, refs

    return asyncio.run(scenario())


def test_a_workspace_symbol_chains_into_references(repo: Path) -> None:
    require_binary("ty")
    symbol, refs = _found_then_references(repo, "restock", lambda s: s["name"] == "restock")
    assert (symbol["nodeId"], symbol["container"]) == ("shop/store.py#Store.restock", "Store")
    assert symbol["line"] == 7  # the name's line, not the first decorator's
    assert "def restock" in symbol["text"]
    lines = {(loc["path"], loc["line"]) for loc in refs["data"]["locations"]}
    assert {("shop/use.py", 5), ("shop/store.py", 13)} <= lines


def test_a_go_method_found_by_workspace_symbols_has_its_node_id_and_chains(
    tmp_path: Path,
) -> None:
    """gopls spells a method `Square.Area` with the package as its container: the answer
    gives the map's node ID, the receiver type as container and the name as written."""
    require_binary("gopls")
    root = tmp_path / "go_app"
    shutil.copytree(FIXTURES / "go_app", root)
    (root / "codeanchor.toml").write_text("watch = false\n")
    symbol, refs = _found_then_references(
        root, "Area", lambda s: s["container"] == "Square", language="go"
    )
    assert (symbol["nodeId"], symbol["name"]) == ("shapes/shapes.go#Square.Area", "Area")
    assert "func (s Square) Area()" in symbol["text"]
    assert refs["data"]["count"] >= 1


@pytest.mark.parametrize(
    ("line", "name", "expected"),
    [
        (5, None, (7, "restock")),  # @classmethod
        (6, "restock", (7, "restock")),  # @functools.cache, the name given
        (11, None, (12, "open_store")),  # the comment above a function
        (1, None, (1, "import")),  # an import is no definition's
    ],
)
def test_a_position_on_a_decorator_or_comment_targets_its_definition(
    repo: Path, line: int, name: str | None, expected: tuple[int, str]
) -> None:
    position = to_lsp_position(repo, PositionTarget("shop/store.py", line, name=name))
    text = (repo / "shop/store.py").read_text().splitlines()[position.line]
    assert (position.line + 1, text[position.character :].split("(")[0]) == (
        expected[0],
        expected[1] if expected[1] != "import" else "import functools",
    )
