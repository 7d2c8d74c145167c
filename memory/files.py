"""One file's content as a check sees it: bytes, text, hash and lines."""

from __future__ import annotations

from dataclasses import dataclass, field


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
