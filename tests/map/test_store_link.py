"""An edit made while no process ran is relinked against the map store (map.store.store_link):
a map opened afresh after it keeps its graph unloaded, and its store, the graph it
then loads, every edge's details and the uses left open equal a from-scratch build's.
An edit that moves the layout loads the whole map and ends equal too, and a link row
that is missing or malformed is rebuilt, never a crash or a wrong graph."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from map.live.codemap import CodeMap
from tests.map.graph_state import fresh, graph_state
from tests.map.source_edits import Editor
from tests.map.store_state import assert_same_rows, assert_same_store

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
REPOS = {
    "python+typescript": "map_repo",
    "python": "py_app",
    "typescript": "ts_app",
    "go": "go_app",
    "c": "c_app",
    "c-includes": "c_nodb",
    "java+rust": "map_polyglot",
    "issue-24-languages": "map_languages",
    "php-composer": "php_composer",
}
"""The language fixtures the map tests use, each edited as a repository of its own."""
SEED = 20261127
STEPS = 14
REAL_STEPS = 6
"""Fewer on real code: each from-scratch build to compare with takes a second."""


def _copy(fixture: str, tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / fixture, root)
    return root


def _status(code_map: CodeMap) -> tuple[Any, ...]:
    status = code_map.status()
    return status.files, status.symbols, status.edges, status.languages


def _edge_details(code_map: CodeMap, built: CodeMap) -> dict[tuple[str, str, str], Any]:
    """`code_map`'s details of every edge the from-scratch map `built` has."""
    return {(u, v, k): code_map.edge_attrs(u, v, k) for u, v, k in built.graph.edges(keys=True)}


def _assert_like_a_full_build(
    root: Path, tmp_path: Path, where: str, *, in_store: bool, changed: int
) -> CodeMap:
    """Open `root`'s map afresh and check it against a from-scratch build: relinked
    in the store (`in_store`: the graph left unloaded) or by loading the whole map;
    then its store's rows, the graph it loads, every edge's details and the uses
    left open. The map opened."""
    try:
        reopened = CodeMap.open(root)
    except Exception as exc:  # the seed and step with the traceback
        raise AssertionError(f"{where}: opening the map raised {exc!r}") from exc
    report = reopened.last_report
    assert report is not None, where
    assert len(report.files_changed) == changed, f"{where}: {report}"
    assert reopened.graph_loaded is not in_store, f"{where}: {report}"
    if in_store:
        assert report.files_relinked <= changed, f"{where}: {report}"
    built = fresh(root, tmp_path)
    assert _status(reopened) == _status(built), where
    assert_same_store(reopened.snapshot_path, built.snapshot_path, where)
    assert reopened.load_graph(), where
    assert graph_state(reopened) == graph_state(built), where
    assert _edge_details(reopened, built) == _edge_details(built, built), where
    return reopened


def _edit_offline(root: Path, tmp_path: Path, name: str, steps: int) -> None:
    """Build `root`'s map, then make `steps` random edits, each checked by
    `_assert_like_a_full_build` in a map opened afresh."""
    CodeMap.open(root)  # built and saved: the store a previous process left
    editor = Editor(root, SEED)
    for step in range(steps):
        what, edit = editor.edit(step)
        where = f"{name}, seed {SEED}, step {step}: {what}"
        _assert_like_a_full_build(root, tmp_path, where, in_store=True, changed=len(edit))


@pytest.mark.parametrize("language", sorted(REPOS))
def test_offline_edits_relink_in_the_store_like_a_full_build(tmp_path: Path, language: str) -> None:
    _edit_offline(_copy(REPOS[language], tmp_path), tmp_path, language, STEPS)


