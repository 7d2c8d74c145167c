"""Extraction behaviour on Python sources: IDs, columns, errors."""

from __future__ import annotations

import pytest

from disk.errors import UndecodableFileError
from map.extraction.extract import extract_file
from map.model import FileExtract, Symbol


def extract(source: str, path: str = "pkg/mod.py") -> FileExtract:
    return extract_file(path, source.encode("utf-8"))


def symbol(extract_: FileExtract, node_id: str) -> Symbol:
    return next(s for s in extract_.symbols if s.node_id == node_id)


def test_repeated_qualified_names_are_numbered_in_file_order() -> None:
    found = extract(
        "class C:\n"
        "    @property\n"
        "    def x(self): return 1\n"
        "    @x.setter\n"
        "    def x(self, v): pass\n"
        "    @x.deleter\n"
        "    def x(self): pass\n"
    )
    ids = [s.node_id for s in found.symbols]
    assert ids == ["pkg/mod.py#C", "pkg/mod.py#C.x", "pkg/mod.py#C.x~2", "pkg/mod.py#C.x~3"]
    assert [symbol(found, i).range.first_line for i in ids[1:]] == [2, 4, 6]


def test_columns_count_utf16_units_after_non_ascii_text() -> None:
    line = 'value = "🎉é"; run()\n'
    found = extract(line)
    call = next(r for r in found.references if r.name == "run")
    # 🎉 takes two UTF-16 units and four UTF-8 bytes; é one unit, two bytes
    assert call.range.start_char == line.index("run") + 1
    assert call.range.end_char == call.range.start_char + 3


def test_undecodable_file_raises_typed_error() -> None:
    with pytest.raises(UndecodableFileError, match=r"pkg/latin1\.py"):
        extract_file("pkg/latin1.py", "name = 'caf\u00e9'\n".encode("latin-1"))


def test_unsupported_extension_is_a_value_error() -> None:
    with pytest.raises(ValueError, match=r"notes\.txt"):
        extract_file("notes.txt", b"hello")


def test_syntax_errors_keep_what_can_be_recovered() -> None:
    found = extract(
        "def good():\n"
        "    return helper()\n"
        "\n"
        "def broken(:\n"
        "    pass\n"
        "\n"
        "class After:\n"
        "    def method(self): ...\n"
    )
    ids = {s.node_id for s in found.symbols}
    assert {"pkg/mod.py#good", "pkg/mod.py#After", "pkg/mod.py#After.method"} <= ids
    assert any(r.name == "helper" for r in found.references)


def test_byte_order_mark_is_not_part_of_columns() -> None:
    found = extract_file("bom.py", b"\xef\xbb\xbfdef f(): pass\n")
    assert symbol(found, "bom.py#f").selection.start_char == 4


def test_module_level_upper_case_assignments_are_constants() -> None:
    found = extract("LIMIT = 3\nlimit = 4\ndef f():\n    INNER = 5\n")
    assert [(s.qualname, s.kind) for s in found.symbols] == [
        ("LIMIT", "constant"),
        ("f", "function"),
    ]


def test_content_hash_covers_the_whole_file() -> None:
    assert extract("x = 1\n").content_hash != extract("x = 2\n").content_hash


def test_comments_after_the_last_statement_are_not_part_of_the_body() -> None:
    found = extract(
        "def f():\n"
        "    if ready:\n"
        "        go()\n"
        "        # nested trailing note\n"
        "    # trailing note\n"
        "\n"
        "def g(): pass\n"
    )
    assert (
        symbol(found, "pkg/mod.py#f").range.first_line,
        symbol(found, "pkg/mod.py#f").range.last_line,
    ) == (1, 3)
