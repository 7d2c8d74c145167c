"""The map store: an edit rewrites its files' rows, a reopened map answers from the
store exactly as a fresh build's graph does, and a store that cannot be trusted
(damaged, foreign, old, of another root, or the single-file snapshot of earlier
versions) is rebuilt; a write killed mid-way leaves the previous state usable."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from map.errors import MapError
from map.live.codemap import CodeMap, MapSettings
from map.store.mapstore import BULK_WRITE_FILES, LEGACY_NAME
from tests.map.graph_state import copy_repo, fresh, graph_state
from tests.map.killsave import kill_mid_save


def warm_state(codemap: CodeMap, node_ids: list[str]) -> dict[str, Any]:
    """What the map answers about `node_ids` (attributes, one-hop neighbours both
    ways, outlines) and every node it holds, as comparable data."""
    status = codemap.status()
    state: dict[str, Any] = {"ids": codemap.node_ids(), "counts": (status.symbols, status.edges)}
    for node_id in node_ids:
        state[node_id] = (
            codemap.attrs(node_id),
            codemap.neighbors(node_id, "in"),
            codemap.neighbors(node_id, "out"),
            codemap.outline(node_id) if "#" not in node_id else None,
        )
    state["search"] = [codemap.search(p) for p in ("step", "*.step", "re:^B", "pkg/")]
    return state


def _lines(*lines: str) -> str:
    return "\n".join(lines) + "\n"


CORE_TAIL = (
    "",
    "",
    "def helper():",
    "    return 1",
    "",
    "",
    "def start():",
    "    return Engine().run()",
)
EDITS: list[tuple[str, str | None]] = [  # each moves edges of files it does not touch
    (
        "pkg/core.py",
        _lines("class Engine:", "    def run(self):", "        return helper()", *CORE_TAIL),
    ),
    ("pkg/util.py", None),
    (
        "pkg/extra.py",
        _lines("from pkg.core import helper, start", "", "", "def boost():", "    return helper()"),
    ),
    (
        "app/main.py",
        _lines("import pkg", "from pkg.extra import boost", "", "", "def main():", "    boost()"),
    ),
    (
        "pkg/core.py",
        _lines(
            "class Engine:",
            "    def run(self):",
            "        return self.step()",
            "",
            "    def step(self):",
            "        return 2",
            *CORE_TAIL,
        ),
    ),
]


def test_after_each_edit_a_reopened_store_answers_as_a_fresh_build(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    live = CodeMap.open(root)
    for path, text in EDITS:
        if text is None:
            (root / path).unlink()
        else:
            (root / path).write_text(text)
        live.rebuild(paths=[path])
        live.save()
        reopened = CodeMap.open(root)
        built = fresh(root, tmp_path)
        ids = sorted(built.graph)
        assert warm_state(reopened, ids) == warm_state(built, ids), f"after editing {path}"
        assert not reopened.graph_loaded  # every answer came from the store
        assert graph_state(reopened) == graph_state(built)


def _truncate(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _corrupt(path: Path) -> None:
    path.write_bytes(b"\x00garbage{" + path.read_bytes()[10:])


def _sql(statement: str) -> Callable[[Path], None]:
    def damage(path: Path) -> None:
        with sqlite3.connect(path) as db:
            db.execute(statement)
        db.close()

    return damage


def _foreign(path: Path) -> None:
    """Another program's SQLite database where the store should be."""
    for name in (path.name, path.name + "-wal", path.name + "-shm"):
        path.with_name(name).unlink(missing_ok=True)
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (body TEXT)")
    db.close()


DAMAGE: dict[str, Callable[[Path], None]] = {
    "truncated": _truncate,
    "corrupt": _corrupt,
    "foreign": _foreign,
    "old_schema": _sql("UPDATE meta SET value = '0.1' WHERE key = 'schema'"),
    "other_root": _sql("UPDATE meta SET value = '/somewhere/else' WHERE key = 'root'"),
    "malformed_extract": _sql(
        "UPDATE files SET extract = x'5b312c325d' WHERE path = 'pkg/core.py'"
    ),
    "hash_mismatch": _sql("UPDATE files SET hash = 'x' WHERE path = 'pkg/core.py'"),
    "dropped_table": _sql("DROP TABLE nodes"),
}
FOUND_AT_OPEN = {"corrupt", "foreign", "old_schema", "other_root"}


