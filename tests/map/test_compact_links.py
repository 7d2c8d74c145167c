"""The linker's per-file tables are held in the narrowest arrays that fit
(map.linking.references, map.linking.consulted): files too big for one byte read back whole."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from map.linking.consulted import Consulted
from map.linking.references import References
from map.model import Range, Reference


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


@given(
    st.dictionaries(
        st.text(alphabet="abcé_", max_size=3),
        st.lists(st.integers(min_value=0, max_value=70_000), max_size=5),
        max_size=8,
    ),
    st.dictionaries(
        st.text(alphabet="abcé_", max_size=3),
        st.lists(st.integers(min_value=0, max_value=70_000), max_size=5),
        max_size=8,
    ),
)
def test_consulted_holds_its_pairs_sorted_whether_filled_or_added_to(
    first: dict[str, list[int]], then: dict[str, list[int]]
) -> None:
    """A table filled at once (a file linked whole) holds what adding to one does:
    each (name, index) pair once, sorted by name then index."""
    consulted = Consulted()
    consulted.add(first)
    consulted.add(then)
    pairs = sorted({(n, i) for found in (first, then) for n, run in found.items() for i in run})
    names, ends, indexes = consulted.lists()
    starts = [0, *ends][: len(ends)]
    runs = zip(names, starts, ends, strict=True)
    assert [(n, i) for n, start, end in runs for i in indexes[start:end]] == pairs
    assert names == sorted({n for n, _ in pairs})
