"""Symlinks in an untrusted repository never carry a write or a read out of the root.

Writes: `.codeanchor` as a link, or a state file in it as a link, is refused
by `memory add` and `map build` (which still answers from a map in memory),
and the place it points at stays as it was. A build killed mid-save leaves a
temporary snapshot that the next build removes. Reads: a language server's
answer in a file reached through a symlinked directory is named by its real
path and marked external, never shown as an in-root path with its text.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from disk.errors import OutsideRootError
from disk.statedir import state_file
from lsp.convert import Converter
from tests.adversarial.cli import Done, cli, tree
from tests.adversarial.conftest import SCENARIO_TIMEOUT_S
from tests.bridge.mcp_session import call, call_error, serve
from tests.conftest import require_binary
from tests.map.killsave import kill_mid_save
from tests.memory.conftest import GIT_ENV, Repo


@pytest.fixture
def elsewhere(tmp_path: Path) -> Path:
    """A folder outside the root, holding one file of its own."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    (folder / "theirs.txt").write_text("not codeanchor's\n")
    return folder


# --------------------------------------------------------------- writes


def test_memory_add_refuses_a_state_folder_that_links_out(shapes: Repo, elsewhere: Path) -> None:
    (shapes.root / ".codeanchor").symlink_to(elsewhere, target_is_directory=True)
    before = tree(elsewhere)
    done = cli(shapes.root, "memory", "add", "--text", "x", "--ref", "shapes.py#area", env=GIT_ENV)
    assert "symlink" in done.refused()
    assert tree(elsewhere) == before


def test_memory_add_refuses_a_store_file_that_links_out(shapes: Repo, elsewhere: Path) -> None:
    victim = elsewhere / "victim"
    victim.write_bytes(b"")  # empty: SQLite would happily make it a database
    (shapes.root / ".codeanchor").mkdir()
    (shapes.root / ".codeanchor" / "memory.db").symlink_to(victim)
    before = tree(elsewhere)
    for command in (["add", "--text", "x", "--ref", "shapes.py#area"], ["list"]):
        done = cli(shapes.root, "memory", *command, env=GIT_ENV)
        assert "symlink" in done.refused()
    assert tree(elsewhere) == before


def test_map_build_writes_no_snapshot_through_a_linked_state_folder(
    shapes: Repo, elsewhere: Path
) -> None:
    (shapes.root / ".codeanchor").symlink_to(elsewhere, target_is_directory=True)
    before = tree(elsewhere)
    done = cli(shapes.root, "map", "build", "--json")
    assert done.code == 0, done.err
    assert done.json()["data"]["symbols"] == 1  # the map itself works, from memory
    assert "symlink" in done.err
    assert tree(elsewhere) == before


def test_serve_keeps_answering_and_writes_nothing_through_a_linked_state_folder(
    shapes: Repo, elsewhere: Path
) -> None:
    (shapes.root / ".codeanchor").symlink_to(elsewhere, target_is_directory=True)
    before = tree(elsewhere)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        async with serve(shapes.root) as client:
            refused = await call_error(client, "memory_save", text="x", refs=["shapes.py#area"])
            status = await call(client, "map_status")
            unsaved = await call_error(client, "map_rebuild")
            return refused, status, unsaved

    refused, status, unsaved = asyncio.run(asyncio.wait_for(scenario(), SCENARIO_TIMEOUT_S))
    assert refused["code"] == unsaved["code"] == "outside_root"
    assert "symlink" in refused["message"] and "symlink" in unsaved["message"]
    assert status["data"]["files"] == 1  # the map works, from memory
    assert tree(elsewhere) == before


def test_a_state_file_behind_a_linked_folder_inside_codeanchor_is_refused(
    tmp_path: Path, elsewhere: Path
) -> None:
    root = tmp_path / "root"
    root.mkdir()
    assert state_file(root, "clangd/compile_commands.json").parent.is_dir() is False
    (root / ".codeanchor" / "clangd").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(OutsideRootError, match="symlink"):
        state_file(root, "clangd/compile_commands.json")


@pytest.fixture
def bigger(shapes: Repo) -> Iterator[Repo]:
    """The repository with enough code that a save takes a moment."""
    for n in range(40):
        body = "".join(f"def f{n}_{i}(x):\n    return x + {i}\n\n" for i in range(50))
        shapes.write(f"pkg/m{n}.py", body)
    yield shapes


def test_map_build_after_a_killed_save_uses_the_store_and_drops_old_snapshots(
    bigger: Repo,
) -> None:
    root = bigger.root
    folder = root / ".codeanchor"
    folder.mkdir()
    old = {"map.json", ".map.json.4242.abcd1234.tmp"}  # an earlier version's snapshot
    for name in old:
        (folder / name).write_bytes(b"{")
    notes = folder / ".map.json.notes"  # not one of ours
    notes.write_bytes(b"keep")
    built = cli(root, "map", "build", "--json")
    assert built.code == 0, built.err
    assert not any((folder / name).exists() for name in old) and notes.exists()
    kill_mid_save(root)
    done = cli(root, "map", "build", "--json")
    assert done.code == 0, done.err
    assert done.json()["data"]["changedCount"] == 0  # the store was whole: nothing re-extracted
    assert done.json()["data"]["symbols"] == built.json()["data"]["symbols"]


# --------------------------------------------------------------- reads

SECRET = 'TOKEN = "s3cr3t-0xC0FFEE"\n\n\ndef leak_0xc0ffee():\n    return TOKEN\n'
MAIN = "from linked.secret import leak_0xc0ffee\n\nleak_0xc0ffee()\nprint(len([]))\n"


def _locations(done: Done) -> list[dict[str, Any]]:
    assert done.code == 0, done.err
    found: list[dict[str, Any]] = done.json()["data"]["locations"]
    return found


def test_nav_never_shows_a_file_outside_the_root_under_an_in_root_path(
    tmp_path: Path,
) -> None:
    require_binary("ty")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text(SECRET)
    root = tmp_path / "root"
    root.mkdir()
    (root / "linked").symlink_to(outside, target_is_directory=True)
    (root / "main.py").write_text(MAIN)
    done = cli(root, "nav", "def", "main.py:3", "--name", "leak_0xc0ffee", "--json")
    assert _locations(done) == [
        {
            "path": str((outside / "secret.py").resolve()),
            "line": 4,
            "column": 5,
            "text": "",
            "external": True,
        }
    ]
    assert "0xC0FFEE" not in done.out
    # a library the server names outside the root: external too, with its line
    (library,) = _locations(cli(root, "nav", "def", "main.py:4", "--name", "len", "--json"))
    assert library["external"] is True and Path(library["path"]).is_absolute()
    assert library["text"].startswith("def len(")


def test_a_server_path_climbing_out_with_dot_dot_is_shown_where_it_really_is(
    tmp_path: Path,
) -> None:
    root = tmp_path / "root"
    (root / "pkg").mkdir(parents=True)
    (tmp_path / "secret.py").write_text(SECRET)
    climbing = f"{(root / 'pkg').as_uri()}/../../secret.py"
    start = types.Position(line=3, character=4)
    (found,) = Converter(root).locations(
        types.Location(uri=climbing, range=types.Range(start=start, end=start))
    )
    assert found.path == str((tmp_path / "secret.py").resolve())
