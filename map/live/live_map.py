"""A CodeMap kept fresh by the watcher.

The glue between `map.live.watch.Watcher` and `map.live.codemap.CodeMap`: every batch
of file events flags its files stale in the map at once, and the debounced
rebuild runs `CodeMap.rebuild` and `save` in a worker thread, so the event
loop (and the stale flags) stay responsive while a large rebuild runs. A
file flagged during a rebuild stays stale: the map only clears flags older
than the rebuild's start, and the watcher queues one more rebuild for it.

Only files the map can hold are flagged; any other change (a directory, a
`.gitignore`) still triggers a rebuild. A moved or deleted directory is
reported as one event, so the map's files under it are flagged too.

The rebuild is told every path seen since the previous one began
(`CodeMap.rebuild(paths=...)`), so an edit to a known file checks that
file only; a path the map does not know makes it scan the whole tree.
Give a `lock` to keep readers from seeing half a graph: it is held for
the rebuild, and again for the save that follows, so readers waiting for
it answer from the new graph before it is saved; it is not held while a
graph not loaded yet loads from the store (readers answer from the store
meanwhile).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from map.extraction.languages import language_for
from map.live.codemap import CodeMap
from map.live.debounce import DebouncePolicy
from map.live.watch import Watcher, WatcherState, default_path_filter


class LiveMap:
    """Watches `codemap.root` and rebuilds `codemap` after each burst of changes.

    Use as `async with LiveMap(codemap):`, or `await start()` / `await stop()`.
    """

    def __init__(
        self,
        codemap: CodeMap,
        *,
        policy: DebouncePolicy | None = None,
        path_filter: Callable[[str], bool] = default_path_filter,
        lock: asyncio.Lock | None = None,
    ) -> None:
        self.codemap = codemap
        self._path_filter = path_filter
        self._lock = lock or asyncio.Lock()
        self._changed: set[str] = set()
        snapshot_dir = codemap.snapshot_path.parent
        self._own_dir = (
            snapshot_dir.relative_to(codemap.root).as_posix()
            if snapshot_dir.is_relative_to(codemap.root)
            else None
        )
        self._watcher = Watcher(
            codemap.root,
            self._flag,
            self._rebuild,
            policy=policy,
            path_filter=self._watched,
        )

    def state(self) -> WatcherState:
        """The watcher's state, for `map status`."""
        return self._watcher.state()

    async def start(self) -> None:
        """Start watching; returns once changes are being seen."""
        await self._watcher.start()

    async def stop(self) -> None:
        """Stop watching; a rebuild in progress finishes first."""
        await self._watcher.stop()

    async def __aenter__(self) -> LiveMap:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    def _watched(self, path: str) -> bool:
        """The caller's filter, minus the snapshot directory (saving must not trigger rebuilds)."""
        own = self._own_dir
        if own is not None and (path == own or path.startswith(f"{own}/")):
            return False
        return self._path_filter(path)

    def _flag(self, paths: set[str]) -> None:
        """Flag the changed source files, and the map's files under any other path
        (it may be a moved or deleted directory)."""
        self._changed |= paths
        stale = {path for path in paths if language_for(path) is not None}
        if others := paths - stale:
            prefixes = tuple(f"{path}/" for path in others)
            stale.update(path for path in self.codemap.files() if path.startswith(prefixes))
        if stale:
            self.codemap.mark_stale(stale)

    async def _rebuild(self) -> None:
        changed, self._changed = self._changed, set()
        try:
            async with self._lock:  # a check of the disk under way (a server's first) ends
                pass
            # outside the lock: readers keep answering from the store meanwhile
            await asyncio.to_thread(self.codemap.load_graph)
            async with self._lock:
                await asyncio.to_thread(self.codemap.rebuild, None, changed)
        except BaseException:
            self._changed |= changed  # the next rebuild covers them again
            raise
        async with self._lock:  # readers waiting for the rebuild answer first
            await asyncio.to_thread(self.codemap.save)
