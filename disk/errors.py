"""Errors about files on disk.

DiskError
├── OutsideRootError      the path (or a symlink on it) leaves the root
├── MissingFileError      no such file
└── UnreadableFileError   the file exists but is not usable source text
    ├── BinaryFileError
    ├── FileTooLargeError
    └── UndecodableFileError
"""

from __future__ import annotations


class DiskError(Exception):
    """A file could not be used; the message says which file and why."""

    def __init__(self, message: str, *, path: str) -> None:
        super().__init__(message)
        self.path = path


class OutsideRootError(DiskError):
    """The path resolves outside the workspace root."""


class MissingFileError(DiskError):
    """The path names no existing regular file."""


class UnreadableFileError(DiskError):
    """The file exists but cannot be read as source text."""


class BinaryFileError(UnreadableFileError):
    """The file holds binary data."""


class FileTooLargeError(UnreadableFileError):
    """The file is larger than the configured cap."""


class UndecodableFileError(UnreadableFileError):
    """The file is not valid UTF-8."""
