"""Parsing and checking of TARGETs (node IDs and positions)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridge.contract.errors import BadInputError
from bridge.tools.targets import (
    PositionTarget,
    parse_node_id,
    parse_target,
    to_lsp_position,
)
from disk.errors import MissingFileError, OutsideRootError
from verify import NodeTarget


def test_node_ids_round_trip() -> None:
    for text in ("src/a.py", "src/a.py#Store", "src/a.py#Store.get", "src/a.py#Store.get~3"):
        assert parse_node_id(text).node_id == text
    assert parse_node_id("src/a.py#Store.get~2") == NodeTarget("src/a.py", "Store.get", 2)
    assert parse_node_id("src/a.py#Store.get").parts == ("Store", "get")


@pytest.mark.parametrize("bad", ["#Store", "a.py#", "a.py#A#B", "a.py#A..b", "a.py#A~1"])
def test_malformed_node_ids_are_rejected_with_an_example(bad: str) -> None:
    with pytest.raises(BadInputError) as info:
        parse_node_id(bad)
    assert "malformed node ID" in info.value.message


def test_positions_parse_and_names_need_a_line() -> None:
    assert parse_target("a.py:12") == PositionTarget("a.py", 12)
    assert parse_target("a.py:12:5") == PositionTarget("a.py", 12, 5)
    assert parse_target("a.py:12", name="f") == PositionTarget("a.py", 12, name="f")
    with pytest.raises(BadInputError):
        parse_target("a.py#f", name="f")
    with pytest.raises(BadInputError):
        parse_target("a.py:0")
    with pytest.raises(BadInputError):
        parse_target("   ")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    (tmp_path / "m.py").write_text("x = 1\n    greet_all(names)  # 😀 greet\ns = '😀'; greet()\n")
    return tmp_path


def test_position_finds_the_name_and_counts_utf16(repo: Path) -> None:
    pos = to_lsp_position(repo, PositionTarget("m.py", 2, name="greet_all"))
    assert (pos.path, pos.line, pos.character) == ("m.py", 1, 4)
    # the emoji before `greet` takes two UTF-16 code units
    pos = to_lsp_position(repo, PositionTarget("m.py", 3, name="greet"))
    assert pos.character == len("s = '😀'; ") + 1


def test_position_without_column_points_at_first_non_blank(repo: Path) -> None:
    assert to_lsp_position(repo, PositionTarget("m.py", 2)).character == 4


def test_bad_positions_say_what_is_wrong(repo: Path) -> None:
    with pytest.raises(BadInputError, match="past the end of the file"):
        to_lsp_position(repo, PositionTarget("m.py", 99))
    with pytest.raises(BadInputError, match="does not appear"):
        to_lsp_position(repo, PositionTarget("m.py", 1, name="nothing"))
    with pytest.raises(BadInputError, match="past the end of the line"):
        to_lsp_position(repo, PositionTarget("m.py", 1, column=40))
    with pytest.raises(MissingFileError):
        to_lsp_position(repo, PositionTarget("gone.py", 1))
    with pytest.raises(OutsideRootError):
        to_lsp_position(repo, PositionTarget("../m.py", 1))
