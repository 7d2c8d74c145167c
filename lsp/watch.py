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


@dataclass(frozen=True, slots=True)
class _Entry:
    stamp: FileStamp
    seen_ns: int
    digest: str | None
    """The content hash, kept only while the stamp is too fresh to trust."""


def _digest(path: Path) -> str | None:
    try:
        return content_hash(path.read_bytes())
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

    def changes(self) -> list[tuple[Path, FileChangeType]]:
        """What was created, changed or deleted since the last call (or creation)."""
        fresh, found = self._look(self._entries)
        found.extend((path, FileChangeType.Deleted) for path in self._entries.keys() - fresh.keys())
        self._entries = fresh
        return found

    def _look(
        self, old: dict[Path, _Entry]
    ) -> tuple[dict[Path, _Entry], list[tuple[Path, FileChangeType]]]:
        seen_ns = time.time_ns()
        fresh: dict[Path, _Entry] = {}
        found: list[tuple[Path, FileChangeType]] = []
        for path, stamp in _scan(self._root, self._extensions):
            before = old.get(path)
            racy = before is not None and not settled(before.stamp, before.seen_ns)
            digest = _digest(path) if racy or not settled(stamp, seen_ns) else None
            fresh[path] = _Entry(stamp, seen_ns, digest)
            if before is None:
                found.append((path, FileChangeType.Created))
            elif before.stamp != stamp or (racy and before.digest != digest):
                found.append((path, FileChangeType.Changed))
        return fresh, found
