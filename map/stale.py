"""Stale flags: files changed on disk since the map's last build, as it was told.

The watcher flags files from the event loop while a rebuild runs in a worker
thread, so the flags have their own lock. A flag is cleared only by a rebuild
that started after it was raised (and that checked the file).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Collection, Iterable


class StaleFlags:
    """Which files changed since the last build, each with when it was flagged."""

    def __init__(self) -> None:
        self._flags: dict[str, int] = {}
        self._lock = threading.Lock()

    @staticmethod
    def now() -> int:
        """The clock flags are stamped with (monotonic nanoseconds)."""
        return time.monotonic_ns()

    def mark(self, paths: Iterable[str]) -> None:
        """Flag `paths` as changed now."""
        when = self.now()
        with self._lock:
            self._flags.update(dict.fromkeys(paths, when))

    def clear(self, *, started: int, checked: Collection[str] | None) -> None:
        """Drop the flags a rebuild that began at `started` settled: those raised
        before it, on files it checked (`None`: it checked every file)."""
        with self._lock:
            self._flags = {
                path: when
                for path, when in self._flags.items()
                if when > started or (checked is not None and path not in checked)
            }

    def paths(self) -> frozenset[str]:
        """The flagged files."""
        with self._lock:
            return frozenset(self._flags)
