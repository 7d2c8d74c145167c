"""The workspace's source files by stat key, to tell servers what changed on disk.

Servers that do not watch the disk themselves learn about files changed
outside the editor (not open) through `workspace/didChangeWatchedFiles`. The
index holds the stat key of every file with one of the server's extensions;
before each query it is compared with a fresh scan. The scan skips hidden
folders (.git, .venv, ...), node_modules and __pycache__, and never follows
symlinked folders.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from lsprotocol.types import FileChangeType

from disk.stamps import FileStamp

_SKIPPED_DIRS = frozenset({"node_modules", "__pycache__"})


def _scan(root: Path, extensions: frozenset[str]) -> Iterator[tuple[Path, FileStamp]]:
    """Every source file under `root` with its stamp."""
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
                if os.path.splitext(name)[1].lower() not in extensions:
                    continue
                st = entry.stat()
            except OSError:
                continue
            yield (
                Path(entry.path),
                FileStamp(
                    size=st.st_size,
                    mtime_ns=st.st_mtime_ns,
                    ctime_ns=st.st_ctime_ns,
                    inode=st.st_ino,
                ),
            )


class WorkspaceIndex:
    """Stamps of the workspace's files for one server, diffed on demand."""

    def __init__(self, root: Path, extensions: tuple[str, ...]) -> None:
        self._root = root
        self._extensions = frozenset(ext.lower() for ext in extensions)
        self._stamps = dict(_scan(root, self._extensions))

    def __len__(self) -> int:
        return len(self._stamps)

    def changes(self) -> list[tuple[Path, FileChangeType]]:
        """What was created, changed or deleted since the last call (or creation)."""
        fresh = dict(_scan(self._root, self._extensions))
        old = self._stamps
        found: list[tuple[Path, FileChangeType]] = []
        for path, stamp in fresh.items():
            before = old.get(path)
            if before is None:
                found.append((path, FileChangeType.Created))
            elif before != stamp:
                found.append((path, FileChangeType.Changed))
        found.extend((path, FileChangeType.Deleted) for path in old.keys() - fresh.keys())
        self._stamps = fresh
        return found
