"""A map reopened in a new process after edits made while no process ran (a branch
switch, a pull, an editor used without the server) answers as a full build of the
same tree: its nodes, edges, every use's lines and candidates, the uses linking
left open, and the rows its store keeps for the next restart. Lookups answer the
offline edits at once, a store whose writer was killed mid-save serves (or is
rebuilt) all the same, and answers asked while the graph loads in the background
are the answers after it.

Each restart is a real new process (tests.map.restart_child); the full build it is
compared with starts from no store.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from disk.statedir import STATE_DIR
from map.live.codemap import CodeMap
from map.store.mapstore import STORE_NAME
from tests.map.graph_state import FIXTURE, copy_repo, fresh, git
from tests.map.killsave import KILL_DEADLINE_S, REPO_ROOT, kill_mid_save
from tests.map.restart_child import (
    Answers,
    Questions,
    in_new_process,
    lookups,
    map_state,
    settings,
    start,
    store_rows,
    uses,
)
from tests.map.restart_edits import random_edit, write_repo

SEEDS = (20261127, 7)
STEPS = 4
"""Restarts per seed, each after one to three random edits."""
GATE_TIMEOUT_S = 30.0


def _assert_same(got: tuple[Any, ...], expected: tuple[Any, ...], label: str) -> None:
    """Two `map_state`s are equal, part by part (the first part that differs is named)."""
    (graph, details), (graph_expected, details_expected) = got, expected
    for part, mine, theirs in zip(
        ("nodes", "edges", "open uses"), graph, graph_expected, strict=True
    ):
        assert mine == theirs, f"{label}: {part} differ from a full build's"
    assert details == details_expected, f"{label}: edge details differ from a full build's"


def _store_file(root: Path, store: Path | None) -> Path:
    return (root / STATE_DIR if store is None else store) / STORE_NAME


def _assert_reopened_as_built(root: Path, store: Path | None, tmp_path: Path, label: str) -> None:
    """A new process opening the map of `root` from `store` (None: the default place)
    finds what a new process building it from no store finds; both stores then
    hold the same rows."""
    full = tmp_path / "full-build"
    shutil.rmtree(full, ignore_errors=True)
    reopened, built = start(root, store, "state"), start(root, full, "state")
    _assert_same(reopened(), built(), label)
    _assert_same_rows(_store_file(root, store), full / STORE_NAME, label)


def _assert_same_rows(store: Path, built: Path, label: str) -> None:
    """The store files `store` and `built` hold the same rows, table by table, but for
    the names linking consulted: a relink keeps those its references consulted before
    (a superset costs a later edit a few more references resolved again), and must
    never miss one the full build consulted (a later edit would miss a dependent)."""
    rows, expected = store_rows(store), store_rows(built)
    for table in sorted((rows.keys() | expected.keys()) - {"consulters", "links"}):
        assert rows.get(table) == expected.get(table), f"{label}: store table {table} differs"
    missing = set(expected["consulters"]) - set(rows["consulters"])
    assert not missing, f"{label}: consulted names the store lost: {sorted(missing)[:5]}"
    links = {path: facts for path, *facts in rows["links"]}
    for path, results, pairs, open_names in expected["links"]:
        assert links[path][0] == results, f"{label}: {path}'s resolutions differ"
        assert pairs <= links[path][1], f"{label}: {path} lost consulted names"
        assert links[path][2] == open_names, f"{label}: {path}'s open names differ"
    assert links.keys() == {path for path, *_ in expected["links"]}, f"{label}: link rows"


# 1. Named offline edits, one restart after each (a git work tree; the CLI builds first).

Step = Callable[[Path], None]


def _replace(path: str, old: str, new: str, root: Path) -> None:
    text = (root / path).read_text()
    assert old in text, f"{path} no longer holds {old!r}: the step needs updating"
    (root / path).write_text(text.replace(old, new, 1))


def _write(path: str, text: str, root: Path) -> None:
    (root / path).write_text(text)


def _append(path: str, text: str, root: Path) -> None:
    with (root / path).open("a") as out:
        out.write(text)


def _rename(path: str, new: str, root: Path) -> None:
    (root / path).rename(root / new)


def _git_mv(path: str, new: str, root: Path) -> None:
    git(root, "mv", path, new)


def _remove(path: str, root: Path) -> None:
    (root / path).unlink()


HELPER = "\n\ndef helper():\n    return 1\n"
TOTAL_TS = "\nexport function total(shapes: Shape[]): number {\n  return shapes.length;\n}\n"
TOTAL_GO = """
// Total is the sum of the areas of shapes.
func Total(shapes []Shape) float64 {
	sum := 0.0
	for _, shape := range shapes {
		sum += shape.Area()
	}
	return sum
}
"""
STEPS_NAMED: list[tuple[str, list[Step]]] = [
    (
        "bodies changed",
        [
            partial(
                _replace,
                "pkg/core.py",
                "def step(self):\n        return helper()",
                "def step(self):\n        return start()",
            ),
            partial(
                _replace,
                "web/shapes.ts",
                "return shapes.length;",
                "return shapes.length + new Shape().area();",
            ),
            partial(_replace, "go/main.go", "shapes.Total(all)", "float64(len(all))"),
        ],
    ),
    (
        "files added",
        [
            partial(
                _write,
                "pkg/extra.py",
                "from pkg import Engine\nfrom pkg.core import helper\n\n\n"
                "class Extra(Engine):\n    def step(self):\n        return helper()\n\n\n"
                "def boost():\n    return Extra().run()\n",
            ),
            partial(
                _write,
                "web/extra.ts",
                "import { Shape } from './shapes';\n\n"
                "export class Circle extends Shape {\n"
                "  area(): number {\n    return total([this]);\n  }\n}\n",
            ),
            partial(
                _write,
                "go/shapes/sum.go",
                "package shapes\n\n// Sum is the total area.\n"
                "func Sum(all []Shape) float64 {\n\treturn Total(all)\n}\n",
            ),
        ],
    ),
    (
        "files renamed",
        [
            partial(_git_mv, "pkg/util.py", "pkg/tools.py"),
            partial(_rename, "web/shapes.ts", "web/geometry.ts"),
        ],
    ),
    (
        "names moved to other files",
        [  # helper: core.py -> tools.py, core imports it, extra.py still imports it from core
            partial(_replace, "pkg/core.py", HELPER, ""),
            partial(
                _replace,
                "pkg/core.py",
                '"""The engine."""\n',
                '"""The engine."""\n\nfrom pkg.tools import helper\n',
            ),
            partial(_append, "pkg/tools.py", HELPER),
            # total: geometry.ts -> extra.ts, main.ts now imports from geometry.ts
            partial(
                _replace,
                "web/geometry.ts",
                TOTAL_TS.replace("length", "length + new Shape().area()"),
                "",
            ),
            partial(_append, "web/extra.ts", TOTAL_TS),
            partial(_replace, "web/main.ts", "'./shapes'", "'./geometry'"),
            # Total: shapes.go -> sum.go, the same package
            partial(_replace, "go/shapes/shapes.go", TOTAL_GO, ""),
            partial(_append, "go/shapes/sum.go", TOTAL_GO),
        ],
    ),
    (
        "re-export changed",
        [
            partial(
                _replace,
                "pkg/__init__.py",
                "from .core import Engine, start\n",
                "from .core import Engine\nfrom .extra import boost as start\n",
            )
        ],
    ),
    (
        "files removed",
        [
            partial(_remove, "pkg/extra.py"),
            partial(_remove, "web/main.ts"),
            partial(_remove, "go/shapes/sum.go"),
        ],
    ),
    ("nothing changed", []),
]


def _cli_build(root: Path) -> None:
    """`codeanchor map build` of `root`, in its own process."""
    done = subprocess.run(
        [sys.executable, "-m", "bridge.cli", "map", "build", "--root", str(root), "--json"],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
        timeout=KILL_DEADLINE_S,
        check=False,
    )
    assert done.returncode == 0 and '"ok": true' in done.stdout, done.stderr


def test_each_offline_edit_reopens_in_a_new_process_as_a_full_build(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    shutil.copytree(FIXTURE.parent / "go_app", root / "go")
    git(root, "init", "-q")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "base")
    _cli_build(root)
    for label, step in STEPS_NAMED:
        for edit in step:
            edit(root)
        _assert_reopened_as_built(root, None, tmp_path, f"after {label}")


def test_a_go_module_renamed_offline_reopens_in_a_new_process_as_a_full_build(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE.parent / "go_app", root)
    in_new_process(root, None, "state")
    _replace("go.mod", "example.com/goapp", "example.com/renamed", root)
    _assert_reopened_as_built(root, None, tmp_path, "after renaming the Go module")


# 1b. Random offline edits, a restart after each few (outside git; the stores outside the tree).


@pytest.mark.parametrize("seed", SEEDS)
def test_random_offline_edits_reopen_in_a_new_process_as_a_full_build(
    tmp_path: Path, seed: int
) -> None:
    root, store = tmp_path / "repo", tmp_path / "store"
    write_repo(root, modules=8)
    in_new_process(root, store, "state")
    rnd = random.Random(seed)
    done: list[str] = []
    for step in range(STEPS):
        for _ in range(rnd.randint(1, 3)):
            done.append(random_edit(rnd, root, len(done)))
        label = f"seed {seed}, restart {step} after {done}"
        reopened = in_new_process(root, store, "state")
        built = fresh(root, tmp_path)
        _assert_same(reopened, map_state(built), label)
        _assert_same_rows(store / STORE_NAME, built.snapshot_path, label)


# 2. Lookups answer offline edits at once, as they answer once the graph has loaded.

OFFLINE = [
    partial(
        _replace,
        "pkg/core.py",
        "def step(self):\n        return helper()",
        "def step(self):\n        return offline_added()",
    ),
    partial(_append, "pkg/core.py", "\n\ndef offline_added():\n    return helper()\n"),
    partial(
        _write,
        "pkg/late.py",
        "from pkg.core import offline_added\n\n\ndef later():\n    return offline_added()\n",
    ),
    partial(_remove, "pkg/util.py"),
]
ASKED = Questions(
    patterns=("offline_added", "later", "boot", "step"),
    paths=("pkg/core.py", "pkg/late.py", "pkg/util.py"),
    node_ids=(
        "pkg/core.py#offline_added",
        "pkg/core.py#Engine.step",
        "pkg/core.py#helper",
        "pkg/late.py#later",
        "pkg/util.py#boot",
    ),
)


def test_a_restarted_map_answers_offline_edits_at_once_as_after_loading(tmp_path: Path) -> None:
    root = copy_repo(tmp_path)
    in_new_process(root, None, "state")
    for edit in OFFLINE:
        edit(root)
    answers: Answers = in_new_process(root, None, "answers", ASKED)
    assert not answers.loaded_after_lookups  # search, outline, lookups did not wait for it
    search = answers.lookups["search"]
    assert [h.node_id for h in search["offline_added"]] == ["pkg/core.py#offline_added"]
    assert [h.node_id for h in search["later"]] == ["pkg/late.py#later"]
    assert search["boot"] == []  # removed meanwhile
    assert answers.lookups["outline"]["pkg/core.py"][-1].node_id == "pkg/core.py#offline_added"
    assert answers.lookups["outline"]["pkg/util.py"] is None
    used = answers.uses
    assert {n.node_id for n in used["pkg/core.py#offline_added", "in"]} == {
        "pkg/core.py#Engine.step",
        "pkg/late.py#later",
    }
    assert {n.node_id for n in used["pkg/core.py#offline_added", "out"]} == {"pkg/core.py#helper"}
    assert (answers.lookups, answers.uses) == answers.loaded
    built = fresh(root, tmp_path)
    assert answers.loaded == (lookups(built, ASKED), uses(built, ASKED))


# 3. A store whose writer was killed mid-save, then offline edits.


def test_offline_edits_after_a_save_killed_midway_reopen_as_a_full_build(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    write_repo(root, modules=20, padding=20)  # enough rows that a save takes a moment
    git(root, "init", "-q")  # the store under the root is git-ignored: both builds list the same
    kill_mid_save(root)
    rnd = random.Random(SEEDS[0])
    done = [random_edit(rnd, root, step) for step in range(3)]
    _assert_reopened_as_built(root, None, tmp_path, f"after a killed save and {done}")


# 4. Answers asked while the graph loads in a background thread.

ASKED_GENERATED = Questions(
    patterns=("f1", "C*", "re:^h\\d$", "lib/"),
    paths=("lib/m0.py", "lib/m3.py", "web/t2.ts", "app.py"),
    node_ids=(
        "lib/m0.py#f0",
        "lib/m0.py#C0",
        "lib/m3.py#C3.step",
        "web/t1.ts#K1",
        "web/t2.ts#h2",
        "app.py#main",
    ),
)


def _asked_while_loading(code_map: CodeMap, ask: Callable[[CodeMap], Any]) -> tuple[list[Any], Any]:
    """`ask` the map as its graph starts loading in a thread, and again while the load
    is held at its first progress report (when it reports any); then once it is done.
    An answer that waits for the load fails (the load was held until it gave up)."""
    reported, answered = threading.Event(), threading.Event()
    loaded: list[bool] = []
    released: list[bool] = []
    """Whether the held load was released by the answers (not by giving up)."""

    def hold(*_: object) -> None:
        if not reported.is_set():
            reported.set()
            released.append(answered.wait(GATE_TIMEOUT_S))

    def load() -> None:
        try:
            loaded.append(code_map.load_graph(hold))
        finally:
            reported.set()

    loader = threading.Thread(target=load)
    loader.start()
    try:
        during = [ask(code_map)]
        assert reported.wait(GATE_TIMEOUT_S), "the graph load never started"
        during.append(ask(code_map))
    finally:
        answered.set()
        loader.join(GATE_TIMEOUT_S)
    assert released != [False], "an answer asked during the load waited for the load"
    assert loaded == [True] and code_map.graph_loaded
    return during, ask(code_map)


@pytest.mark.parametrize("edited", [False, True], ids=["unchanged", "edited_offline"])
def test_answers_while_the_graph_loads_are_the_answers_after(tmp_path: Path, edited: bool) -> None:
    root, store = tmp_path / "repo", tmp_path / "store"
    write_repo(root, modules=12, padding=3)
    in_new_process(root, store, "state")
    rnd = random.Random(SEEDS[1])
    done = [random_edit(rnd, root, step) for step in range(3 if edited else 0)]
    code_map = CodeMap.open(root, settings(store), link_later=True)
    assert not code_map.graph_loaded
    if edited:  # the uses of files edited offline wait for the graph (map.live.reader)
        ask: Callable[[CodeMap], Any] = partial(lookups, questions=ASKED_GENERATED)
    else:
        ask = partial(_lookups_and_uses, questions=ASKED_GENERATED)
    during, after = _asked_while_loading(code_map, ask)
    for number, answer in enumerate(during):
        assert answer == after, f"answer {number} during the load, after {done}"
    assert after == ask(fresh(root, tmp_path))


def _lookups_and_uses(code_map: CodeMap, questions: Questions) -> tuple[Any, Any]:
    return lookups(code_map, questions), uses(code_map, questions)
