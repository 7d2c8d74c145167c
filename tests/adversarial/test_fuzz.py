"""Fuzzing the MCP tools: node IDs, targets and search patterns of every shape.

Whatever hypothesis sends, each answer is an envelope of the documented shape
(never raw text or a traceback, never `internal_error`), and the same server
answers a good call right after. Bounded: a few dozen examples per tool
family, one `codeanchor serve` for the module, derandomized so a run is
repeatable.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

from tests.adversarial.mcp_clients import SharedSession, envelope_of
from tests.bridge.mcp_session import example_repo
from tests.conftest import require_binary

# Hypothesis caches what it learns of the test modules (at collection, before any
# fixture runs) under `.hypothesis/` in the working directory, which pytest,
# told to skip only `fixtures`, would then try to collect: keep it in /tmp.
set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "codeanchor-hypothesis")

FUZZ = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)

# Text the SDK client can send: anything but lone surrogates (test_mcp sends those raw).
SURROGATES: list[Literal["Cs"]] = ["Cs"]
TEXT = st.text(st.characters(exclude_categories=SURROGATES), max_size=40)
PATHS = st.one_of(
    st.sampled_from(
        [
            "shop/app.py", "shop/cart.py", "shop/middleware/rate_limit.py", "shop", "",
            "loop_a.py", "shop/../shop/app.py", "../outside.py", "/etc/passwd",
            "shop/\x00app.py", "n" * 300 + ".py", "d/" * 2100 + "x.py", "é.py", "\u202e.py",
        ]
    ),
    TEXT,
)  # fmt: skip
SUFFIXES = st.one_of(
    st.just(""),
    st.builds("#{}".format, st.one_of(st.sampled_from(["checkout", "RateLimiter.allow"]), TEXT)),
    st.builds("~{}".format, st.integers(-1, 3)),
    st.builds(":{}".format, st.integers(-1, 10_000)),
    st.builds(":{}:{}".format, st.integers(0, 40), st.integers(-1, 200)),
)
ID_LIKE = st.one_of(st.builds("{}{}".format, PATHS, SUFFIXES), TEXT)
PATTERN = st.one_of(
    TEXT,
    TEXT.map(lambda t: "re:" + t),
    st.lists(st.sampled_from(list("^$()[]{}+*?|\\.~#:/aZ_-")), max_size=12).map("".join),
    st.lists(st.sampled_from(list("^$()[]{}+*?|\\.~#:/aZ_-")), max_size=12).map(
        lambda chars: "re:" + "".join(chars)
    ),
)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SharedSession]:
    require_binary("ty")
    root = example_repo(tmp_path_factory.mktemp("fuzz"), watch=False)
    (root / "loop_a.py").symlink_to("loop_b.py")
    (root / "loop_b.py").symlink_to("loop_a.py")
    shared = SharedSession(root)
    yield shared
    shared.close()


def answered(session: SharedSession, tool: str, arguments: dict[str, Any]) -> None:
    """Call `tool`: the answer must be a well-formed envelope, and serving must go on."""
    is_error, text = session.call(tool, arguments)
    envelope = envelope_of(is_error, text)
    if is_error:
        assert envelope["error"]["code"] != "internal_error", (tool, arguments, envelope)
    again, text = session.call("map_status", {})
    assert not again, text


NODE_ID_CALLS = {
    "map_neighbors": lambda node_id: {"node_id": node_id},
    "map_impact": lambda node_id: {"node_id": node_id},
    "map_outline": lambda node_id: {"path": node_id},
    "map_path": lambda node_id: {"source": node_id, "target": "shop/app.py#checkout"},
    "nav_symbols": lambda node_id: {"path": node_id},
}


@settings(FUZZ, max_examples=60)  # five tools share these examples
@given(node_id=ID_LIKE, tool=st.sampled_from(sorted(NODE_ID_CALLS)))
def test_node_ids(session: SharedSession, node_id: str, tool: str) -> None:
    answered(session, tool, NODE_ID_CALLS[tool](node_id))


@FUZZ
@given(
    target=ID_LIKE,
    name=st.one_of(st.none(), TEXT),
    tool=st.sampled_from(["nav_definition", "nav_hover", "resolve"]),
)
def test_targets(session: SharedSession, target: str, name: str | None, tool: str) -> None:
    answered(session, tool, {"target": target, "name": name})


@FUZZ
@given(pattern=PATTERN, kind=st.one_of(st.none(), TEXT))
def test_search_patterns(session: SharedSession, pattern: str, kind: str | None) -> None:
    answered(session, "map_search", {"query": pattern, "kind": kind})
