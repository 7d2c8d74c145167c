"""An incrementally rebuilt map equals a from-scratch build after every kind of change."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from map.live.codemap import CodeMap
from tests.map.graph_state import copy_repo, fresh, git, graph_state


def _edit_definition(root: Path) -> None:
    core = root / "pkg" / "core.py"
    core.write_text(core.read_text().replace("def start():", "def launch():"))


def _edit_reexport(root: Path) -> None:
    (root / "pkg" / "__init__.py").write_text(
        "from .core import Engine\nfrom .util import boot as start\n"
    )


def _add_file(root: Path) -> None:
    (root / "pkg" / "extra.py").write_text(
        "from pkg.core import helper\n\n\ndef extra():\n    return helper()\n"
    )


def _delete_file(root: Path) -> None:
    (root / "pkg" / "util.py").unlink()


def _rename_file(root: Path) -> None:
    (root / "pkg" / "util.py").rename(root / "pkg" / "tools.py")


def _edit_typescript(root: Path) -> None:
    shapes = root / "web" / "shapes.ts"
    shapes.write_text(shapes.read_text().replace("function total", "function sum"))


CHANGES: dict[str, Callable[[Path], None]] = {
    "edit": _edit_definition,
    "reexport": _edit_reexport,
    "add": _add_file,
    "delete": _delete_file,
    "rename": _rename_file,
    "typescript": _edit_typescript,
}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_each_change_rebuilds_to_the_fresh_graph(tmp_path: Path, change: str) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    CHANGES[change](root)
    codemap.rebuild()
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))


def test_changes_in_sequence_stay_equal_to_fresh(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    steps = [_edit_definition, _edit_reexport, _add_file, _rename_file, _edit_typescript]
    steps.append(lambda root: (root / "pkg" / "tools.py").unlink())  # the renamed file goes
    for change in steps:
        change(root)
        codemap.rebuild()
        assert graph_state(codemap) == graph_state(fresh(root, tmp_path))


def test_one_edit_reextracts_one_file_and_updates_edges_elsewhere(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    assert codemap.graph.has_edge("pkg/util.py#boot", "pkg/core.py#start", key="calls")
    _edit_definition(root)
    report = codemap.rebuild()
    assert report.files_changed == ["pkg/core.py"]
    assert report.files_relinked == 1
    assert not report.full
    assert not codemap.graph.has_edge("pkg/util.py#boot", "pkg/core.py#start", key="calls")
    assert "pkg/core.py#launch" in codemap.graph


def test_reexport_edit_reroutes_calls_in_other_files(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    _edit_reexport(root)
    report = codemap.rebuild()
    assert report.files_changed == ["pkg/__init__.py"]
    assert codemap.graph.has_edge("app/main.py#main", "pkg/util.py#boot", key="calls")
    assert not codemap.graph.has_edge("app/main.py#main", "pkg/core.py#start", key="calls")


def test_edit_with_mtime_restored_is_still_detected(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    core = root / "pkg" / "core.py"
    before = os.stat(core)
    text = core.read_text()
    core.write_text(text.replace("def helper():", "def helpor():"))  # same size
    os.utime(core, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(core).st_size == before.st_size
    assert codemap.rebuild().files_changed == ["pkg/core.py"]
    assert "pkg/core.py#helpor" in codemap.graph


def test_touch_without_content_change_reextracts_nothing(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    core = root / "pkg" / "core.py"
    core.write_bytes(core.read_bytes())
    report = codemap.rebuild()
    assert report.files_changed == []
    assert report.files_removed == []


def test_git_checkout_of_another_branch(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "base")
    git(root, "checkout", "-q", "-b", "feature")
    _edit_definition(root)
    _rename_file(root)
    _add_file(root)
    _edit_reexport(root)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "feature")
    git(root, "checkout", "-q", "main")
    codemap = CodeMap.open(root)
    for branch in ("feature", "main", "feature"):
        git(root, "checkout", "-q", branch)
        codemap.rebuild()
        assert graph_state(codemap) == graph_state(fresh(root, tmp_path)), branch


def test_rebuild_of_named_paths_checks_only_those(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    _edit_definition(root)
    _edit_typescript(root)
    report = codemap.rebuild(paths=["pkg/core.py"])  # the caller vouches for the rest
    assert report.files_changed == ["pkg/core.py"]
    assert "web/shapes.ts#total" in codemap.graph
    _delete_file(root)
    _add_file(root)
    assert codemap.rebuild(paths=[str(root / "pkg" / "util.py")]).files_removed == ["pkg/util.py"]
    report = codemap.rebuild(paths=["pkg/extra.py"])  # new to the map: the whole tree is listed
    assert report.files_added == ["pkg/extra.py"]
    assert "web/shapes.ts#sum" in codemap.graph
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))


def test_a_file_turning_binary_leaves_the_map_and_comes_back(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    codemap = CodeMap.open(root)
    util = root / "pkg" / "util.py"
    text = util.read_bytes()
    util.write_bytes(b"\x00" + text)
    report = codemap.rebuild()
    assert report.files_removed == ["pkg/util.py"]
    assert report.skipped == {"binary": 1}
    assert "pkg/util.py" not in codemap.graph
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))
    util.write_bytes(text)
    report = codemap.rebuild()
    assert report.files_added == ["pkg/util.py"]
    assert report.skipped == {}
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))
