"""Watch a workspace for file changes and drive debounced rebuilds.

A small component that knows nothing of the map: it is given a root, a
`on_change(paths)` callback called at once for every batch of events (so a
caller can flag files stale before any rebuild work), and an async
`rebuild()` callback that it runs when the debounce policy says so
(`map.live.debounce`). Watching itself is `watchfiles.awatch`, used with short
batches; the burst policy is ours.

    MapError (map.errors)
    └── WatchError
        └── WatchStartError   the root cannot be watched, or the watcher already runs

A failing `rebuild` or `on_change` is logged and reported in `state()`; it
never stops the watcher. If watching itself fails (the root vanished, the
system ran out of inotify watches) the state becomes `error`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Literal

from watchfiles import awatch

from map.errors import MapError
from map.intake.walk import UNLISTED_DIRS, VENDORED_DIRS
from map.live.debounce import DebouncePolicy, RebuildScheduler

log = logging.getLogger(__name__)

WatchStatus = Literal["starting", "watching", "stopped", "error"]

IGNORED_DIRS = UNLISTED_DIRS | VENDORED_DIRS | {".codeanchor"}
"""What the map never reads (map.intake.walk), and our own store."""
IGNORED_SUFFIXES = (".swp", ".swx", ".swo", "~", ".tmp", ".pyc")

# watchfiles batching: hand over a batch once events pause for STEP_MS, or
# after BATCH_MS of a continuous stream. Short, so stale flags are immediate.
STEP_MS = 30
BATCH_MS = 150
# How long the watching thread waits with nothing to report before it hands back.
IDLE_TIMEOUT_MS = 250


class WatchError(MapError):
    """The watcher could not do what was asked; the message says why."""


class WatchStartError(WatchError):
    """The watcher cannot start: bad root, or it is already running."""


def default_path_filter(path: str) -> bool:
    """True for repo-relative POSIX paths worth reporting.

    Leaves out the folders the map never reads (VCS internals, tool caches,
    virtual environments, vendored and build output), our own `.codeanchor/`
    store, and editor swap/backup files.
    """
    parts = PurePosixPath(path).parts
    if not parts or any(part in IGNORED_DIRS for part in parts[:-1]):
        return False
    name = parts[-1]
    return name not in IGNORED_DIRS and not name.endswith(IGNORED_SUFFIXES)


@dataclass(frozen=True, slots=True)
class WatcherState:
    """What `map status` shows about the watcher.

    Times are wall-clock seconds since the epoch. `last_error` is the most
    recent failure (of watching, `on_change` or `rebuild`), kept after recovery.
    """

    status: WatchStatus
    root: str
    last_event_at: float | None
    pending_rebuild: bool
    rebuilding: bool
    rebuild_count: int
    failed_rebuilds: int
    last_rebuild_at: float | None
    last_error: str | None


class Watcher:
    """Watches `root`; flags changes at once, rebuilds after a debounce.

    Use as `async with Watcher(...)`, or `await start()` / `await stop()`.
    Both callbacks run on the event loop that started the watcher.
    """

    def __init__(
        self,
        root: Path,
        on_change: Callable[[set[str]], None],
        rebuild: Callable[[], Awaitable[None]],
        *,
        policy: DebouncePolicy | None = None,
        path_filter: Callable[[str], bool] = default_path_filter,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.root = root.resolve()
        self._on_change = on_change
        self._rebuild = rebuild
        self._path_filter = path_filter
        self._clock = clock
        self._scheduler = RebuildScheduler(policy)
        self._status: WatchStatus = "stopped"
        self._last_event_at: float | None = None
        self._last_rebuild_at: float | None = None
        self._rebuild_count = 0
        self._failed_rebuilds = 0
        self._last_error: str | None = None
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def state(self) -> WatcherState:
        """A snapshot of the watcher's state."""
        return WatcherState(
            status=self._status,
            root=str(self.root),
            last_event_at=self._last_event_at,
            pending_rebuild=self._scheduler.pending,
            rebuilding=self._scheduler.running,
            rebuild_count=self._rebuild_count,
            failed_rebuilds=self._failed_rebuilds,
            last_rebuild_at=self._last_rebuild_at,
            last_error=self._last_error,
        )

    async def start(self) -> None:
        """Start watching; returns once events under the root are being seen.

        Raises WatchStartError when the root is not a directory, watching it
        fails at once, or the watcher is already running.
        """
        if self._tasks:
            raise WatchStartError(f"{self.root}: this watcher is already running; stop it first")
        if not self.root.is_dir():
            raise WatchStartError(f"{self.root}: not a directory; pass an existing workspace root")
        self._stop = asyncio.Event()
        self._wake = asyncio.Event()
        self._status = "starting"
        self._tasks = [
            asyncio.create_task(self._watch(), name=f"codeanchor-watch {self.root}"),
            asyncio.create_task(self._drive(), name=f"codeanchor-rebuild {self.root}"),
        ]
        # The watch task's first step enters `awatch`, which registers the watches on
        # the tree (or fails) before its first wait: events are being seen once it
        # yields, not only after the first idle timeout (a quarter second at start).
        await asyncio.sleep(0)
        if self._status == "starting":
            self._status = "watching"
        if self.state().status == "error":
            await self.stop()
            raise WatchStartError(f"{self._last_error}; check the root and the inotify limits")

    async def stop(self) -> None:
        """Stop watching; a rebuild in progress is let finish, a pending one is dropped."""
        self._stop.set()
        self._wake.set()
        tasks, self._tasks = self._tasks, []
        await asyncio.gather(*tasks)
        if self._status != "error":
            self._status = "stopped"

    async def __aenter__(self) -> Watcher:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    async def _watch(self) -> None:
        """Feed batches of events from watchfiles to `_on_batch`."""
        try:
            async for batch in awatch(
                self.root,
                watch_filter=None,
                debounce=BATCH_MS,
                step=STEP_MS,
                stop_event=self._stop,
                rust_timeout=IDLE_TIMEOUT_MS,
                yield_on_timeout=True,
            ):
                if batch:
                    self._on_batch(path for _change, path in batch)
        except Exception as exc:
            log.exception("watching %s failed", self.root)
            self._status = "error"
            self._last_error = f"watching {self.root} failed: {exc!r}"
        finally:
            self._stop.set()
            self._wake.set()

    def _on_batch(self, absolute_paths: Iterable[str]) -> None:
        """Report the batch's relevant paths at once, then schedule a rebuild."""
        paths = {rel for rel in map(self._relative, absolute_paths) if rel is not None}
        if not paths:
            return
        self._last_event_at = time.time()
        self._scheduler.note_events(self._clock())
        self._wake.set()
        try:
            self._on_change(paths)
        except Exception as exc:
            log.exception("on_change failed for %d paths", len(paths))
            self._last_error = f"on_change failed: {exc!r}"

    def _relative(self, absolute: str) -> str | None:
        """The repo-relative POSIX path of an event, or None when it is filtered out."""
        try:
            rel = Path(absolute).relative_to(self.root).as_posix()
        except ValueError:
            return None
        if rel == "." or not self._path_filter(rel):
            return None
        return rel

    async def _drive(self) -> None:
        """Run rebuilds when the scheduler says they are due, one at a time."""
        while not self._stop.is_set():
            self._wake.clear()
            deadline = self._scheduler.deadline()
            now = self._clock()
            if deadline is None or deadline > now:
                timeout = None if deadline is None else deadline - now
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(timeout):
                        await self._wake.wait()
                continue
            self._scheduler.begin(now)
            try:
                await self._rebuild()
                self._rebuild_count += 1
            except Exception as exc:
                log.exception("rebuild of %s failed", self.root)
                self._failed_rebuilds += 1
                self._last_error = f"rebuild failed: {exc!r}"
            finally:
                self._scheduler.finish()
                self._last_rebuild_at = time.time()
