"""A CodeMap built from a fixture repo: nodes, edges, save/load, lookups."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from map.codemap import CodeMap
from map.errors import UnknownNodeError
from tests.conftest import FIXTURES
from tests.map.graph_state import copy_repo, graph_state


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return copy_repo(tmp_path)


def test_full_build_finds_symbols_and_cross_module_edges(repo: Path) -> None:
    codemap = CodeMap.open(repo)
    graph = codemap.graph
    assert graph.nodes["pkg/core.py#Engine.run"]["kind"] == "method"
    assert graph.has_edge("pkg/util.py#boot", "pkg/core.py#start", key="calls")  # via __init__
    assert graph.has_edge("app/main.py#main", "pkg/core.py#start", key="calls")  # pkg.start()
    assert graph.has_edge("pkg/core.py#TurboEngine", "pkg/core.py#Engine", key="inherits")
    assert graph.has_edge("web/main.ts#Square.area", "web/shapes.ts#total", key="calls")
    status = codemap.status()
    assert status.files == 6
    assert status.languages == {"python": 4, "typescript": 2}
    assert status.symbols == sum(len(codemap.symbols_in(p)) for p in codemap.graph if "#" not in p)
    assert status.stale_files == ()


def test_snapshot_round_trip_gives_the_same_graph_without_reextracting(repo: Path) -> None:
    first = CodeMap.open(repo)
    assert first.snapshot_path.is_file()
    second = CodeMap.open(repo)
    assert graph_state(second) == graph_state(first)
    assert second.rebuild().files_changed == []
    assert second.built_at >= first.built_at


def test_node_lookup_and_suggestions(repo: Path) -> None:
    codemap = CodeMap.open(repo)
    node = codemap.node("pkg/core.py#Engine.step")
    assert node["id"] == "pkg/core.py#Engine.step"
    assert node["lines"][0] == node["range"].first_line
    with pytest.raises(UnknownNodeError) as caught:
        codemap.node("pkg/core.py#Engine.stepp")
    assert "pkg/core.py#Engine.step" in caught.value.suggestions


def test_search_and_outline(repo: Path) -> None:
    codemap = CodeMap.open(repo)
    assert codemap.search("helper")[0].node_id == "pkg/core.py#helper"
    assert {h.node_id for h in codemap.search("*.step", kinds={"method"})} == {
        "pkg/core.py#Engine.step",
        "pkg/core.py#TurboEngine.step",
    }
    assert [h.node_id for h in codemap.search(r"^web/.*#Sq\w*$")] == ["web/main.ts#Square"]
    outline = codemap.outline("pkg/core.py")
    assert [(e.name, e.depth) for e in outline[:3]] == [("Engine", 0), ("run", 1), ("step", 1)]
    assert codemap.extract_of("pkg/core.py") is not None
    assert codemap.extract_of("nope.py") is None


def test_stale_flags_clear_on_rebuild(repo: Path) -> None:
    codemap = CodeMap.open(repo)
    (repo / "pkg" / "util.py").write_text("def boot():\n    return 2\n")
    codemap.mark_stale([str(repo / "pkg" / "util.py")])
    assert codemap.stale_files() == {"pkg/util.py"}
    report = codemap.rebuild()
    assert report.files_changed == ["pkg/util.py"]
    assert codemap.stale_files() == frozenset()


def test_open_without_refresh_serves_the_snapshot_as_built(repo: Path) -> None:
    built = CodeMap.open(repo)
    (repo / "pkg" / "util.py").unlink()
    as_built = CodeMap.open(repo, refresh=False)
    assert as_built.built_at == built.built_at
    assert "pkg/util.py#boot" in as_built.graph
    assert as_built.rebuild().files_removed == ["pkg/util.py"]
    assert "pkg/util.py#boot" not in as_built.graph


def _copy_fixture(name: str, tmp_path: Path) -> Path:
    root = tmp_path / name
    shutil.copytree(FIXTURES / name, root)
    return root


def test_go_package_calls_resolve_through_the_module_path(tmp_path: Path) -> None:
    codemap = CodeMap.open(_copy_fixture("go_app", tmp_path))
    graph = codemap.graph
    assert graph.has_edge("main.go#report", "shapes/shapes.go#Total", key="calls")
    assert graph.has_edge("main.go#main", "main.go#report", key="calls")
    assert graph.has_edge("main.go", "shapes/shapes.go", key="imports")


def test_c_calls_resolve_through_includes(tmp_path: Path) -> None:
    codemap = CodeMap.open(_copy_fixture("c_app", tmp_path))
    graph = codemap.graph
    assert graph.has_edge("src/main.c", "include/geometry.h", key="imports")
    callees = {n.node_id for n in codemap.neighbors("src/main.c#report", "out", {"calls"})}
    assert callees & {"include/geometry.h#distance2", "src/geometry.c#distance2"}
