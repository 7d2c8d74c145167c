"""UTF-16 columns from byte offsets, indexed once per file."""

from __future__ import annotations

from disk.columns import byte_to_utf16
from map.extraction.extract import extract_file
from map.extraction.positions import Positions

TEXT = "plain line\nx = '🎉é中' + y  # 𝄞\n\nlast 🎉 line é\n"


def test_every_character_boundary_matches_the_reference_conversion() -> None:
    data = TEXT.encode("utf-8")
    positions = Positions(data)
    line_start = 0
    for line in data.splitlines(keepends=True):
        for column in range(len(line) + 1):
            if column < len(line) and (line[column] & 0xC0) == 0x80:
                continue  # inside a multi-byte character
            expected = byte_to_utf16(line, column)
            assert positions.column(line_start + column, column) == expected
        line_start += len(line)


def test_a_minified_line_is_extracted_with_exact_columns() -> None:
    body = "".join(f"function f{i}(){{return '€'+g{i}()}}" for i in range(3000))
    found = extract_file("dist/bundle.js", body.encode("utf-8"))
    last = next(r for r in found.references if r.name == "g2999")
    assert last.range.start_line == 0
    assert last.range.start_char == body.index("g2999()")
    assert len(found.symbols) == 3000
