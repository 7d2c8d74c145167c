"""The store keeps every committed write, whatever happens to the writers."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import textwrap
from contextlib import closing
from dataclasses import replace
from pathlib import Path

import pytest

from memory.errors import MemoryInputError, UnknownMemoryError
from memory.model import Anchor, Memory, RefSpec
from memory.schema import SCHEMA_VERSION
from memory.store import MemoryStore

pytestmark = pytest.mark.store_specific  # the SQLite file itself; test_pg_store covers PostgreSQL

ROOT = Path(__file__).resolve().parents[3]
DEADLINE_S = 60

# A child process writing memories; "commit N" adds N, one transaction each,
# "hold N" inserts N inside one transaction, says so, and waits forever.
WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    sys.path.insert(0, sys.argv[1])
    from memory.model import Anchor, Memory, RefSpec
    from memory.store import MemoryStore

    def memory(name):
        anchor = Anchor(RefSpec("file", "a.py"), None, None, False, "h", "f", "h", "x")
        return Memory(name, "text " + name, "fact", (), "agent", "active", "t", (anchor,))

    store = MemoryStore(Path(sys.argv[2]))
    action, count, prefix = sys.argv[3], int(sys.argv[4]), sys.argv[5]
    if action == "commit":
        for i in range(count):
            store.add([memory(f"{prefix}-{i}")])
        print("done", flush=True)
    else:
        with store.transaction() as conn:
            store.insert(conn, [memory(f"{prefix}-{i}") for i in range(count)])
            print("holding", flush=True)
            sys.stdin.readline()
    """
)


def _writer(db: Path, action: str, count: int, prefix: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", WRITER, str(ROOT), str(db), action, str(count), prefix],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def _memory(memory_id: str) -> Memory:
    anchor = Anchor(RefSpec("file", "a.py"), "c0ffee", "main", False, "h", "f", "h", "x")
    return Memory(memory_id, "a note", "fact", ("t",), "human", "active", "t0", (anchor,))


def test_new_store_is_at_the_current_schema(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "m.db") as store:
        assert store.count() == 0
    with closing(sqlite3.connect(tmp_path / "m.db")) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_store_from_a_newer_codeanchor_is_refused(tmp_path: Path) -> None:
    MemoryStore(tmp_path / "m.db").close()
    with closing(sqlite3.connect(tmp_path / "m.db")) as conn:
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(MemoryInputError, match="newer"):
        MemoryStore(tmp_path / "m.db")


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "m.db") as store:
        store.add([_memory("m-1")])
        assert store.get("m-1") == _memory("m-1")


def test_a_search_word_finds_the_words_it_begins(tmp_path: Path) -> None:
    notes = {"m-1": "discounts apply at checkout", "m-2": "the cart counts items"}
    with MemoryStore(tmp_path / "m.db") as store:
        store.add([replace(_memory(i), text=text) for i, text in notes.items()])
        assert [m.id for m, _ in store.search("discount", 5)] == ["m-1"]
        assert [m.id for m, _ in store.search("count", 5)] == ["m-2"]  # not "discounts"


def test_unknown_id_suggests_near_ones(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "m.db") as store:
        store.add([_memory("m-abcdef")])
        with pytest.raises(UnknownMemoryError) as caught:
            store.get("m-abcdeg")
        assert caught.value.suggestions == ("m-abcdef",)


def test_a_killed_writer_loses_nothing_committed(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    first = _writer(db, "commit", 5, "kept")
    out, _ = first.communicate(timeout=DEADLINE_S)
    assert out.strip() == "done"
    with _writer(db, "hold", 50, "lost") as victim:
        assert victim.stdout is not None
        assert victim.stdout.readline().strip() == "holding"
        victim.kill()
        victim.wait(timeout=DEADLINE_S)
    with MemoryStore(db) as store:
        assert store.ids() == [f"kept-{i}" for i in range(5)]
        assert store.get("kept-3").text == "text kept-3"
        store.add([_memory("after")])
        assert store.count() == 6
    with closing(sqlite3.connect(db)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT count(*) FROM refs").fetchone()[0] == 6


def test_two_writers_at_once_lose_nothing(tmp_path: Path) -> None:
    db = tmp_path / "m.db"
    MemoryStore(db).close()
    writers = [_writer(db, "commit", 150, prefix) for prefix in ("a", "b")]
    for writer in writers:
        out, _ = writer.communicate(timeout=DEADLINE_S)
        assert out.strip() == "done"
    with MemoryStore(db) as store:
        assert set(store.ids()) == {f"{p}-{i}" for p in ("a", "b") for i in range(150)}
        assert len(store.search("text", 500)) == 300


def test_a_check_never_overwrites_a_status_set_meanwhile(tmp_path: Path) -> None:
    with MemoryStore(tmp_path / "m.db") as store:
        store.add([_memory("m-1"), _memory("m-2")])
        store.set_status("m-1", "retired")
        store.set_statuses({"m-1": "stale", "m-2": "stale"})
        assert [store.get(i).status for i in ("m-1", "m-2")] == ["retired", "stale"]
