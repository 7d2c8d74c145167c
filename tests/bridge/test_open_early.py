"""A server opens a stored map as it starts, before any call asks for it.

`codeanchor serve` calls `open_map_early` as it starts: with a map store, the map
is checked against the disk (edits made while no server ran are in it), and the
disk is watched from then on, while the MCP SDK loads and the client connects.
Without a store nothing is built until a call needs the map.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from bridge.context import AppContext
from bridge.tools.mapping import map_search
from map.live.codemap import CodeMap
from tests.map.graph_state import copy_repo
from tests.map.polling import WAIT_S, wait_until

OFFLINE = "\n\ndef added_while_down():\n    return 1\n"
AS_IT_OPENS = "\n\ndef added_as_it_opens():\n    return 2\n"


def test_a_stored_map_is_open_and_watched_before_the_first_call(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    CodeMap.open(root)  # the store
    with (root / "pkg/core.py").open("a") as source:
        source.write(OFFLINE)

    async def scenario() -> None:
        app = AppContext(root, serving=True)
        try:
            app.open_map_early()
            await wait_until(lambda: app.open_map is not None, "the map opened at start")
            assert app.watcher_state()["status"] == "watching"
            code_map = app.open_map
            assert code_map is not None and code_map.has_node("pkg/core.py#added_while_down")
            hits = (await map_search(app, "added_while_down"))["data"]["hits"]
            assert [hit["nodeId"] for hit in hits] == ["pkg/core.py#added_while_down"]
            assert app.open_map is code_map  # the call took the map opened at start
        finally:
            await app.aclose()

    asyncio.run(asyncio.wait_for(scenario(), WAIT_S * 2))


def test_without_a_store_nothing_is_built_until_a_call_needs_the_map(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)

    async def scenario() -> None:
        app = AppContext(root, serving=True)
        try:
            app.open_map_early()
            for _ in range(3):
                await asyncio.sleep(0)
            assert app.open_map is None and not CodeMap.has_store(root)
            assert (await map_search(app, "helper"))["ok"]
            assert CodeMap.has_store(root)
        finally:
            await app.aclose()

    asyncio.run(asyncio.wait_for(scenario(), WAIT_S * 2))


def test_an_edit_made_right_after_the_check_at_start_is_seen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk is watched before it is checked: an edit just after the check (here, while
    the check is held at its end) is flagged and rebuilt, never missed."""
    root = copy_repo(tmp_path)
    CodeMap.open(root)  # the store
    checked, edited = threading.Event(), threading.Event()
    refresh = CodeMap.refresh

    def held(code_map: CodeMap, *args: object, **kwargs: bool) -> None:
        refresh(code_map, *args, **kwargs)  # type: ignore[arg-type]
        checked.set()
        assert edited.wait(WAIT_S), "the edit was never made"

    monkeypatch.setattr(CodeMap, "refresh", held)

    async def scenario() -> None:
        app = AppContext(root, serving=True)
        try:
            app.open_map_early()
            assert await asyncio.to_thread(checked.wait, WAIT_S), "the check never ran"
            with (root / "pkg/core.py").open("a") as source:
                source.write(AS_IT_OPENS)
            edited.set()

            async def found() -> bool:
                hits = (await map_search(app, "added_as_it_opens"))["data"]["hits"]
                return [hit["nodeId"] for hit in hits] == ["pkg/core.py#added_as_it_opens"]

            deadline = asyncio.get_running_loop().time() + WAIT_S
            while not await found():
                assert asyncio.get_running_loop().time() < deadline, "the edit was missed"
                await asyncio.sleep(0.05)
        finally:
            await app.aclose()

    asyncio.run(asyncio.wait_for(scenario(), WAIT_S * 2))
