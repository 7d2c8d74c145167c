"""What linking decided, as the map store keeps it: map.linking.link_rows' encoding and
map.linking.consulted's lists give back what they were given."""

from __future__ import annotations

import pytest

from map.linking.consulted import Consulted
from map.linking.link_rows import decode_links, encode_links
from map.linking.resolution import Resolution


def _consulted(found: dict[str, list[int]]) -> Consulted:
    consulted = Consulted()
    consulted.add(found)
    return consulted


def _pairs(consulted: Consulted) -> set[tuple[str, int]]:
    return {(name, i) for name in consulted.names() for i in consulted.indexes([name])}


CALL = Resolution(("pkg/core.py#helper",), 1.0)
RESULTS: list[Resolution | None] = [
    None,
    CALL,
    Resolution(("a.py#f", "b.py#f", "c.py#f"), 1 / 3),  # candidates
    None,
    Resolution(("pkg/core.py#Engine",), 1.0, ("pkg/core.py#Engine.__init__",)),  # a class built
    Resolution(("pkg/core.py#helper",), 1.0),  # equal to CALL, another object
    Resolution(("pkg/core.py#Engine.__init__", "pkg/core.py#helper"), 0.5),
    None,  # the last reference open: the count is kept
]


def test_resolutions_and_consulted_names_come_back_as_they_were() -> None:
    deps = _consulted({"helper": [1, 5, 6], "f": [2], "Engine": [4, 6], "os": [0, 3, 7]})
    results, back = decode_links(encode_links(RESULTS, deps), {})
    assert results == RESULTS
    assert _pairs(back) == _pairs(deps)
    assert back.lists() == deps.lists()


def test_equal_resolutions_are_one_object_across_the_rows_of_a_load() -> None:
    shared: dict[Resolution, Resolution] = {}
    first, _ = decode_links(encode_links(RESULTS, Consulted()), shared)
    second, _ = decode_links(encode_links([None, CALL], Consulted()), shared)
    assert first[1] is first[5] is second[1]
    assert first[4] is not None and first[4].constructors == ("pkg/core.py#Engine.__init__",)


def test_a_file_without_references_or_resolutions() -> None:
    assert decode_links(encode_links([], Consulted()), {})[0] == []
    results, deps = decode_links(encode_links([None, None], _consulted({"x": [1]})), {})
    assert results == [None, None] and _pairs(deps) == {("x", 1)}


@pytest.mark.parametrize(
    "blob", [b"", b"garbage", b"[1, 2]", b"[1, [], [[5, [0], 1.0]], [], [], []]"]
)
def test_a_malformed_row_raises_what_decode_links_promises(blob: bytes) -> None:
    with pytest.raises((ValueError, KeyError, TypeError, IndexError)):
        decode_links(blob, {})


@pytest.mark.parametrize("indexes", [3, 300, 70_000])
def test_consulted_lists_give_back_the_table(indexes: int) -> None:
    """Whatever array width the indexes and run ends need."""
    found = {f"name{n}": list(range(n, indexes + 7, 7)) for n in range(7)}
    consulted = _consulted(found)
    back = Consulted.of_lists(*consulted.lists())
    assert back.lists() == consulted.lists()
    assert _pairs(back) == _pairs(consulted)
    assert back.indexes(["name3", "absent"]) == set(found["name3"])
    back.add({"name3": [indexes + 9], "new": [0]})  # still a table that grows
    assert back.indexes(["name3"]) == {*found["name3"], indexes + 9}
    assert back.names() == {*found, "new"}