@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_an_untrusted_store_is_rebuilt_and_never_fails_a_query(tmp_path: Path, damage: str) -> None:
    root = copy_repo(tmp_path)
    original = CodeMap.open(root)
    expected = graph_state(original)
    ids = sorted(original.graph)
    answers = warm_state(fresh(root, tmp_path), ids)
    with sqlite3.connect(original.snapshot_path) as db:  # all of it in the main file
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    DAMAGE[damage](original.snapshot_path)
    reopened = CodeMap.open(root)
    assert warm_state(reopened, ids) == answers
    assert graph_state(reopened) == expected
    if damage in FOUND_AT_OPEN:
        assert reopened.last_report is not None and reopened.last_report.full
    reopened.save()
    again = CodeMap.open(root)  # the rebuilt store is sound again
    assert again.rebuild().files_changed == []
    assert warm_state(again, ids) == answers


def test_the_snapshot_of_earlier_versions_is_replaced_by_the_store(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    folder = root / ".codeanchor"
    folder.mkdir()
    (folder / LEGACY_NAME).write_bytes(b'{"schema": 6}\n"token"\n{}\n')
    (folder / f".{LEGACY_NAME}.123.abcd.tmp").write_bytes(b"{")
    (folder / "notes.txt").write_text("not ours\n")
    codemap = CodeMap.open(root)
    assert codemap.snapshot_path.is_file()
    assert sorted(p.name for p in folder.iterdir() if "map.sqlite" not in p.name) == [
        ".gitignore",
        "notes.txt",
    ]
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))


def test_a_cold_build_leaves_no_write_ahead_log_for_the_first_edit_to_pay(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    for number in range(BULK_WRITE_FILES):
        module = root / f"pkg{number % 8}" / f"mod{number}.py"
        module.parent.mkdir(parents=True, exist_ok=True)
        module.write_text(_lines(f"def step{number}(x):", f"    return x + {number}"))
    codemap = CodeMap.open(root)
    log = codemap.snapshot_path.with_name(codemap.snapshot_path.name + "-wal")
    assert not log.exists() or log.stat().st_size == 0  # copied back, not kept on disk
    (root / "pkg0" / "mod0.py").write_text(_lines("def stepped(x):", "    return x"))
    codemap.rebuild(paths=["pkg0/mod0.py"])
    codemap.save()
    assert CodeMap.open(root).search("stepped")


def test_a_bulk_write_keeps_incoming_neighbours_indexed(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    for number in range(BULK_WRITE_FILES):
        module = root / "pkg" / f"mod{number}.py"
        module.parent.mkdir(parents=True, exist_ok=True)
        module.write_text(
            _lines("from pkg.mod0 import step0", "", "", f"def step{number}(x):", "    step0(x)")
        )
    CodeMap.open(root).save(full=True)  # a cold build, then a full rewrite
    reopened = CodeMap.open(root)
    assert not reopened.graph_loaded  # the store answers
    callers = reopened.neighbors("pkg/mod0.py#step0", "in")
    assert len(callers) == BULK_WRITE_FILES  # every step calls it (step0 itself too)
    with sqlite3.connect(reopened.snapshot_path) as db:
        plan = db.execute("EXPLAIN QUERY PLAN SELECT * FROM edges WHERE target = 'x'").fetchall()
    assert any("edges_target" in str(row[-1]) for row in plan)  # not a scan of every edge


def test_killing_a_process_mid_save_leaves_a_usable_store(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    for n in range(30):  # enough rows that a save takes a moment
        body = "".join(f"def f{n}_{i}(x):\n    return f{n}_{i - 1}(x)\n\n" for i in range(40))
        (root / "pkg" / f"m{n}.py").write_text(body)
    original = CodeMap.open(root)
    kill_mid_save(root)
    reopened = CodeMap.open(root)
    assert reopened.last_report is not None
    assert not reopened.last_report.full  # the previous state was used
    ids = sorted(original.graph)
    assert warm_state(reopened, ids) == warm_state(original, ids)
    assert graph_state(reopened) == graph_state(original)
    assert reopened.rebuild().files_changed == []


def test_unwritable_store_directory_leaves_a_working_map(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    blocker = tmp_path / "blocked"
    blocker.write_text("a file where the store directory should be\n")
    settings = MapSettings(snapshot_dir=str(blocker / "stores"))
    codemap = CodeMap.open(root, settings)
    assert "pkg/core.py#Engine" in codemap.graph
    assert codemap.search("helper")[0].node_id == "pkg/core.py#helper"
    with pytest.raises(MapError, match="cannot write the map store"):
        codemap.save()
