"""The fresh-process measures' own logic: the hub they ask about, the offline edit they
make, and the polling that waits for an answer to include it."""

from __future__ import annotations

import asyncio
import importlib
import sqlite3
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture
def targets(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    return importlib.import_module("mapbench.targets")


@pytest.fixture
def session(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    return importlib.import_module("mapbench.session")


def _store(root: Path, edges: list[tuple[str, str]]) -> None:
    (root / ".codeanchor").mkdir()
    with sqlite3.connect(root / ".codeanchor" / "map.sqlite") as db:
        db.execute("CREATE TABLE edges (source TEXT, target TEXT, kind TEXT)")
        db.executemany("INSERT INTO edges VALUES (?, ?, 'calls')", edges)


def test_the_hub_is_the_symbol_with_the_most_incoming_edges(
    targets: ModuleType, tmp_path: Path
) -> None:
    edges = [(f"a.py#f{i}", "b.py#Hub") for i in range(3)]
    edges += [(f"a.py#g{i}", "b.py") for i in range(5)]  # a file, not a symbol
    edges += [("a.py#f0", "c.py#Other"), ("a.py#f1", "c.py#Other")]
    _store(tmp_path, edges)
    assert targets.pick_hub(tmp_path) == "b.py#Hub"


def test_no_hub_is_a_clear_error(targets: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="cannot pick the hub symbol"):
        targets.pick_hub(tmp_path)  # no store
    _store(tmp_path, [("a.py#f", "b.py")])
    with pytest.raises(RuntimeError, match="no edge into a symbol"):
        targets.pick_hub(tmp_path)


def test_the_caller_goes_in_the_sibling_closest_in_size(targets: ModuleType) -> None:
    sizes = {
        "pkg/mod.py": 1_000,
        "pkg/near.py": 1_200,
        "pkg/far.py": 9_000,
        "pkg/data.txt": 1_000,  # not Python
        "pkg/sub/same.py": 1_000,  # not beside it
    }
    assert targets.caller_file("pkg/mod.py", sizes) == "pkg/near.py"
    with pytest.raises(RuntimeError, match="no sibling"):
        targets.caller_file("pkg/sub/same.py", sizes)


@pytest.mark.parametrize("callee", ["mod.py", "__init__.py"])
def test_the_offline_edit_is_python_whose_caller_calls_the_new_function(
    targets: ModuleType, tmp_path: Path, callee: str
) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    for name in ("__init__.py", "mod.py", "other.py"):
        (package / name).write_text("VALUE = 1\n")
    edit = targets.OfflineEdit(f"pkg/{callee}", "pkg/other.py", 7)
    for rel, text in (
        (edit.callee_file, edit.callee_text()),
        (edit.caller_file, edit.caller_text()),
    ):
        with (tmp_path / rel).open("a") as file:
            file.write(text)
    call = f"import pkg.other; print(pkg.other.{edit.caller}())"
    ran = subprocess.run(
        [sys.executable, "-c", call], cwd=tmp_path, capture_output=True, text=True, check=True
    )
    assert ran.stdout.strip() == "7"
    assert edit.callee_id == f"pkg/{callee}#_codeanchor_bench_callee_7"
    assert edit.caller_id == "pkg/other.py#_codeanchor_bench_caller_7"


def test_poll_returns_the_first_answer_that_is_done(session: ModuleType) -> None:
    answers = iter([[], ["old"], ["old", "new"], ["never asked"]])

    async def ask() -> list[str]:
        return next(answers)

    found = asyncio.run(session.poll(ask, lambda a: "new" in a, "search", every_s=0))
    assert found == ["old", "new"]


def test_poll_past_its_deadline_names_what_never_turned(session: ModuleType) -> None:
    async def ask() -> list[str]:
        return []

    with pytest.raises(RuntimeError, match="map_search after a restart: no answer turned"):
        asyncio.run(session.poll(ask, bool, "map_search after a restart", deadline_s=0, every_s=0))
