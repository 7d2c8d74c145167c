"""The memory store on untrusted ground: other programs' databases, broken files, odd paths.

A SQLite file that is not ours (another application id, or tables that are
not a memory store's) is refused and left byte for byte as it was, even by
the command that only reads; our own stores from before the application id
are adopted. A `--store` that cannot be a store (a directory, a kernel file,
an unwritable place, random bytes, a truncated database) is a one-line
error with exit 2 (CLI) or the error envelope (MCP), and nothing is written.
Every command runs in its own process; MCP through a real stdio client.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import orjson
import pytest
from mcp import Client, StdioServerParameters

from memory.schema import APPLICATION_ID
from tests.adversarial.cli import REPO, cli, tree, unprivileged
from tests.adversarial.conftest import CODE, SCENARIO_TIMEOUT_S
from tests.bridge.mcp_session import CALL_TIMEOUT_S
from tests.memory.conftest import GIT_ENV, Repo


def _add(repo: Repo, store: Path | str, text: str = "area multiplies") -> str:
    done = cli(
        repo.root, "memory", "add", "--text", text, "--ref", "shapes.py#area",
        "--store", str(store), "--json", env=GIT_ENV,
    )  # fmt: skip
    assert done.code == 0, done.err
    return str(done.json()["id"])


def _list(repo: Repo, store: Path | str) -> list[str]:
    done = cli(repo.root, "memory", "list", "--store", str(store), "--json")
    assert done.code == 0, done.err
    return [m["id"] for m in done.json()["memories"]]


def _pragma(db: Path, name: str) -> int:
    with closing(sqlite3.connect(f"{db.as_uri()}?mode=ro", uri=True)) as conn:
        return int(conn.execute(f"PRAGMA {name}").fetchone()[0])


# --------------------------------------------------------------- other programs' files


def _tables_of_another_program(db: Path) -> None:
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
        conn.execute("INSERT INTO invoices (total) VALUES (12.5)")
        conn.commit()


def _id_of_another_program(db: Path) -> None:
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("PRAGMA application_id = 1234")
        conn.commit()


def _memories_table_of_another_program(db: Path) -> None:
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE memories (id TEXT, text TEXT)")
        conn.execute("PRAGMA user_version = 1")
        conn.commit()


@pytest.mark.parametrize(
    "make",
    [_tables_of_another_program, _id_of_another_program, _memories_table_of_another_program],
    ids=["other-tables-wal", "other-application-id", "a-table-named-memories"],
)
@pytest.mark.parametrize("command", ["list", "add"])
def test_another_programs_database_is_refused_and_left_untouched(
    shapes: Repo, tmp_path: Path, make: Callable[[Path], None], command: str
) -> None:
    folder = tmp_path / "theirs"
    folder.mkdir()
    db = folder / "app.db"
    make(db)
    before = tree(folder)
    args = ["--text", "x", "--ref", "shapes.py#area"] if command == "add" else []
    done = cli(shapes.root, "memory", command, *args, "--store", str(db), env=GIT_ENV)
    assert "not a codeanchor memory store" in done.refused()
    assert tree(folder) == before  # the same bytes, and no -wal or -shm beside them


def test_our_store_from_before_the_application_id_is_adopted(shapes: Repo, tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    first = _add(shapes, db)
    with closing(sqlite3.connect(db)) as conn:  # as a codeanchor of before wrote it
        conn.execute("PRAGMA application_id = 0")
        conn.commit()
    assert _list(shapes, db) == [first]
    second = _add(shapes, db, "perimeter adds")
    assert _list(shapes, db) == [first, second]
    assert _pragma(db, "application_id") == APPLICATION_ID


def test_a_new_store_says_it_is_ours(shapes: Repo, tmp_path: Path) -> None:
    db = tmp_path / "memory.db"
    _add(shapes, db)
    assert _pragma(db, "application_id") == APPLICATION_ID


# --------------------------------------------------------------- paths that cannot be stores


@pytest.fixture
def open_dir() -> Iterator[Path]:
    """A folder any user may enter (tmp_path is private to its owner)."""
    with tempfile.TemporaryDirectory(prefix="codeanchor-adv-") as name:
        folder = Path(name)
        folder.chmod(0o755)
        yield folder


def _random_bytes(folder: Path) -> Path:
    target = folder / "memory.db"
    target.write_bytes(os.urandom(8192))
    return target


def _truncated(folder: Path, repo: Repo) -> Path:
    target = folder / "memory.db"
    lines = folder / "notes.jsonl"
    note = {"refs": ["shapes.py#area"], "text": "padding " * 600}
    lines.write_bytes(b"\n".join(orjson.dumps(note) for _ in range(12)))
    done = cli(repo.root, "memory", "import", str(lines), "--store", str(target), env=GIT_ENV)
    assert done.code == 0, done.err
    lines.unlink()
    data = target.read_bytes()
    for side in (Path(f"{target}-wal"), Path(f"{target}-shm")):
        side.unlink(missing_ok=True)
    target.write_bytes(data[: len(data) // 2])
    return target


@pytest.mark.parametrize("command", ["list", "add"])
@pytest.mark.parametrize("kind", ["directory", "proc", "random-bytes", "truncated"])
def test_a_store_path_that_cannot_be_a_store_is_refused(
    shapes: Repo, tmp_path: Path, command: str, kind: str
) -> None:
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    if kind == "directory":
        store = folder
    elif kind == "proc":
        store = Path(f"/proc/self/{command}.db")
    elif kind == "random-bytes":
        store = _random_bytes(folder)
    else:
        store = _truncated(folder, shapes)
    before = tree(folder)
    args = ["--text", "x", "--ref", "shapes.py#area"] if command == "add" else []
    done = cli(shapes.root, "memory", command, *args, "--store", str(store), env=GIT_ENV)
    done.refused()
    assert tree(folder) == before
    assert not (shapes.root / ".codeanchor").exists()


def test_an_unwritable_store_place_is_refused(open_dir: Path) -> None:
    prefix = unprivileged()
    if prefix is None:
        pytest.skip("running as root without setpriv: nothing is unwritable")
    root = open_dir / "work"
    root.mkdir()
    (root / "shapes.py").write_text(CODE)
    locked = open_dir / "locked"
    locked.mkdir(mode=0o555)
    for store in (locked / "memory.db", locked / "deeper" / "memory.db"):
        done = cli(
            root, "memory", "add", "--text", "x", "--ref", "shapes.py#area",
            "--store", str(store), prefix=prefix,
        )  # fmt: skip
        done.refused()
    assert list(locked.iterdir()) == []


# --------------------------------------------------------------- MCP


def test_mcp_answers_a_bad_store_with_the_error_envelope_and_keeps_serving(
    shapes: Repo, tmp_path: Path
) -> None:
    bad = _random_bytes(tmp_path)
    before = bad.read_bytes()
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "bridge.cli", "serve", "--root", str(shapes.root)],
        cwd=str(REPO),
        env={**os.environ, **GIT_ENV, "CODEANCHOR_STORE": str(bad)},
    )

    async def scenario() -> list[dict[str, object]]:
        errors = []
        async with Client(params, read_timeout_seconds=CALL_TIMEOUT_S) as client:
            for tool, arguments in (
                ("memory_save", {"text": "x", "refs": ["shapes.py#area"]}),
                ("memory_check", {}),
                ("memory_recall", {"query": "area"}),
            ):
                result = await client.call_tool(tool, arguments)
                assert result.is_error
                envelope = orjson.loads(result.content[0].text)  # type: ignore[union-attr]
                assert envelope["ok"] is False
                errors.append(envelope["error"])
        return errors

    errors = asyncio.run(asyncio.wait_for(scenario(), SCENARIO_TIMEOUT_S))
    assert [e["code"] for e in errors] == ["bad_store"] * 3
    assert all("not a SQLite database" in str(e["message"]) and e["hint"] for e in errors)
    assert bad.read_bytes() == before
