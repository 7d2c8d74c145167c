"""What a one-shot command loads before it does anything: a user waits for it.

`codeanchor --help` and every `<command> --help` build only the parser: no MCP
SDK, no LSP client, no graph library, no database driver. Commands that ask
no language server (`map status`, `memory recall`, `memory list`) run without
the MCP SDK or the LSP client (pygls, lsprotocol). `map build`, which a git hook
or a script runs after every edit, loads the map and nothing else of ours: no
event loop, no answer models, no memory store; and what the map answers from its
store (a no-op build, `map status`, `map search`) loads no graph library. Each
command runs in a fresh interpreter, which reports the packages it loaded.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import get_args

import orjson
import pytest

from bridge.cli.main import COMMANDS
from tests.bridge.mcp_session import example_repo

REPO = Path(__file__).resolve().parents[2]
TIMEOUT_S = 120.0
SERVERS = {"mcp", "mcp_types", "lsprotocol", "pygls"}
"""The MCP SDK and the LSP client: only for `serve` and the commands that ask a server."""
HEAVY = SERVERS | {"networkx", "psycopg", "pydantic", "tree_sitter", "rich", "rapidfuzz"}
"""Everything `--help` has no use for."""
BEYOND_THE_MAP = SERVERS | {
    "asyncio", "pydantic", "rich", "rapidfuzz", "watchfiles", "psycopg", "memory", "verify",
}  # fmt: skip
"""What `map build --json` has no use for: it runs no event loop, publishes no schema,
draws no bar, reads no memory, checks nothing live."""
CHILD = """
import sys
import orjson
from bridge.cli.main import main
report, words = sys.argv[1], sys.argv[2:]
try:
    code = main(words)
except SystemExit as exit:
    code = exit.code
with open(report, "wb") as out:
    out.write(orjson.dumps({"code": code, "modules": sorted(sys.modules)}))
"""


def loaded(tmp_path: Path, *words: str) -> tuple[int, set[str]]:
    """Run `codeanchor WORDS` in a fresh interpreter: its exit code and the top-level
    packages it imported."""
    report = tmp_path / "report.json"
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(report), *words],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert report.exists(), done.stderr
    result = orjson.loads(report.read_bytes())
    return result["code"], {name.split(".")[0] for name in result["modules"]}


def test_help_lists_every_command_and_loads_nothing_heavy(tmp_path: Path) -> None:
    code, packages = loaded(tmp_path, "--help")
    assert code == 0
    assert packages & HEAVY == set()
    done = subprocess.run(
        [sys.executable, "-m", "bridge.cli", "--help"],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        cwd=REPO,
    )
    assert all(command.name in done.stdout for command in COMMANDS), done.stdout


@pytest.mark.parametrize(
    "words",
    [
        ("nav", "refs", "--help"),
        ("resolve", "--help"),
        ("map", "status", "--help"),
        ("memory", "recall", "--help"),
        ("serve", "--help"),
        ("doctor", "--help"),
        ("trust", "--help"),
    ],
    ids=" ".join,
)
def test_command_help_loads_no_server_client(tmp_path: Path, words: tuple[str, ...]) -> None:
    code, packages = loaded(tmp_path, *words)
    assert code == 0
    assert packages & SERVERS == set()


def test_commands_that_ask_no_server_load_no_server_client(tmp_path: Path) -> None:
    root = example_repo(tmp_path, watch=False)
    at = ("--root", str(root), "--json")
    saved, _ = loaded(tmp_path, "memory", "add", "--text", "prices", "--ref", "shop/cart.py", *at)
    assert saved == 0
    for words in (("map", "status"), ("memory", "recall", "prices"), ("memory", "list")):
        code, packages = loaded(tmp_path, *words, *at)
        assert code == 0, words
        assert packages & SERVERS == set(), words


def test_map_build_loads_only_the_map(tmp_path: Path) -> None:
    """Built from scratch, then again after a one-file edit; with nothing changed,
    not even the graph library."""
    root = example_repo(tmp_path, watch=False)
    edited = root / "shop" / "cart.py"
    for edit in ("", "\n\ndef fresh_name():\n    pass\n", ""):
        edited.write_text(edited.read_text() + edit)
        code, packages = loaded(tmp_path, "map", "build", "--root", str(root), "--json")
        assert code == 0
        assert packages & BEYOND_THE_MAP == set()
    assert "networkx" not in packages


def test_answers_from_the_store_load_no_graph_library(tmp_path: Path) -> None:
    """`map status` and `map search` answer from the store: networkx stays unloaded."""
    root = example_repo(tmp_path, watch=False)
    at = ("--root", str(root), "--json")
    assert loaded(tmp_path, "map", "build", *at)[0] == 0
    for words in (("map", "status"), ("map", "search", "Cart")):
        code, packages = loaded(tmp_path, *words, *at)
        assert code == 0, words
        assert "networkx" not in packages, words


@pytest.mark.parametrize(
    "words", [("map", "status", "--help"), ("map", "search", "--help")], ids=" ".join
)
def test_map_help_loads_nothing_heavy(tmp_path: Path, words: tuple[str, ...]) -> None:
    """The map's tools, graph library and answer models load when a command runs."""
    code, packages = loaded(tmp_path, *words)
    assert code == 0
    assert packages & HEAVY == set()


def test_map_search_offers_every_node_kind() -> None:
    """`--kind` lists the kinds of the answer contract, built without loading it."""
    from bridge.cli.map import KINDS
    from bridge.contract.map_shapes import NodeKind

    assert set(KINDS) == {k for part in get_args(NodeKind) for k in get_args(part)}


def test_the_mcp_server_starts_without_the_lsp_client() -> None:
    """`serve` answers map questions before any language server starts: building its
    tools loads neither pygls nor lsprotocol (about 17 MB and 0.3 s at every start)."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, bridge.server.mcp_server; print(' '.join(sys.modules))",
        ],
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 0, done.stderr
    packages = {name.split(".")[0] for name in done.stdout.split()}
    assert "mcp" in packages
    assert packages & {"lsprotocol", "pygls"} == set()
