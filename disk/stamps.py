"""The stat prefilter key and the content hash that decides."""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class FileStamp:
    """What `stat` says about a file; when it moves, hash the file again.

    ctime and inode are part of the key because `cp -p` and `rsync -t`
    restore mtime: an mtime-only check would miss those edits.
    """

    size: int
    mtime_ns: int
    ctime_ns: int
    inode: int

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> FileStamp | None:
        """The stamp of `path`, or None when it is gone or not a regular file."""
        try:
            st = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            return None
        if not stat.S_ISREG(st.st_mode):
            return None
        return cls.from_stat(st)

    @classmethod
    def from_stat(cls, st: os.stat_result) -> FileStamp:
        """The stamp in a `stat` result already at hand (a listing's `lstat`)."""
        return cls(st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


def content_hash(data: bytes) -> str:
    """A short, stable hex digest of `data` (BLAKE2b, 128 bits)."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()
