"""map.store.lazy_table.LazyTable: each key loaded once, on its first read; what was set or
popped never loaded over; `empty` and `known` as the linker's tables use them."""

from __future__ import annotations

import pytest

from map.store.lazy_table import LazyTable


class Source:
    """A loader over `values` that counts what it was asked."""

    def __init__(self, **values: int) -> None:
        self.values = values
        self.asked: list[str] = []

    def __call__(self, key: str) -> int | None:
        self.asked.append(key)
        return self.values.get(key)


def test_a_key_is_loaded_once_whatever_reads_it() -> None:
    source = Source(a=1)
    table = LazyTable(source)
    assert table["a"] == 1
    assert table.get("a") == 1
    assert "a" in table
    assert table["a"] == 1
    assert source.asked == ["a"]


def test_a_key_the_loader_lacks_is_asked_once_and_stays_missing() -> None:
    source = Source()
    table = LazyTable(source)
    with pytest.raises(KeyError):
        table["x"]
    assert table.get("x", 7) == 7
    assert "x" not in table
    with pytest.raises(KeyError):
        table["x"]
    assert source.asked == ["x"]


def test_what_is_set_is_never_loaded_over() -> None:
    source = Source(a=1)
    table = LazyTable(source)
    table["a"] = 2
    assert (table["a"], table.get("a"), "a" in table) == (2, 2, True)
    assert source.asked == []


def test_what_is_popped_is_not_loaded_again() -> None:
    source = Source(a=1, b=2)
    table = LazyTable(source)
    assert table.pop("a") == 1  # loaded first: what the store held
    assert table.pop("a", None) is None
    assert "a" not in table and table.get("a") is None
    with pytest.raises(KeyError):
        table["a"]
    assert table.pop("c", "gone") == "gone"
    assert source.asked == ["a", "c"]


def test_empty_makes_a_missing_keys_value_once() -> None:
    loaded: list[str] = []

    def load(key: str) -> set[str] | None:
        loaded.append(key)
        return {"stored"} if key == "a" else None

    table = LazyTable[str, set[str]](load, empty=set)
    table["x"].add("new")
    assert table["x"] == {"new"}  # the same set, not a fresh one
    assert table["a"] == {"stored"}
    assert table.get("y") is None  # `get` makes nothing
    assert "y" not in table
    assert loaded == ["x", "a", "y"]


def test_known_answers_membership_without_loading() -> None:
    source = Source(a=1)
    table = LazyTable(source, known=lambda key: key in {"a", "b"})
    assert "a" in table and "b" in table and "c" not in table
    assert source.asked == []
    assert table.get("b") is None  # known but not loadable: settled as missing
    assert "b" not in table
    assert table["a"] == 1
    assert source.asked == ["b", "a"]


def test_iteration_and_length_see_only_what_was_loaded_and_the_table_is_true() -> None:
    table = LazyTable(Source(a=1, b=2))
    assert table and len(table) == 0 and list(table) == []
    table.get("b")
    table["c"] = 3
    assert sorted(table.items()) == [("b", 2), ("c", 3)]
