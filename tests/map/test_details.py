"""What the map tells callers above it about nodes and edges: typed details, the kinds
of the edges between two nodes, a node's uses (no walking the graph above map/)."""

from __future__ import annotations

from pathlib import Path

from map import CodeMap
from tests.map.graph_state import copy_repo

STEP = "pkg/core.py#Engine.step"


def test_a_node_s_details_carry_its_id_and_tell_files_from_symbols(tmp_path: Path) -> None:
    codemap = CodeMap.open(copy_repo(tmp_path))
    symbol = codemap.attrs(STEP)
    assert symbol is not None and symbol["kind"] == "method"
    assert (symbol["id"], symbol["name"], symbol["qualname"]) == (STEP, "step", "Engine.step")
    assert symbol["container"] == ("Engine",)
    assert symbol["lines"] == (symbol["range"].first_line, symbol["range"].last_line)
    file = codemap.node("pkg/core.py")
    assert file["kind"] == "file"
    assert (file["id"], file["path"], file["language"]) == ("pkg/core.py",) * 2 + ("python",)


def test_edge_kinds_names_every_edge_between_two_nodes(tmp_path: Path) -> None:
    codemap = CodeMap.open(copy_repo(tmp_path))
    assert codemap.edge_kinds("pkg/core.py#TurboEngine", "pkg/core.py#Engine") == ["inherits"]
    assert codemap.edge_kinds("pkg/core.py#Engine", STEP) == ["contains"]
    assert codemap.edge_kinds(STEP, "pkg/core.py#TurboEngine") == []


def test_uses_of_gives_the_callees_details(tmp_path: Path) -> None:
    codemap = CodeMap.open(copy_repo(tmp_path))
    callees = codemap.uses_of(STEP, "calls")
    assert [(c["id"], c["kind"]) for c in callees] == [("pkg/core.py#helper", "function")]
    assert codemap.uses_of("pkg/core.py#helper", "calls") == []
    assert codemap.uses_of("pkg/core.py#nothing", "calls") == []


def test_an_edge_s_use_lines_follow_an_edit_after_being_asked(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    before = codemap.edge_attrs(STEP, "pkg/core.py#helper", "calls")
    assert before is not None and before["lines"] == (11,)
    core = root / "pkg" / "core.py"
    core.write_text("import os\nos.getcwd()\n" + core.read_text())  # new references first
    codemap.rebuild()
    after = codemap.edge_attrs(STEP, "pkg/core.py#helper", "calls")
    assert after is not None and after["lines"] == (13,)
