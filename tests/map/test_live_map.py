"""A watched map: an edit is flagged stale at once, then rebuilt into the graph."""

from __future__ import annotations

import asyncio
from pathlib import Path

from map.live.codemap import CodeMap, MapSettings
from map.live.live_map import LiveMap
from tests.map.graph_state import copy_repo
from tests.map.polling import wait_until

HELPER = "pkg/core.py#helper"


def lines_of(codemap: CodeMap, node_id: str) -> tuple[int, int]:
    first, last = codemap.node(node_id)["lines"]
    return int(first), int(last)


def test_an_edit_is_stale_at_once_and_rebuilt_into_the_graph(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    before = lines_of(codemap, HELPER)
    built_before = codemap.built_at
    core = root / "pkg" / "core.py"
    added = "def added_above():\n    return 0\n\n\n"
    seen_stale: list[frozenset[str]] = []

    async def scenario() -> None:
        async with LiveMap(codemap) as live:
            core.write_text(core.read_text().replace("def helper():", added + "def helper():"))
            await wait_until(lambda: "pkg/core.py" in codemap.stale_files(), "the stale flag")
            seen_stale.append(codemap.stale_files())
            assert lines_of(codemap, HELPER) == before, "flagged, not yet rebuilt"
            await wait_until(lambda: live.state().rebuild_count >= 1, "the rebuild")
            await wait_until(lambda: not codemap.stale_files(), "the stale flag to clear")
            assert live.state().status == "watching"

    asyncio.run(scenario())
    assert seen_stale == [frozenset({"pkg/core.py"})]
    shift = added.count("\n")
    assert lines_of(codemap, HELPER) == (before[0] + shift, before[1] + shift)
    assert "pkg/core.py#added_above" in codemap.graph
    assert codemap.built_at > built_before
    reopened = CodeMap.open(root)
    assert lines_of(reopened, HELPER) == lines_of(codemap, HELPER), "the rebuild was saved"


def test_a_moved_directory_flags_the_files_that_were_in_it(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    old = {"pkg/__init__.py", "pkg/core.py", "pkg/util.py"}
    assert all(path in codemap.graph for path in old)

    async def scenario() -> None:
        async with LiveMap(codemap) as live:
            (root / "pkg").rename(root / "lib")
            await wait_until(lambda: old <= codemap.stale_files(), "the old files flagged")
            await wait_until(lambda: live.state().rebuild_count >= 1, "the rebuild")
            await wait_until(lambda: not codemap.stale_files(), "the stale flags to clear")

    asyncio.run(scenario())
    assert not any(path in codemap.graph for path in old)
    assert "lib/core.py#helper" in codemap.graph


def test_a_non_source_change_rebuilds_without_a_stale_flag(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    flags: list[frozenset[str]] = []

    async def scenario() -> None:
        async with LiveMap(codemap) as live:
            (root / "NOTES.txt").write_text("not code\n")

            def rebuilt() -> bool:
                flags.append(codemap.stale_files())
                return live.state().rebuild_count >= 1

            await wait_until(rebuilt, "the rebuild")

    asyncio.run(scenario())
    assert all(not flagged for flagged in flags)


def test_a_snapshot_directory_elsewhere_in_the_root_is_not_watched(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root, MapSettings(snapshot_dir="cache/map"))
    assert codemap.snapshot_path.is_relative_to(root / "cache" / "map")

    async def scenario() -> None:
        async with LiveMap(codemap):
            (root / "cache" / "map" / "noise.py").write_text("x = 1\n")
            (root / "pkg" / "util.py").write_text("def boot():\n    return 2\n")
            await wait_until(lambda: "pkg/util.py" in codemap.stale_files(), "the real edit")
            assert codemap.stale_files() == {"pkg/util.py"}

    asyncio.run(scenario())


def test_a_reader_holding_the_lock_keeps_the_rebuild_waiting(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    before = lines_of(codemap, HELPER)
    core = root / "pkg" / "core.py"

    async def scenario() -> None:
        lock = asyncio.Lock()
        async with LiveMap(codemap, lock=lock) as live:
            async with lock:
                core.write_text(core.read_text().replace("def helper():", "\n\ndef helper():"))
                await wait_until(lambda: live.state().rebuilding, "the rebuild to be due")
                assert lines_of(codemap, HELPER) == before, "no rebuild while the lock is held"
                assert "pkg/core.py" in codemap.stale_files()
            await wait_until(lambda: live.state().rebuild_count == 1, "the rebuild")

    asyncio.run(scenario())
    assert lines_of(codemap, HELPER) == (before[0] + 2, before[1] + 2)
