"""The linker's per-file tables are held in the narrowest arrays that fit
(map.references, map.consulted): files too big for one byte read back whole."""

from __future__ import annotations

from map.consulted import Consulted
from map.model import Range, Reference
from map.references import References


def test_reference_columns_of_a_big_file_read_back_whole() -> None:
    """300 distinct names and lines past 70,000 do not fit a byte or two."""
    references = [
        Reference(f"name{i}", "calls", Range(i * 250, 4, i * 250, 9), f"big.py#f{i % 7}")
        for i in range(300)
    ]
    columns = References(references)
    for index, ref in enumerate(references):
        assert columns.lookup(index) == (ref.scope, ref.name, None, "calls")
        assert columns.line(index) == ref.range.first_line
    assert columns.line(299) == 74_751


def test_consulted_names_answer_the_references_that_consulted_them() -> None:
    consulted = Consulted()
    assert consulted.indexes(["a"]) == set() and consulted.names() == set()
    consulted.add({"b": [3, 1], "a": [2]})
    consulted.add({"b": [1, 70_000], "c": [0]})  # a relink adds; repeats are merged
    assert consulted.names() == {"a", "b", "c"}
    assert consulted.indexes(["b"]) == {1, 3, 70_000}
    assert consulted.indexes(["a", "c", "zzz"]) == {0, 2}
    assert consulted.indexes([""]) == set()
