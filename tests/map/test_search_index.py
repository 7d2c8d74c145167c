"""Search through the names index finds exactly what scoring every node finds, in the
same order: on the graph, on a restarted map answering from its store, and after edits."""

from __future__ import annotations

import fnmatch
import re
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from map.graph import query
from map.graph.names import required_literal
from map.graph.patterns import BadPatternError
from map.live.codemap import CodeMap
from tests.map.graph_state import copy_repo, fresh

ODD_NAMES = """\
class Straße:
    def GRÜSSE(self):
        return 1


def ΣΑΣ():
    return 2


def İstanbul():
    return 3


def dup():
    return 4


def dup():
    return 5


class Outer:
    class Inner:
        def step_inner(self):
            return Outer
"""
PATTERNS = [
    "step", "STEP", "Step", "engine", "Engine.run", "pkg/core.py", "pkg/core.py#helper",
    "core.py#Engine", "pkg/", "#", "py#", "~2", "dup", "dup~2", "strasse", "straße", "STRASSE",
    "\u03c3\u03b1\u03c2", "ΣΑΣ", "\u03c3\u03b1\u03c3",
    "i̇stanbul", "istanbul", "grüsse", "e", "*", "?", "*.step", "*step*",
    "pkg/*", "*#*", "Engine*", "*Inner.step_*", "re:^B", "re:^get_", "re:step$", "re:(?i)STEP",
    "re:st|en", "re:s(te)?p", "re:ste*p", "re:[Ss]tep", "re:\\.run", "re:core\\.py#E", "re:^$",
    "re:.", "re:Outer\\.Inner", "re:a{0}b", "re:(step)", "re:Ste?p", "re:\\bstep", "re:ß",
    "Inner.step", "outer.inner.step_inner", "util", "re:back\\\\slash", "re:k\\\\s", "*slash.py*",
]  # fmt: skip


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = copy_repo(tmp_path_factory.mktemp("names"))
    (root / "pkg" / "odd.py").write_text(ODD_NAMES, encoding="utf-8")
    (root / "pkg" / "back\\slash.py").write_text("def in_odd_path():\n    return 1\n")
    CodeMap.open(root)  # leaves the store a restarted map answers from
    return root


def _full_scan(codemap: CodeMap, pattern: str, kinds: list[str] | None) -> list[query.Hit]:
    return query.search(codemap.graph, pattern, kinds=kinds, limit=500)


@pytest.mark.parametrize("kinds", [None, ["method"], ["file"]])
def test_indexed_search_equals_scoring_every_node(root: Path, kinds: list[str] | None) -> None:
    loaded = CodeMap.open(root)
    loaded.load_graph()
    restarted = CodeMap.open(root)
    for pattern in PATTERNS:
        expected = _full_scan(loaded, pattern, kinds)
        assert restarted.search(pattern, kinds=kinds, limit=500) == expected, pattern
        assert loaded.search(pattern, kinds=kinds, limit=500) == expected, pattern
    assert not restarted.graph_loaded  # every answer came from the store
    assert [h.node_id for h in loaded.search("dup")] == ["pkg/odd.py#dup", "pkg/odd.py#dup~2"]
    assert loaded.search("STRAßE")[0].node_id == "pkg/odd.py#Straße"


def test_search_follows_edits_and_removals(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    assert codemap.search("helper")[0].node_id == "pkg/core.py#helper"
    (root / "pkg" / "fresh.py").write_text("def brand_new_helper():\n    return 1\n")
    (root / "pkg" / "util.py").unlink()
    codemap.rebuild()
    found = [h.node_id for h in codemap.search("helper")]
    assert "pkg/fresh.py#brand_new_helper" in found
    assert codemap.search("util.py") == []
    assert found == [h.node_id for h in _full_scan(codemap, "helper", None)]
    codemap.save()
    restarted = CodeMap.open(root)
    assert [h.node_id for h in restarted.search("helper")] == found
    assert fresh(root, tmp_path).search("helper") == restarted.search("helper")


def test_a_broken_regex_is_refused_as_before(root: Path) -> None:
    with pytest.raises(BadPatternError):
        CodeMap.open(root).search("re:(unclosed")


REGEX_ALPHABET = "ab.^$*+?{}()[]|\\-,0189xunbdAZN"
TEXT_ALPHABET = "ab\n-.,{}\\\x018"


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(REGEX_ALPHABET, max_size=8), st.text(TEXT_ALPHABET, max_size=8))
def test_every_regex_match_holds_the_required_literal(expression: str, text: str) -> None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # "possible nested set"
            compiled = re.compile(expression)
    except (re.error, RecursionError, OverflowError):
        return
    if compiled.search(text) is not None:
        assert required_literal(f"re:{expression}") in text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["*", "?", "a", "b", ".", "_"]), min_size=1), st.data())
def test_every_glob_match_holds_the_required_literal(parts: list[str], data: st.DataObject) -> None:
    glob = "".join(parts)
    fill = {"*": st.text("ab._", max_size=3), "?": st.sampled_from("ab._")}
    text = "".join(data.draw(fill[p]) if p in fill else p for p in parts)
    assert fnmatch.fnmatchcase(text, glob)
    assert required_literal(glob) in text
