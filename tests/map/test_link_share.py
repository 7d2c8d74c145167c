"""A cold build that links and saves in forked processes too (map.link_share,
map.forked) builds exactly the map, the edge details, the open uses and the store
rows that one process does, even when a child fails."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

import map.forked as forked
import map.link_share as link_share
import map.store_write as store_write
from map.codemap import CodeMap, MapSettings
from map.linker import Linker
from tests.map.graph_state import copy_repo, graph_state


def _build(root: Path, store: Path) -> CodeMap:
    return CodeMap.open(root, MapSettings(workers=2, snapshot_dir=str(store)))


def _details(code_map: CodeMap) -> list[Any]:
    return sorted(
        (u, v, k, code_map.edge_attrs(u, v, k)) for u, v, k in code_map.graph.edges(keys=True)
    )


def _store_rows(store: Path) -> dict[str, list[Any]]:
    """Every row of every table but the build's time (byte for byte)."""
    with closing(sqlite3.connect(next(store.glob("*.sqlite*")))) as db:
        listed = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        tables = [name for (name,) in listed]
        rows = {table: sorted(db.execute(f"SELECT * FROM {table}"), key=repr) for table in tables}
    rows["meta"] = [row for row in rows["meta"] if row[0] not in ("built_at", "duration_s")]
    return rows


def _alone(root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CodeMap:
    with monkeypatch.context() as patch:
        patch.setattr(link_share, "SHARE_FILES", 10**9)
        patch.setattr(store_write, "FORKED_WRITE_FILES", 10**9)
        return _build(root, tmp_path / "alone")


def _shared(
    root: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[CodeMap, list[str]]:
    forks: list[str] = []
    fork, made = link_share._fork, forked.forked_map

    def counted_fork(*args: Any) -> Any:
        forks.append("link")
        return fork(*args)

    def counted_map(*args: Any) -> Any:
        forks.append("save")
        return made(*args)

    with monkeypatch.context() as patch:
        patch.setattr(link_share, "SHARE_FILES", 1)
        patch.setattr(link_share, "CHUNK_FILES", 1)
        patch.setattr(store_write, "FORKED_WRITE_FILES", 1)
        patch.setattr(forked, "CHUNK_ITEMS", 1)
        patch.setattr(link_share, "_fork", counted_fork)
        patch.setattr(store_write, "forked_map", counted_map)
        return _build(root, tmp_path / "shared"), forks


def _assert_same(shared: CodeMap, alone: CodeMap, tmp_path: Path) -> None:
    assert graph_state(shared) == graph_state(alone)
    assert _details(shared) == _details(alone)
    assert _store_rows(tmp_path / "shared") == _store_rows(tmp_path / "alone")


def test_a_shared_first_link_builds_what_one_process_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_repo(tmp_path)
    alone = _alone(root, tmp_path, monkeypatch)
    shared, forks = _shared(root, tmp_path, monkeypatch)
    assert forks == ["link", "save"]
    assert alone.graph.number_of_edges() > 0
    _assert_same(shared, alone, tmp_path)


def test_the_files_a_failed_child_did_not_send_link_here(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_repo(tmp_path)
    alone = _alone(root, tmp_path, monkeypatch)

    def failing(self: Linker, path: str) -> Any:
        raise RuntimeError("a child fails")

    monkeypatch.setattr(Linker, "_shared_facts", failing)
    shared, forks = _shared(root, tmp_path, monkeypatch)
    assert forks == ["link", "save"]
    _assert_same(shared, alone, tmp_path)
