"""Graph questions on a fixture of known structure."""

from __future__ import annotations

from pathlib import Path

import pytest

from map.errors import UnknownNodeError
from map.graph.query import CHARS_PER_TOKEN
from map.live.codemap import CodeMap
from tests.map.graph_state import copy_repo


@pytest.fixture(scope="module")
def codemap(tmp_path_factory: pytest.TempPathFactory) -> CodeMap:
    return CodeMap.open(copy_repo(tmp_path_factory.mktemp("query")))


def test_callers_to_depth_two(codemap: CodeMap) -> None:
    callers = codemap.neighbors("pkg/core.py#helper", "in", {"calls"}, depth=2)
    by_distance = {(n.node_id, n.distance) for n in callers}
    assert by_distance == {
        ("pkg/core.py#Engine.step", 1),
        ("pkg/core.py#TurboEngine.step", 1),
        ("pkg/core.py#Engine.run", 2),
    }
    run = next(n for n in callers if n.node_id == "pkg/core.py#Engine.run")
    assert run.source == "pkg/core.py#Engine.step"
    assert run.via == "calls"


def test_callees(codemap: CodeMap) -> None:
    callees = codemap.neighbors("app/main.py#main", "out", {"calls"}, depth=1)
    assert {n.node_id for n in callees} == {"pkg/util.py#boot", "pkg/core.py#start"}


def test_impact_is_transitive(codemap: CodeMap) -> None:
    impacted = {n.node_id for n in codemap.impact("pkg/core.py#Engine.step")}
    assert {"pkg/core.py#Engine.run", "pkg/core.py#start", "pkg/util.py#boot"} <= impacted
    assert "app/main.py#main" in impacted
    assert "pkg/core.py#helper" not in impacted  # a callee is not a dependent


def test_impact_of_a_class_includes_users_of_its_members(codemap: CodeMap) -> None:
    impacted = {n.node_id for n in codemap.impact("web/shapes.ts#Shape")}
    assert "web/main.ts#Square" in impacted


def test_path_between_nodes(codemap: CodeMap) -> None:
    assert codemap.path("app/main.py#main", "pkg/core.py#helper") == [
        "app/main.py#main",
        "pkg/core.py#start",
        "pkg/core.py#Engine.run",
        "pkg/core.py#Engine.step",
        "pkg/core.py#helper",
    ]
    assert codemap.path("pkg/core.py#helper", "app/main.py#main") == []
    with pytest.raises(UnknownNodeError):
        codemap.path("app/main.py#main", "pkg/core.py#nothing")


def _hub_repo(root: Path) -> None:
    root.mkdir()
    (root / "hub.py").write_text("def core():\n    return 1\n\n\ndef rarely():\n    return 2\n")
    for i in range(5):
        (root / f"user{i}.py").write_text(
            f"from hub import core\n\n\ndef use{i}():\n    return core()\n"
        )
    (root / "lonely.py").write_text(
        "from hub import rarely\n\n\ndef alone():\n    return rarely()\n"
    )


def test_overview_ranks_the_most_used_symbol_first_and_fits_the_budget(tmp_path: Path) -> None:
    _hub_repo(tmp_path / "hub")
    codemap = CodeMap.open(tmp_path / "hub")
    roomy = codemap.overview(token_budget=500)
    assert roomy.entries[0] == "hub.py#core"
    assert not roomy.truncated
    assert len(roomy.text) <= 500 * CHARS_PER_TOKEN
    tight = codemap.overview(token_budget=12)
    assert tight.entries == ("hub.py#core",)
    assert tight.truncated
    assert len(tight.text) <= 12 * CHARS_PER_TOKEN
    assert "hub.py:" in tight.text


def test_overview_follows_rebuilds(tmp_path: Path) -> None:
    root = tmp_path / "hub"
    _hub_repo(root)
    codemap = CodeMap.open(root)
    assert codemap.overview(token_budget=500).entries[0] == "hub.py#core"
    for i in range(8):
        (root / f"fan{i}.py").write_text(
            f"from hub import rarely\n\n\ndef fan{i}():\n    return rarely()\n"
        )
    codemap.rebuild()
    assert codemap.overview(token_budget=500).entries[0] == "hub.py#rarely"
