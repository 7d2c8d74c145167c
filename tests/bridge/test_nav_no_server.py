"""Honest limits: a nav_* question about a file whose language the map reads but no
server here serves answers in one line which map commands answer instead, never empty."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lsp import Catalog, examine
from tests.adversarial.cli import Done
from tests.bridge.test_cli import run_cli
from tests.conftest import FIXTURES, require_binary

FIXTURE = FIXTURES / "map_languages"
NO_SERVER = {
    "ruby": "rb/lib/shop/checkout.rb",
    "csharp": "cs/Shop/Checkout.cs",
    "kotlin": "kt/com/acme/shop/Checkout.kt",
    "swift": "swift/Shop/Checkout.swift",
    "scala": "scala/acme/shop/Checkout.scala",
    "lua": "lua/shop/checkout.lua",
}
"""A file of each language no server in the catalog serves."""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    copied = tmp_path / "repo"
    shutil.copytree(FIXTURE, copied)
    (copied / "rs").mkdir()
    (copied / "rs" / "lib.rs").write_text("pub fn total() -> i32 {\n    1\n}\n")
    return copied


def _one_line_pointing_at_the_map(result: Done, code: str = "no_server") -> str:
    error = result.json()["error"]
    assert error["code"] == code
    message: str = error["message"]
    assert "\n" not in message
    # the CLI names its own commands where an MCP client reads map_outline, map_neighbors
    assert "codeanchor map show" in message and "codeanchor map callers" in message, message
    assert "map_" not in message
    return message


@pytest.mark.parametrize("language", sorted(NO_SERVER))
@pytest.mark.parametrize("command", [("symbols",), ("callers",), ("def",)])
def test_a_language_without_a_server_names_the_map_tools(
    capsys: pytest.CaptureFixture[str], root: Path, language: str, command: tuple[str, ...]
) -> None:
    path = NO_SERVER[language]
    target = path if command == ("symbols",) else f"{path}:2"
    result = run_cli(capsys, root, "nav", *command, target, "--json")
    assert result.code == 1
    line = _one_line_pointing_at_the_map(result)
    assert f"no {language} language server here" in line


def test_rust_without_rust_analyzer_names_the_map_tools(
    capsys: pytest.CaptureFixture[str], root: Path
) -> None:
    if any(r.name == "rust-analyzer" and r.found for r in examine(Catalog.builtin())):
        pytest.skip("rust-analyzer is installed here")
    result = run_cli(capsys, root, "nav", "symbols", "rs/lib.rs", "--json")
    assert result.code == 1
    line = _one_line_pointing_at_the_map(result)
    assert "no rust language server: rust-analyzer" in line


@pytest.mark.parametrize(
    "question", [("workspace-symbols", "total"), ("refs", "rs/lib.rs:1", "--name", "total")]
)
def test_every_question_says_no_server_the_same_way(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, question: tuple[str, ...]
) -> None:
    """Asked of the one language a workspace has, with no server for it, workspace
    symbols says `no_server` with the install line, as references does (not a
    `server_error` to ask again)."""
    if any(r.name == "rust-analyzer" and r.found for r in examine(Catalog.builtin())):
        pytest.skip("rust-analyzer is installed here")
    (tmp_path / "rs").mkdir()
    (tmp_path / "rs" / "lib.rs").write_text("pub fn total() -> i32 {\n    1\n}\n")
    result = run_cli(capsys, tmp_path, "nav", *question, "--json")
    assert result.code == 1
    error = result.json()["error"]
    assert error["code"] == "no_server"
    assert "rust-analyzer" in error["hint"]


@pytest.mark.parametrize(
    ("server", "fixture", "target"),
    [
        ("intelephense", "php_app", "src/Cart.php:12"),
        ("bash-language-server", "sh_app", "lib/cart.sh:3"),
    ],
)
def test_callers_from_a_server_without_a_call_hierarchy_name_the_map_tools(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, server: str, fixture: str, target: str
) -> None:
    require_binary(server)
    copied = tmp_path / fixture
    shutil.copytree(FIXTURES / fixture, copied)
    result = run_cli(capsys, copied, "nav", "callers", target, "--json")
    assert result.code == 1
    line = _one_line_pointing_at_the_map(result, "unsupported_query")
    assert f"{server} does not support textDocument/prepareCallHierarchy" in line
