"""A map rebuilt after a tsconfig.json, package.json or pnpm-workspace.yaml changed
equals a map built from scratch: the TS/JS configuration is part of the layout the
linker re-binds every import with (map.linking.layout)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from map.live.codemap import CodeMap
from tests.map.graph_state import age, fresh, graph_state

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ts_projects"
ADD = "lib/math.ts#add"
CALLER = "src/main.ts#total"


def _copy(tmp_path: Path, name: str) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / name, root)
    return root


def _replace(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def _paths_elsewhere(root: Path) -> None:
    _replace(root / "tsconfig.base.json", '"@lib/*": ["lib/*"]', '"@lib/*": ["other/*"]')


def _extends_dropped(root: Path) -> None:
    _replace(root / "tsconfig.json", '"extends": "./tsconfig.base.json",', "")


def _broken_json(root: Path) -> None:
    (root / "tsconfig.base.json").write_text('{"compilerOptions": ')


def _package_renamed(root: Path) -> None:
    _replace(root / "packages/core/package.json", '"@acme/core"', '"@acme/kernel"')


def _workspaces_dropped(root: Path) -> None:
    _replace(root / "package.json", ',\n  "workspaces": ["packages/*"]', "")


def _pnpm_instead(root: Path) -> None:
    _workspaces_dropped(root)
    (root / "pnpm-workspace.yaml").write_text("packages:\n  - packages/*\n")


PATHS_EDITS: dict[str, Callable[[Path], None]] = {
    "paths": _paths_elsewhere,
    "extends": _extends_dropped,
    "unparseable": _broken_json,
}
WORKSPACE_EDITS: dict[str, Callable[[Path], None]] = {
    "renamed": _package_renamed,
    "no-workspaces": _workspaces_dropped,
    "pnpm": _pnpm_instead,
}


def _with_other(root: Path) -> Path:
    (root / "other").mkdir()
    (root / "other" / "math.ts").write_text(
        "export function add(a: number, b: number): number {\n  return a - b;\n}\n"
    )
    return root


@pytest.mark.parametrize("edit", sorted(PATHS_EDITS))
def test_a_tsconfig_edit_relinks_as_a_fresh_build(tmp_path: Path, edit: str) -> None:
    root = _with_other(_copy(tmp_path, "paths"))
    codemap = CodeMap.open(root)
    age(root)  # settled folders (its store written): the next listing is trusted as it
    codemap.rebuild()  # stands, the config files' content being what may move
    assert [n.node_id for n in codemap.neighbors(ADD, "in")] == [CALLER]
    PATHS_EDITS[edit](root)
    codemap.rebuild()
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))
    assert codemap.neighbors(ADD, "in") == []


def test_the_paths_edit_moves_the_calls_to_the_new_target(tmp_path: Path) -> None:
    root = _with_other(_copy(tmp_path, "paths"))
    codemap = CodeMap.open(root)
    _paths_elsewhere(root)
    codemap.rebuild(paths=[str(root / "tsconfig.base.json")])  # as the watcher names it
    assert [n.node_id for n in codemap.neighbors("other/math.ts#add", "in")] == [CALLER]
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))


@pytest.mark.parametrize("edit", sorted(WORKSPACE_EDITS))
def test_a_package_json_edit_relinks_as_a_fresh_build(tmp_path: Path, edit: str) -> None:
    root = _copy(tmp_path, "workspace")
    codemap = CodeMap.open(root)
    WORKSPACE_EDITS[edit](root)
    codemap.rebuild()
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))


def test_a_map_opened_from_its_store_relinks_after_a_config_edit(tmp_path: Path) -> None:
    root = _with_other(_copy(tmp_path, "paths"))
    CodeMap.open(root)  # builds and saves
    reopened = CodeMap.open(root)
    _paths_elsewhere(root)
    reopened.rebuild()
    assert [n.node_id for n in reopened.neighbors("other/math.ts#add", "in")] == [CALLER]
    assert graph_state(reopened) == graph_state(fresh(root, tmp_path))
    again = CodeMap.open(root)  # the relinked map as saved
    assert [n.node_id for n in again.neighbors("other/math.ts#add", "in")] == [CALLER]


def test_an_edit_to_a_base_config_in_node_modules_relinks(tmp_path: Path) -> None:
    root = _copy(tmp_path, "paths")
    base = root / "node_modules" / "@acme" / "tsconfig" / "base.json"
    base.parent.mkdir(parents=True)
    base.write_text('{"compilerOptions": {"baseUrl": "../../.."}}')
    (root / "tsconfig.json").write_text('{"extends": "@acme/tsconfig/base.json"}')
    codemap = CodeMap.open(root)
    age(root)
    codemap.rebuild()  # the listing settled: only the config stamps can tell the edit
    assert [n.node_id for n in codemap.neighbors("src/tools.ts#tool", "in")] == [CALLER]
    base.write_text('{"compilerOptions": {}}')
    codemap.rebuild()
    assert codemap.neighbors("src/tools.ts#tool", "in") == []
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))
