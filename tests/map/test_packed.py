"""A loaded map keeps each extract packed and its references as compact columns
(map.linking.packed, map.linking.references): what it reads back equals what extraction gave."""

from __future__ import annotations

from map.extraction.extract import extract_file
from map.extraction.snapshot import decode_extract, encode_extract
from map.linking.packed import PackedExtracts
from map.linking.references import References

SOURCE = b"""import os
from pkg import helpers as h


class Store(h.Base):
    def issue(self, user):
        token = h.make(user)
        self.save(token)
        return os.path.join("a", token)

    def save(self, token):
        print(token)


def main():
    Store().issue("me")
"""


def test_a_packed_extract_reads_back_equal_to_the_extract() -> None:
    extract = extract_file("pkg/store.py", SOURCE)
    packed = PackedExtracts()
    packed.put(extract)
    assert list(packed) == ["pkg/store.py"]
    assert packed["pkg/store.py"] == extract
    assert packed.get("pkg/other.py") is None
    packed.pop("pkg/store.py")
    assert "pkg/store.py" not in packed


def test_reference_columns_keep_what_resolution_and_use_lines_read() -> None:
    extract = extract_file("pkg/store.py", SOURCE)
    assert {r.kind for r in extract.references} >= {"calls", "inherits"}
    columns = References(extract.references)
    assert len(columns) == len(extract.references)
    for index, ref in enumerate(extract.references):
        assert columns.lookup(index) == (ref.scope, ref.name, ref.qualifier, ref.kind)
        assert columns.line(index) == ref.range.first_line
        assert columns.key(index, "pkg/x.py#f") == (ref.scope, "pkg/x.py#f", ref.kind)


def test_reference_columns_read_from_the_stored_lists_equal_those_of_the_extract() -> None:
    extract = extract_file("pkg/store.py", SOURCE)
    lists = encode_extract(extract)
    stored = References.of_stored("pkg/store.py", lists[4])
    columns = References(extract.references)
    assert len(stored) == len(columns)
    for index in range(len(columns)):
        assert stored.lookup(index) == columns.lookup(index)
        assert stored.line(index) == columns.line(index)
        assert stored.key(index, "pkg/x.py#f") == columns.key(index, "pkg/x.py#f")
    linked = decode_extract("pkg/store.py", lists, bases_only=True)
    assert linked.references == tuple(r for r in extract.references if r.kind == "inherits")
    assert linked.references and (linked.symbols, linked.imports) == (
        extract.symbols,
        extract.imports,
    )
