"""Stale flags: files changed on disk since the map's last build, as it was told;
and whether one file did (`changed_since`), checked on disk.

The watcher flags files from the event loop while a rebuild runs in a worker
thread, so the flags have their own lock. A flag is cleared only by a rebuild
that started after it was raised (and that checked the file).
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path, PurePosixPath

from disk.stamps import FileStamp, content_hash


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


def relative_path(root: Path, path: str) -> str | None:
    """`path` (absolute, or relative to `root`) as a map path; None when outside `root`."""
    pure = Path(path)
    if not pure.is_absolute():
        return PurePosixPath(path).as_posix()
    try:
        return PurePosixPath(pure.relative_to(root)).as_posix()
    except ValueError:
        return None


def changed_since(root: Path, path: str, recorded: tuple[FileStamp, str] | None) -> bool:
    """Whether file `path` differs now from its `recorded` stamp and content hash
    (None: the map does not hold it): moved, vanished or new. The stat stamp
    decides when it is unchanged; otherwise the content hash does."""
    absolute = os.path.join(root, path)  # no pathlib: map_status runs this on every file
    stamp = FileStamp.of(absolute)
    if recorded is None or stamp is None:
        return (recorded is None) != (stamp is None)
    if stamp == recorded[0]:
        return False
    try:
        with open(absolute, "rb") as handle:
            return content_hash(handle.read()) != recorded[1]
    except OSError:
        return True


def changed_among(root: Path, recorded: Mapping[str, tuple[FileStamp, str]]) -> list[str]:
    """The files of `recorded` (path -> stamp and content hash) that differ now, as
    `changed_since` tells each: one stat per file, a hash only where a stamp moved."""
    base = os.path.join(root, "")
    moved: list[str] = []
    for path, (stamp, _) in recorded.items():
        try:
            st = os.stat(base + path)
        except OSError:
            moved.append(path)
            continue
        if not stat.S_ISREG(st.st_mode) or FileStamp.from_stat(st) != stamp:
            moved.append(path)
    return [path for path in moved if changed_since(root, path, recorded[path])]