def _put(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


def _networkx(root: Path) -> None:
    """networkx's `__init__` and four of its folders (tests left out)."""
    source = Path(nx.__file__).parent
    for folder in ("classes", "algorithms/shortest_paths", "algorithms/traversal", "utils"):
        for path in (source / folder).rglob("*.py"):
            if "tests" not in path.parts:
                _put(path, root / "networkx" / path.relative_to(source))
    _put(source / "__init__.py", root / "networkx" / "__init__.py")


def _go_text(root: Path) -> None:
    """Go's text/... packages, tests included, in the standard library's module."""
    go = shutil.which("go")
    if go is None:
        pytest.skip("no Go toolchain (scripts/setup.sh installs golang-go)")
    goroot = subprocess.run([go, "env", "GOROOT"], capture_output=True, text=True, check=True)
    source = Path(goroot.stdout.strip()) / "src"
    for path in (source / "text").rglob("*.go"):
        if "testdata" not in path.parts:
            _put(path, root / path.relative_to(source))
    _put(source / "go.mod", root / "go.mod")


REAL = {"python (networkx)": _networkx, "go (text/...)": _go_text}
"""Real code, as test_linker_random_edits edits it in memory: more names, re-exports
and users per name than the fixtures."""


@pytest.mark.parametrize("corpus", sorted(REAL))
def test_offline_edits_to_real_code_relink_in_the_store_like_a_full_build(
    tmp_path: Path, corpus: str
) -> None:
    root = tmp_path / "repo"
    REAL[corpus](root)
    _edit_offline(root, tmp_path, corpus, REAL_STEPS)


def _add_python(root: Path) -> None:
    (root / "pkg" / "extra.py").write_text(
        "from pkg.core import helper, start\n\n\ndef boost():\n    return helper() + start()\n"
    )


def _remove_python(root: Path) -> None:
    (root / "pkg" / "util.py").unlink()


def _rename_python(root: Path) -> None:
    (root / "pkg" / "util.py").rename(root / "pkg" / "tools.py")


def _drop_include(root: Path) -> None:
    main = root / "app" / "bounds.c"
    main.write_text(main.read_text().replace('#include "geo/geometry.h"\n', ""))


def _add_include(root: Path) -> None:
    main = root / "app" / "main.c"
    main.write_text('#include "limits_util.h"\n' + main.read_text())


def _move_go_module(root: Path) -> None:
    go_mod = root / "go.mod"
    go_mod.write_text(go_mod.read_text().replace("example.com/goapp", "example.com/moved"))


LAYOUT: dict[str, tuple[str, Callable[[Path], None], int]] = {
    "a file added": ("map_repo", _add_python, 1),
    "a file removed": ("map_repo", _remove_python, 0),
    "a file renamed": ("map_repo", _rename_python, 1),
    "an include dropped": ("c_nodb", _drop_include, 1),
    "an include added": ("c_nodb", _add_include, 1),
    "go.mod's module moved": ("go_app", _move_go_module, 0),
}
"""Edits that move the module layout: the fixture, the edit, the files it changes
(added or edited)."""


@pytest.mark.parametrize(
    "change",
    sorted(LAYOUT),
)
def test_an_offline_edit_that_moves_the_layout_loads_the_map_and_ends_like_a_full_build(
    tmp_path: Path, change: str
) -> None:
    fixture, move, changed = LAYOUT[change]
    root = _copy(fixture, tmp_path)
    CodeMap.open(root)
    editor = Editor(root, SEED)
    what, edit = editor.edit(0)  # the store holds a relinked edit first
    where = f"{change}, seed {SEED}, before: {what}"
    _assert_like_a_full_build(root, tmp_path, where, in_store=True, changed=len(edit))
    move(root)
    # the fallback path under test: if map.store.store_link learns to relink a layout
    # move in the store, this case belongs with the random edits above
    _assert_like_a_full_build(root, tmp_path, change, in_store=False, changed=changed)
    editor = Editor(root, SEED + 1)  # the files as they are now
    what, edit = editor.edit(1)
    where = f"{change}, seed {SEED + 1}, after: {what}"
    _assert_like_a_full_build(root, tmp_path, where, in_store=True, changed=len(edit))


def _sql(statement: str) -> Callable[[Path], None]:
    def damage(store: Path) -> None:
        with closing(sqlite3.connect(store)) as db:
            db.execute(statement)
            db.commit()

    return damage


def _row(path: str, value: str) -> Callable[[Path], None]:
    return _sql(f"UPDATE links SET links = {value} WHERE path = '{path}'")


DAMAGE: dict[str, Callable[[Path], None]] = {
    "a user's row missing": _sql("DELETE FROM links WHERE path = 'pkg/util.py'"),
    "the edited file's row missing": _sql("DELETE FROM links WHERE path = 'pkg/core.py'"),
    "a user's row garbage": _row("pkg/util.py", "x'67617262616765'"),  # b"garbage"
    "a user's row text": _row("pkg/util.py", "'garbage'"),
    "a user's row cut short": _row("pkg/util.py", "substr(links, 1, length(links) / 2)"),
    "a user's row of no references": _row("pkg/util.py", "x'5b302c5b5d2c5b5d2c5b5d2c5b5d2c5b5d5d'"),
    "the links dropped": _sql("DROP TABLE links"),
}
"""Damage to what the store keeps of linking (pkg/util.py uses pkg/core.py's `start`)."""


def _rename_start(root: Path) -> None:
    core = root / "pkg" / "core.py"
    core.write_text(core.read_text().replace("def start():", "def begin():"))


EDITS: dict[str, Callable[[Path], None]] = {
    "nothing edited": lambda root: None,
    "start renamed": _rename_start,  # pkg/util.py is relinked in part
}


CASES = [(damage, edit) for damage in sorted(DAMAGE) for edit in sorted(EDITS)]


@pytest.mark.parametrize(("damage", "edit"), CASES)
def test_a_missing_or_malformed_link_row_is_rebuilt_never_a_crash_or_a_wrong_map(
    tmp_path: Path, damage: str, edit: str
) -> None:
    root = _copy("map_repo", tmp_path)
    original = CodeMap.open(root)
    DAMAGE[damage](original.snapshot_path)
    EDITS[edit](root)
    where = f"{damage}, {edit}"
    reopened = CodeMap.open(root)
    built = fresh(root, tmp_path)
    if not reopened.graph_loaded:  # lookups answer from the store
        assert _status(reopened) == _status(built), where
        assert_same_rows(reopened.snapshot_path, built.snapshot_path, where)
    assert graph_state(reopened) == graph_state(built), where
    assert _edge_details(reopened, built) == _edge_details(built, built), where
    reopened.save()
    again = CodeMap.open(root)  # the store is sound again
    assert again.last_report is not None and again.last_report.files_changed == [], where
    assert_same_store(again.snapshot_path, built.snapshot_path, where)
    assert graph_state(again) == graph_state(built), where
