"""The workspace's source files by stat key, to tell servers what changed on disk.

Servers that do not watch the disk themselves learn about files changed
outside the editor (not open) through `workspace/didChangeWatchedFiles`. The
index holds the stat key of every file with one of the server's extensions,
and of the files it reads for the workspace's setup (go.mod, go.sum)
(a key too fresh to trust is backed by a content hash, see `lsp.racy`).

Before each query the index must learn what changed. On Linux an inotify
queue (`lsp.inotify`) names the files touched since the last look, and only
those are stat-ed again; a folder that came or went, or a full queue, means
a full scan, as everywhere else. Each folder is watched before it is listed,
so a write is either seen by the listing or queued. The scan skips hidden
folders (.git, .venv, ...), node_modules and __pycache__, and never follows
symlinked folders.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from lsprotocol.types import FileChangeType

from disk.stamps import FileStamp, content_hash
from lsp.inotify import Inotify
from lsp.racy import settled

_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__"})


@dataclass(frozen=True, slots=True)
class FileChange:
    """A file that came, changed or went since the last look."""

    path: Path
    kind: FileChangeType
    mtime_kept: bool = False
    """Changed, yet with the same mtime (`cp -p`, `rsync -t`, or within one tick)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    stamp: FileStamp
    seen_ns: int
    digest: str | None
    """The content hash, kept only while the stamp is too fresh to trust."""


@dataclass(frozen=True, slots=True)
class _Wanted:
    """Which files the index holds: by extension (lower case), or by name."""

    extensions: frozenset[str]
    names: frozenset[str]

    def __call__(self, name: str) -> bool:
        return name in self.names or name[name.rfind(".") :].lower() in self.extensions


def _scan(
    root: Path, wanted: _Wanted, watch: Callable[[str], object]
) -> Iterator[tuple[str, FileStamp]]:
    """Every source file under `root` with its stamp; `watch` sees each folder
    before it is listed. Paths stay plain strings: this can run before every
    query, and building a Path per file would cost more than its stat."""
    pending = [str(root)]
    while pending:
        folder = pending.pop()
        watch(folder)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            name = entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    if not name.startswith(".") and name not in _SKIPPED_DIRS:
                        pending.append(entry.path)
                    continue
                if not wanted(name):
                    continue
                st = entry.stat()
            except OSError:
                continue
            yield entry.path, FileStamp.from_stat(st)


def _restat(paths: Iterable[str], wanted: _Wanted) -> Iterator[tuple[str, FileStamp]]:
    """The stamps of those `paths` that are wanted files now."""
    for path in paths:
        if not wanted(os.path.basename(path)):
            continue
        try:
            st = os.stat(path)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            yield path, FileStamp.from_stat(st)


def _digest(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return content_hash(handle.read())
    except OSError:
        return None


class WorkspaceIndex:
    """Stamps of the workspace's files for one server, diffed on demand."""

    def __init__(
        self,
        root: Path,
        extensions: tuple[str, ...],
        *,
        names: tuple[str, ...] = (),
        use_inotify: bool = True,
    ) -> None:
        self._root = root
        self._wanted = _Wanted(frozenset(ext.lower() for ext in extensions), frozenset(names))
        self._use_inotify = use_inotify
        self._watcher: Inotify | None = None
        self._entries: dict[str, _Entry] = {}
        self._rescan()

    def __len__(self) -> int:
        return len(self._entries)

    def paths(self) -> list[str]:
        """Every file the index holds with one of its extensions (absolute paths, as
        of the last look)."""
        extensions = self._wanted.extensions
        return [path for path in self._entries if path[path.rfind(".") :].lower() in extensions]

    @property
    def watching(self) -> bool:
        """True while an inotify queue stands in for full scans."""
        return self._watcher is not None

    def changes(self) -> list[FileChange]:
        """What was created, changed or deleted since the last call (or creation)."""
        if self._watcher is None:
            return self._rescan()
        touched = self._watcher.drain()
        if touched.rescan:
            return self._rescan()
        seen_ns = time.time_ns()
        found: list[FileChange] = []
        present: set[str] = set()
        for path, stamp in _restat(touched.files, self._wanted):
            present.add(path)
            self._update(path, stamp, seen_ns, found)
        for path in touched.files - present:
            if self._entries.pop(path, None) is not None:
                found.append(FileChange(Path(path), FileChangeType.Deleted))
        return found

    def close(self) -> None:
        """Stop watching the disk."""
        if self._watcher is not None:
            self._watcher.close()
            self._watcher = None

    def _rescan(self) -> list[FileChange]:
        """Scan everything (watching each folder afresh) and diff with the index."""
        self.close()
        watcher = Inotify.open() if self._use_inotify else None
        refused: list[str] = []

        def watch(folder: str) -> None:
            if watcher is not None and not watcher.watch(folder):
                refused.append(folder)

        seen_ns = time.time_ns()
        old = self._entries
        self._entries = {}
        found: list[FileChange] = []
        for path, stamp in _scan(self._root, self._wanted, watch):
            before = old.get(path)
            if before is not None:
                self._entries[path] = before
            self._update(path, stamp, seen_ns, found)
        gone = old.keys() - self._entries.keys()
        found.extend(FileChange(Path(path), FileChangeType.Deleted) for path in gone)
        if watcher is not None and refused:  # e.g. fs.inotify.max_user_watches
            watcher.close()
        elif watcher is not None:
            self._watcher = watcher
        return found

    def _update(self, path: str, stamp: FileStamp, seen_ns: int, found: list[FileChange]) -> None:
        """Record `path`'s stamp and note how it changed, if it did."""
        before = self._entries.get(path)
        if before is not None and before.stamp == stamp and before.digest is None:
            return  # a trusted stamp that has not moved: the common case
        same_stamp = before is not None and before.stamp == stamp
        digest = _digest(path) if same_stamp else None
        if before is None:
            found.append(FileChange(Path(path), FileChangeType.Created))
        elif not same_stamp or digest != before.digest:
            kept = before.stamp.mtime_ns == stamp.mtime_ns
            found.append(FileChange(Path(path), FileChangeType.Changed, kept))
        racy = not settled(stamp, seen_ns)
        if racy and digest is None:
            digest = _digest(path)
        self._entries[path] = _Entry(stamp, seen_ns, digest if racy else None)
