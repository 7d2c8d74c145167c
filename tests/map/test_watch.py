"""The watcher on a real directory: stale flags first, one rebuild per burst."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import AsyncIterator, Coroutine
from pathlib import Path
from typing import Any

import pytest

import map.live.watch
from map.live.watch import Watcher, WatchStartError, default_path_filter
from tests.map.graph_state import git
from tests.map.polling import WAIT_S, wait_until


def run(scenario: Coroutine[Any, Any, None]) -> None:
    """Run an async scenario with a hard bound on its duration."""

    async def bounded() -> None:
        async with asyncio.timeout(WAIT_S * 3):
            await scenario

    asyncio.run(bounded())


class Recorder:
    """Records callbacks in order; rebuilds can be held open by the test."""

    def __init__(self) -> None:
        self.log: list[tuple[str, frozenset[str]]] = []
        self.seen: set[str] = set()
        self.hold: asyncio.Event | None = None
        self.rebuilds = 0
        self.rebuilding = False

    def on_change(self, paths: set[str]) -> None:
        self.seen |= paths
        self.log.append(("change", frozenset(paths)))

    async def rebuild(self) -> None:
        self.rebuilding = True
        self.log.append(("rebuild", frozenset()))
        if self.hold is not None:
            await self.hold.wait()
        self.rebuilds += 1
        self.rebuilding = False


def idle(watcher: Watcher) -> bool:
    state = watcher.state()
    return not state.pending_rebuild and not state.rebuilding


def watched(tmp_path: Path, recorder: Recorder, **kwargs: Any) -> Watcher:
    return Watcher(tmp_path, recorder.on_change, recorder.rebuild, **kwargs)


def test_an_edit_is_flagged_before_the_rebuild_starts(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text("x = 1\n")
    recorder = Recorder()

    async def scenario() -> None:
        async with watched(tmp_path, recorder) as watcher:
            (tmp_path / "app.py").write_text("x = 2\n")
            await wait_until(lambda: recorder.rebuilds == 1, "the rebuild")
            state = watcher.state()
            assert state.status == "watching"
            assert state.rebuild_count == 1
            assert state.last_event_at is not None

    run(scenario())
    kinds = [kind for kind, _ in recorder.log]
    assert kinds[0] == "change"
    assert "app.py" in recorder.log[0][1]
    assert kinds.count("rebuild") == 1
    assert kinds.index("rebuild") > 0


def test_a_burst_of_a_thousand_writes_is_one_rebuild(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    names = {f"pkg/mod_{index}.py" for index in range(1000)}
    recorder = Recorder()

    async def scenario() -> None:
        async with watched(tmp_path, recorder) as watcher:
            for name in sorted(names):
                (tmp_path / name).write_text(f"VALUE = {name!r}\n")
            await wait_until(
                lambda: names <= recorder.seen and recorder.rebuilds >= 1 and idle(watcher),
                "all 1,000 files flagged and the watcher idle",
            )
            assert watcher.state().rebuild_count == 1

    run(scenario())
    assert recorder.rebuilds == 1


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_branch_switch_of_a_thousand_files_is_one_rebuild(tmp_path: Path) -> None:
    git(tmp_path, "init", "-q", "-b", "main")
    for index in range(1000):
        (tmp_path / f"mod_{index}.py").write_text(f"VALUE = {index}\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "main")
    git(tmp_path, "checkout", "-q", "-b", "other")
    for index in range(1000):
        (tmp_path / f"mod_{index}.py").write_text(f"VALUE = {index + 1}\n")
    git(tmp_path, "commit", "-q", "-am", "other")
    git(tmp_path, "checkout", "-q", "main")
    names = {f"mod_{index}.py" for index in range(1000)}
    recorder = Recorder()

    async def scenario() -> None:
        async with watched(tmp_path, recorder) as watcher:
            await asyncio.to_thread(git, tmp_path, "checkout", "-q", "other")
            await wait_until(
                lambda: names <= recorder.seen and recorder.rebuilds >= 1 and idle(watcher),
                "the checkout flagged and rebuilt",
            )

    run(scenario())
    assert recorder.rebuilds == 1
    assert not any(path.startswith(".git/") for path in recorder.seen)


def test_events_during_a_rebuild_queue_exactly_one_more(tmp_path: Path) -> None:
    recorder = Recorder()

    async def scenario() -> None:
        recorder.hold = asyncio.Event()
        async with watched(tmp_path, recorder) as watcher:
            (tmp_path / "first.py").write_text("a = 1\n")
            await wait_until(lambda: recorder.rebuilding, "the first rebuild to start")
            written: set[str] = set()
            for index in range(5):
                path = f"during_{index}.py"
                written.add(path)
                (tmp_path / path).write_text("b = 1\n")
                await wait_until(lambda: set(recorder.seen) >= written, f"{path} flagged")
            assert watcher.state().rebuilding
            assert watcher.state().pending_rebuild
            recorder.hold.set()
            await wait_until(lambda: recorder.rebuilds == 2 and idle(watcher), "the queued rebuild")

    run(scenario())
    assert [kind for kind, _ in recorder.log].count("rebuild") == 2


def test_a_failing_rebuild_is_reported_and_the_watcher_goes_on(tmp_path: Path) -> None:
    calls: list[int] = []

    async def rebuild() -> None:
        calls.append(len(calls))
        if len(calls) == 1:
            raise OSError("disk on fire")

    async def scenario() -> None:
        async with Watcher(tmp_path, lambda paths: None, rebuild) as watcher:
            (tmp_path / "a.py").write_text("a = 1\n")
            await wait_until(lambda: watcher.state().failed_rebuilds == 1, "the failed rebuild")
            state = watcher.state()
            assert state.status == "watching"
            assert state.last_error is not None and "disk on fire" in state.last_error
            (tmp_path / "a.py").write_text("a = 2\n")
            await wait_until(lambda: watcher.state().rebuild_count == 1, "the next rebuild")

    run(scenario())


def test_stop_leaves_no_task_running(tmp_path: Path) -> None:
    recorder = Recorder()

    async def scenario() -> None:
        before = asyncio.all_tasks()
        watcher = watched(tmp_path, recorder)
        await watcher.start()
        assert len(asyncio.all_tasks()) > len(before)
        (tmp_path / "a.py").write_text("a = 1\n")
        await wait_until(lambda: "a.py" in recorder.seen, "the event")
        await watcher.stop()
        assert asyncio.all_tasks() == before
        assert watcher.state().status == "stopped"

    run(scenario())


def test_start_refuses_a_missing_root_and_a_second_start(tmp_path: Path) -> None:
    recorder = Recorder()

    async def scenario() -> None:
        with pytest.raises(WatchStartError, match="not a directory"):
            await watched(tmp_path / "missing", recorder).start()
        async with watched(tmp_path, recorder) as watcher:
            with pytest.raises(WatchStartError, match="already running"):
                await watcher.start()

    run(scenario())


def test_ignored_places_raise_no_events(tmp_path: Path) -> None:
    for folder in (".git", ".codeanchor", "node_modules/dep", ".venv/lib"):
        (tmp_path / folder).mkdir(parents=True)
    recorder = Recorder()

    async def scenario() -> None:
        async with watched(tmp_path, recorder):
            for folder in (".git", ".codeanchor", "node_modules/dep", ".venv/lib"):
                (tmp_path / folder / "x.py").write_text("noise = 1\n")
            (tmp_path / "app.swp").write_bytes(b"swap")
            (tmp_path / "real.py").write_text("signal = 1\n")
            await wait_until(lambda: "real.py" in recorder.seen, "the real edit")
            await wait_until(lambda: recorder.rebuilds == 1, "the rebuild")

    run(scenario())
    assert recorder.seen == {"real.py"}


def test_a_watch_that_fails_at_once_fails_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failing = True

    async def broken(*_args: object, **_kwargs: object) -> AsyncIterator[set[tuple[int, str]]]:
        if failing:
            raise OSError("inotify watch limit reached")
        yield set()

    monkeypatch.setattr(map.live.watch, "awatch", broken)
    recorder = Recorder()
    watcher = watched(tmp_path, recorder)

    async def scenario() -> None:
        with pytest.raises(WatchStartError, match="inotify watch limit reached"):
            await watcher.start()

    run(scenario())
    assert watcher.state().status == "error"


def test_a_watch_that_dies_later_is_reported_as_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = asyncio.Event()

    async def dies(*_args: object, **_kwargs: object) -> AsyncIterator[set[tuple[int, str]]]:
        yield set()
        await started.wait()
        yield {(2, str(tmp_path / "a.py"))}
        raise OSError("root removed")

    monkeypatch.setattr(map.live.watch, "awatch", dies)
    recorder = Recorder()
    watcher = watched(tmp_path, recorder)

    async def scenario() -> None:
        await watcher.start()
        assert watcher.state().status == "watching"
        started.set()
        await wait_until(lambda: watcher.state().status == "error", "the error state")
        await watcher.stop()

    run(scenario())
    state = watcher.state()
    assert state.status == "error"
    assert state.last_error is not None and "root removed" in state.last_error
    assert recorder.seen == {"a.py"}


@pytest.mark.parametrize(
    ("path", "kept"),
    [
        ("src/app.py", True),
        ("README.md", True),
        (".github/workflows/ci.yml", True),
        (".git/HEAD", False),
        (".git", False),
        ("web/node_modules/react/index.js", False),
        (".codeanchor/map.json", False),
        ("src/__pycache__/app.cpython-311.pyc", False),
        ("src/app.py.swp", False),
        ("src/app.py~", False),
    ],
)
def test_default_path_filter(path: str, kept: bool) -> None:
    assert default_path_filter(path) is kept
