"""A server's graph rows read ahead by a helper process (map.store.graph_feed): the graph
they load is the store's, and they are taken only while the store is still what
the helper read; else, or when the helper fails, the graph loads from the store."""

from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
from pathlib import Path
from tempfile import TemporaryFile

import pytest

from map import CodeMap
from map.store import graph_feed
from map.store.graph_feed import FEED_TIMEOUT_S, GraphFeed, pack, unpack
from map.store.mapstore import MapStore
from tests.map.graph_state import graph_state
from tests.map.restart_child import settings
from tests.map.restart_edits import write_repo

FEED_LOG = "map.store.graph_feed"


@pytest.fixture
def built(tmp_path: Path) -> tuple[Path, Path]:
    """A generated repository and the store its map was built and saved into."""
    root, store = tmp_path / "repo", tmp_path / "store"
    write_repo(root, modules=8, padding=2)
    CodeMap.open(root, settings(store))
    return root, store


def _reopened(root: Path, store: Path, *, ahead: bool) -> CodeMap:
    return CodeMap.open(root, settings(store), refresh=False, read_graph_ahead=ahead)


def _store(code_map: CodeMap) -> MapStore:
    return MapStore.open(code_map.snapshot_path, str(code_map.root))


def test_a_graph_read_ahead_is_the_graph_the_store_loads(
    built: tuple[Path, Path], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger=FEED_LOG)
    ahead = _reopened(*built, ahead=True)
    assert ahead.load_graph(link=False)
    assert not [r for r in caplog.records if r.name == FEED_LOG], "the rows read were declined"
    row_by_row = _reopened(*built, ahead=False)
    assert row_by_row.load_graph(link=False)
    assert graph_state(ahead.graph) == graph_state(row_by_row.graph)
    assert len(ahead.graph) > 50


def test_packed_rows_are_the_store_rows_an_edge_to_a_lost_node_included(
    built: tuple[Path, Path],
) -> None:
    code_map = _reopened(*built, ahead=False)
    store = _store(code_map)
    with sqlite3.connect(store.path) as db:  # a store that lost the file of an edge's end
        db.execute("INSERT INTO edges VALUES ('app.py', 'gone.py#f', 'calls', x'', 0.5, x'')")
    version, (nodes, edges) = unpack(pack(store))
    assert version == store.rows_version()
    assert list(nodes) == list(store.graph_nodes())
    stored = sorted(store.graph_edges())
    assert sorted(edges) == stored
    assert ("app.py", "gone.py#f", "calls", 0.5) in stored


def test_rows_read_before_a_write_are_declined_and_the_store_loads(
    built: tuple[Path, Path], caplog: pytest.LogCaptureFixture
) -> None:
    root, _ = built
    code_map = _reopened(*built, ahead=False)
    read_before = built[1] / "read before the write"
    read_before.write_bytes(pack(_store(code_map)))
    with TemporaryFile() as output, TemporaryFile() as errors:
        helper = subprocess.Popen(["cat", read_before], stdout=output, stderr=errors)
        feed = GraphFeed(helper, output, errors)
        code_map.load_graph()
        (root / "lib" / "m1.py").write_text("def moved_here():\n    return 1\n")
        code_map.rebuild()
        code_map.save()
        caplog.set_level(logging.INFO, logger=FEED_LOG)
        assert feed.take(_store(code_map).rows_version()) is None
    assert "written after it read them" in caplog.text

    later = _reopened(*built, ahead=True)
    later.load_graph(link=False)
    assert "lib/m1.py#moved_here" in later.graph
    assert graph_state(later.graph) == graph_state(code_map.graph)


def test_a_helper_that_fails_says_why_and_the_store_loads(
    built: tuple[Path, Path], caplog: pytest.LogCaptureFixture
) -> None:
    code_map = _reopened(*built, ahead=False)
    store = _store(code_map)
    feed = GraphFeed.start(MapStore(store.path, "/not/the/root"))
    assert feed is not None
    caplog.set_level(logging.INFO, logger=FEED_LOG)
    assert feed.take(store.rows_version()) is None
    assert "exit 1" in caplog.text and "not of '/not/the/root'" in caplog.text


def test_a_malformed_pack_is_refused_whole_before_any_row_is_read(
    built: tuple[Path, Path],
) -> None:
    packed = bytearray(pack(_store(_reopened(*built, ahead=False))))
    packed[-4:] = (2**32 - 1).to_bytes(4, "little")  # the last edge's fact: not there
    with pytest.raises(IndexError):
        unpack(bytes(packed))
    with pytest.raises(ValueError):
        unpack(bytes(packed[:-1]))


def test_the_helper_imports_nothing_from_the_repository(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    root, _ = built
    shadow = root / "map"  # a package of the repository named as ours
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise SystemExit('imported from the repository')\n")
    monkeypatch.chdir(root)
    caplog.set_level(logging.INFO, logger=FEED_LOG)
    code_map = _reopened(*built, ahead=True)
    assert code_map.load_graph(link=False)
    assert not [r for r in caplog.records if r.name == FEED_LOG], caplog.text


def test_a_write_of_rows_gives_a_new_rows_version_a_write_of_stamps_alone_not(
    built: tuple[Path, Path],
) -> None:
    root, _ = built
    code_map = _reopened(*built, ahead=False)
    before = _store(code_map).rows_version()
    touched = root / "lib" / "m3.py"
    os.utime(touched, ns=(touched.stat().st_atime_ns, touched.stat().st_mtime_ns + 10**9))
    assert code_map.rebuild().restamped
    code_map.save()
    assert _store(code_map).rows_version() == before
    (root / "lib" / "m2.py").write_text("def other():\n    return 2\n")
    code_map.rebuild()
    code_map.save()
    after = _store(code_map).rows_version()
    assert before is not None and after is not None and before != after


def test_a_save_of_rows_before_the_load_reads_the_rows_again_ahead(
    built: tuple[Path, Path], caplog: pytest.LogCaptureFixture
) -> None:
    root, _ = built
    caplog.set_level(logging.INFO, logger=FEED_LOG)
    (root / "lib" / "m4.py").write_text("def added_offline():\n    return 4\n")
    ahead = _reopened(*built, ahead=True)
    first = ahead._feed
    assert first is not None
    first._process.wait(FEED_TIMEOUT_S)  # the helper has read the rows as they were
    before = _store(ahead).rows_version()
    ahead.refresh(link_later=True)  # as a server does: the edit relinked in the store, saved
    assert _store(ahead).rows_version() != before
    assert ahead.load_graph(link=False)
    assert not [r for r in caplog.records if r.name == FEED_LOG], caplog.text
    assert "lib/m4.py#added_offline" in ahead.graph
    assert graph_state(ahead.graph) == graph_state(_reopened(*built, ahead=False).graph)


def test_a_helper_that_cannot_start_leaves_the_store_to_load(
    built: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_room() -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(graph_feed, "TemporaryFile", no_room)
    caplog.set_level(logging.INFO, logger=FEED_LOG)
    code_map = _reopened(*built, ahead=True)
    assert "cannot start a helper" in caplog.text
    assert code_map.load_graph(link=False)
    assert graph_state(code_map.graph) == graph_state(_reopened(*built, ahead=False).graph)
