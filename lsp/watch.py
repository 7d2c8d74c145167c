"""The workspace's source files by stat key, to tell servers what changed on disk.

Servers that do not watch the disk themselves learn about files changed
outside the editor (not open) through `workspace/didChangeWatchedFiles`. The
index holds the stat key of every file with one of the server's extensions;
before each query it is compared with a fresh scan (a key too fresh to trust
is backed by a content hash, see `lsp.racy`). The scan skips hidden
folders (.git, .venv, ...), node_modules and __pycache__, and never follows
symlinked folders.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lsprotocol.types import FileChangeType

from disk.stamps import FileStamp, content_hash
from lsp.racy import settled

_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__"})


def _scan(root: Path, extensions: frozenset[str]) -> Iterator[tuple[str, FileStamp]]:
    """Every source file under `root` with its stamp (plain strings: this runs
    before every query, and building a Path per file would cost more than the stat)."""
    pending = [str(root)]
    while pending:
        folder = pending.pop()
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
                if name[name.rfind(".") :].lower() not in extensions:
                    continue
                st = entry.stat()
            except OSError:
                continue
            yield (
                entry.path,
                FileStamp(
                    size=st.st_size,
                    mtime_ns=st.st_mtime_ns,
                    ctime_ns=st.st_ctime_ns,
                    inode=st.st_ino,
                ),
            )


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


def _digest(path: str) -> str | None:
    try:
        with open(path, "rb") as handle:
            return content_hash(handle.read())
    except OSError:
        return None


class WorkspaceIndex:
    """Stamps of the workspace's files for one server, diffed on demand."""

    def __init__(self, root: Path, extensions: tuple[str, ...]) -> None:
        self._root = root
        self._extensions = frozenset(ext.lower() for ext in extensions)
        self._entries = self._look({})[0]

    def __len__(self) -> int:
        return len(self._entries)

    def changes(self) -> list[FileChange]:
        """What was created, changed or deleted since the last call (or creation)."""
        fresh, found = self._look(self._entries)
        gone = self._entries.keys() - fresh.keys()
        found.extend(FileChange(Path(path), FileChangeType.Deleted) for path in gone)
        self._entries = fresh
        return found

    def _look(self, old: dict[str, _Entry]) -> tuple[dict[str, _Entry], list[FileChange]]:
        seen_ns = time.time_ns()
        fresh: dict[str, _Entry] = {}
        found: list[FileChange] = []
        for path, stamp in _scan(self._root, self._extensions):
            before = old.get(path)
            if before is not None and before.stamp == stamp and before.digest is None:
                fresh[path] = before  # a trusted stamp that has not moved: the common case
                continue
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
            fresh[path] = _Entry(stamp, seen_ns, digest if racy else None)
        return fresh, found
