"""One file's content as a check sees it: bytes, text, hash and lines."""

from __future__ import annotations

from dataclasses import dataclass, field

from disk.errors import DiskError
from disk.stamps import content_hash
from disk.text import decode_source
from memory.git import BlobReader


@dataclass(slots=True)
class FileNow:
    """One file's current content."""

    path: str
    data: bytes
    text: str
    hash: str
    _lines: list[str] | None = field(default=None, repr=False)

    @property
    def lines(self) -> list[str]:
        """The lines, newlines kept; split at "\\n" only, as git and tree-sitter count them."""
        if self._lines is None:
            self._lines = self.text.split("\n")
            last = self._lines.pop()
            self._lines = [line + "\n" for line in self._lines]
            if last:
                self._lines.append(last)
        return self._lines

    def span(self, start: int, end: int) -> str:
        """Lines `start`..`end` (1-based, inclusive), newlines kept."""
        return "".join(self.lines[start - 1 : end])


def file_at(blobs: BlobReader, commit: str, path: str) -> FileNow | None:
    """The file at `path` as it was at `commit`; None when absent or not source text."""
    data = blobs.read(commit, path)
    if data is None:
        return None
    try:
        return FileNow(path, data, decode_source(data, path=path), content_hash(data))
    except DiskError:
        return None
