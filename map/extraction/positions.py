"""Tree-sitter byte positions -> LSP positions (UTF-16 columns) for one file.

Tree-sitter reports (row, byte column). LSP counts UTF-16 code units. The
conversion is indexed once per file, so a minified file with one huge line
costs O(log n) per position instead of a rescan of the line each time.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from tree_sitter import Node

from disk.columns import utf16_length
from map.model import Range

_MULTIBYTE_START = re.compile(rb"[\xc0-\xff]")


class Positions:
    """LSP positions in one UTF-8 buffer."""

    def __init__(self, data: bytes) -> None:
        self._starts: list[int] = []
        self._saved: list[int] = []
        if data.isascii():
            return
        saved = 0
        for match in _MULTIBYTE_START.finditer(data):
            start = match.start()
            lead = data[start]
            width = 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
            char = data[start : start + width].decode("utf-8", errors="replace")
            saved += width - utf16_length(char)
            self._starts.append(start)
            self._saved.append(saved)

    def column(self, offset: int, byte_column: int) -> int:
        """The UTF-16 column of byte `offset`, which is `byte_column` bytes into its line."""
        if not self._starts or byte_column == 0:
            return byte_column
        return byte_column - self._saved_before(offset) + self._saved_before(offset - byte_column)

    def range(self, first: Node, last: Node) -> Range:
        """From the start of `first` to the end of `last`."""
        (start_line, start_col), (end_line, end_col) = first.start_point, last.end_point
        return Range(
            start_line,
            self.column(first.start_byte, start_col),
            end_line,
            self.column(last.end_byte, end_col),
        )

    def _saved_before(self, offset: int) -> int:
        """UTF-8 bytes beyond UTF-16 units for the characters before `offset`."""
        index = bisect_left(self._starts, offset)
        return self._saved[index - 1] if index else 0
