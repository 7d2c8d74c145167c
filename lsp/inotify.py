"""Linux inotify through ctypes: which paths were touched since the last look.

The kernel queues an event during the write itself, so a non-blocking read
right after a write has returned always sees it: the queue can be drained
before each query instead of stat-ing every file of the workspace. Anything
this watcher cannot vouch for (a folder created, moved or removed, or a
queue overflow) is reported as `rescan`, and the caller scans the disk.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import struct
import sys
from dataclasses import dataclass, field

_IN_MODIFY = 0x00000002
_IN_ATTRIB = 0x00000004
_IN_CLOSE_WRITE = 0x00000008
_IN_MOVED_FROM = 0x00000040
_IN_MOVED_TO = 0x00000080
_IN_CREATE = 0x00000100
_IN_DELETE = 0x00000200
_IN_DELETE_SELF = 0x00000400
_IN_MOVE_SELF = 0x00000800
_IN_Q_OVERFLOW = 0x00004000
_IN_IGNORED = 0x00008000
_IN_ONLYDIR = 0x01000000
_IN_DONT_FOLLOW = 0x02000000
_IN_ISDIR = 0x40000000

_FILE_EVENTS = (
    _IN_MODIFY
    | _IN_ATTRIB
    | _IN_CLOSE_WRITE
    | _IN_MOVED_FROM
    | _IN_MOVED_TO
    | _IN_CREATE
    | _IN_DELETE
)
_WATCH_MASK = _FILE_EVENTS | _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_ONLYDIR | _IN_DONT_FOLLOW
_RESCAN_EVENTS = _IN_Q_OVERFLOW | _IN_DELETE_SELF | _IN_MOVE_SELF | _IN_IGNORED
_HEADER = struct.Struct("iIII")
_READ_SIZE = 64 * 1024


@dataclass
class Touched:
    """What the queue held: files to look at again, or a reason to rescan."""

    files: set[str] = field(default_factory=set)
    rescan: bool = False


class Inotify:
    """Watches a set of folders (not recursively: the caller adds each one)."""

    def __init__(self, libc: ctypes.CDLL, fd: int) -> None:
        self._libc = libc
        self._fd = fd
        self._folders: dict[int, str] = {}

    @classmethod
    def open(cls) -> Inotify | None:
        """A watcher, or None where inotify is not available (not Linux, no fds)."""
        if not sys.platform.startswith("linux"):
            return None
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        return None if fd < 0 else cls(libc, fd)

    def watch(self, folder: str) -> bool:
        """Watch the entries of `folder`; False when the kernel refuses (limits)."""
        wd = self._libc.inotify_add_watch(self._fd, os.fsencode(folder), _WATCH_MASK)
        if wd < 0:
            return False
        self._folders[wd] = folder
        return True

    def drain(self) -> Touched:
        """Everything queued since the last drain."""
        touched = Touched()
        while True:
            try:
                data = os.read(self._fd, _READ_SIZE)
            except BlockingIOError:
                return touched
            offset = 0
            while offset < len(data):
                wd, mask, _cookie, length = _HEADER.unpack_from(data, offset)
                start = offset + _HEADER.size
                name = data[start : start + length].rstrip(b"\0")
                offset = start + length
                folder = self._folders.get(wd)
                if mask & _RESCAN_EVENTS or mask & _IN_ISDIR or folder is None:
                    touched.rescan = True
                elif name:
                    touched.files.add(os.path.join(folder, os.fsdecode(name)))

    def close(self) -> None:
        """Release the kernel queue."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
