"""The MCP server on hostile input: every failure is the error envelope, and serving goes on.

One `codeanchor serve` per client kind for the whole module, on a private copy
of the bundled example with symlink loops in it. After every refused call
the same server must still answer a good one. None of these inputs reaches
a language server.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.adversarial.mcp_clients import RawSession, SharedSession, envelope_of
from tests.bridge.mcp_session import example_repo


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = example_repo(tmp_path_factory.mktemp("mcp"), watch=False)
    (root / "loop_a.py").symlink_to("loop_b.py")
    (root / "loop_b.py").symlink_to("loop_a.py")
    return root


@pytest.fixture(scope="module")
def session(repo: Path) -> Iterator[SharedSession]:
    shared = SharedSession(repo)
    yield shared
    shared.close()


@pytest.fixture(scope="module")
def raw(repo: Path) -> Iterator[RawSession]:
    session = RawSession(repo)
    yield session
    session.close()


def line_of(root: Path, path: str, needle: str) -> int:
    lines = (root / path).read_text().splitlines()
    return next(i for i, text in enumerate(lines, 1) if needle in text)


def refused(session: SharedSession, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The error of a call that must fail with the envelope; checks the server still serves."""
    is_error, text = session.call(tool, arguments)
    assert is_error, text
    error: dict[str, Any] = envelope_of(True, text)["error"]
    still_serving(session)
    return error


def still_serving(session: SharedSession) -> None:
    is_error, text = session.call("map_search", {"query": "Cart"})
    assert not is_error and envelope_of(False, text)["data"]["hits"]


NEIGHBORS = "map_neighbors"
BAD_CALLS: list[tuple[str, str, dict[str, Any], str, str]] = [
    ("nul-target", "nav_definition", {"target": "shop/a\x00pp.py:1"}, "bad_input", "NUL"),
    ("nul-node-id", "resolve", {"target": "shop/app.py#check\x00out"}, "bad_input", "NUL"),
    ("nul-path", "nav_symbols", {"path": "shop/app.py\x00"}, "bad_input", "NUL"),
    ("nul-memory-ref", "memory_save", {"text": "t", "refs": ["shop/\x00"]}, "bad_input", "NUL"),
    ("symlink-loop", "nav_definition", {"target": "loop_a.py:1"}, "symlink_loop", "loop"),
    ("symlink-loop-ref", "memory_save", {"text": "t", "refs": ["loop_b.py"]}, "symlink_loop", ""),
    ("long-path", "nav_symbols", {"path": "d/" * 2100 + "x.py"}, "bad_input", "allows"),
    ("long-name", "nav_hover", {"target": "n" * 300 + ".py:1"}, "bad_input", "allows"),
    ("huge-line", "nav_definition", {"target": "shop/app.py:" + "9" * 5000}, "bad_input", "range"),
    ("huge-repeat", "map_impact", {"node_id": "shop/app.py#f~" + "9" * 5000}, "bad_input", "range"),
    ("bad-regex", "map_search", {"query": "re:(["}, "bad_pattern", "regular expression"),
    ("language", "nav_workspace_symbols", {"query": "C", "language": "cobol"},
     "unknown_language", "python"),
    ("wrong-type", "map_search", {"query": 5}, "bad_input", "`query`"),
    ("missing", "map_search", {}, "bad_input", "`query`: Field required"),
    ("bad-enum", NEIGHBORS, {"node_id": "shop/app.py", "direction": "up"}, "bad_input", "'in'"),
    ("bad-list-item", NEIGHBORS, {"node_id": "shop/app.py", "kinds": ["calls", 3]},
     "bad_input", "`kinds.1`"),
    ("unknown-tool", "nav_teleport", {"target": "x"}, "unknown_tool", "nav_definition"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("tool", "arguments", "code", "expected"),
    [case[1:] for case in BAD_CALLS],
    ids=[case[0] for case in BAD_CALLS],
)
def test_bad_input_is_the_error_envelope_and_serving_goes_on(
    session: SharedSession, tool: str, arguments: dict[str, Any], code: str, expected: str
) -> None:
    error = refused(session, tool, arguments)
    assert error["code"] == code, error
    assert expected in f"{error['message']} {error['hint']}", error


def test_an_empty_name_is_refused_rather_than_ignored(session: SharedSession, repo: Path) -> None:
    line = line_of(repo, "shop/app.py", "def checkout")
    error = refused(session, "nav_references", {"target": f"shop/app.py:{line}", "name": ""})
    assert error["message"] == "empty name"


def test_re_prefix_anchors_apply_to_names(session: SharedSession) -> None:
    is_error, text = session.call("map_search", {"query": "re:^check"})
    assert not is_error, text
    assert [h["nodeId"] for h in envelope_of(False, text)["data"]["hits"]] == [
        "shop/app.py#checkout"
    ]


@pytest.mark.parametrize(
    ("tool", "arguments"),
    [
        ("map_search", '{"query": "\\ud800"}'),
        ("nav_definition", '{"target": "shop/app.py#\\udfff"}'),
        ("memory_save", '{"text": "a \\ud83d note", "refs": ["shop/app.py"]}'),
    ],
    ids=["map_search", "nav_definition", "memory_save"],
)
def test_a_lone_surrogate_gets_an_answer(raw: RawSession, tool: str, arguments: str) -> None:
    is_error, text = raw.call(tool, arguments)
    assert is_error, text
    error = envelope_of(True, text)["error"]
    assert error["code"] == "bad_input" and "surrogate" in error["message"], error
    assert raw.call("map_search", '{"query": "Cart"}')[0] is False


def test_arguments_that_are_not_an_object_are_refused(raw: RawSession) -> None:
    is_error, text = raw.call("map_search", '"Cart"')
    assert is_error
    error = envelope_of(True, text)["error"]
    assert "must be an object" in error["message"] and "query: str" in error["hint"], error
    assert raw.call("map_search", '{"query": "Cart"}')[0] is False
