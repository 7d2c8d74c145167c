"""Columns: LSP counts UTF-16 code units, people and Python count code points.

This is the only place that converts between them.
"""

from __future__ import annotations


def utf16_length(text: str) -> int:
    """How many UTF-16 code units `text` takes."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def to_utf16(line: str, column: int) -> int:
    """The UTF-16 offset of code-point `column` (0-based) in `line`."""
    return utf16_length(line[:column])


def from_utf16(line: str, offset: int) -> int:
    """The code-point column (0-based) of UTF-16 `offset` in `line`.

    An offset past the end of the line clamps to the line's length.
    """
    units = 0
    for index, ch in enumerate(line):
        if units >= offset:
            return index
        units += 2 if ord(ch) > 0xFFFF else 1
    return len(line)


def byte_to_utf16(line_bytes: bytes, byte_column: int) -> int:
    """The UTF-16 offset of a UTF-8 byte column (as tree-sitter reports it)."""
    return utf16_length(line_bytes[:byte_column].decode("utf-8", errors="replace"))
