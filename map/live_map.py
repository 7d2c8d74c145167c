"""A CodeMap kept fresh by the watcher.

The glue between `map.watch.Watcher` and `map.codemap.CodeMap`: every batch
of file events flags its files stale in the map at once, and the debounced
rebuild runs `CodeMap.rebuild` and `save` in a worker thread, so the event
loop (and the stale flags) stay responsive while a large rebuild runs. A
file flagged during a rebuild stays stale: the map only clears flags older
than the rebuild's start, and the watcher queues one more rebuild for it.

Only files the map can hold are flagged; any other change (a directory, a
`.gitignore`) still triggers a rebuild. A moved or deleted directory is
reported as one event, so the map's files under it are flagged too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from map.codemap import CodeMap
from map.debounce import DebouncePolicy
from map.languages import language_for
from map.watch import Watcher, WatcherState, default_path_filter


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
    ) -> None:
        self.codemap = codemap
        self._path_filter = path_filter
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
        stale = {path for path in paths if language_for(path) is not None}
        prefixes = tuple(f"{path}/" for path in paths if language_for(path) is None)
        if prefixes:
            # tuple() copies the node IDs in one C call, safe while a rebuild thread runs;
            # file nodes are their paths, symbol IDs hold a '#'.
            nodes = tuple(self.codemap.graph)
            stale.update(n for n in nodes if "#" not in n and n.startswith(prefixes))
        if stale:
            self.codemap.mark_stale(stale)

    async def _rebuild(self) -> None:
        await asyncio.to_thread(self._rebuild_and_save)

    def _rebuild_and_save(self) -> None:
        self.codemap.rebuild()
        self.codemap.save()
