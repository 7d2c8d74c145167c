"""map_changes and `memory check --since` on a real commit of a fixture repository.

The change modifies a function two others depend on, renames a method, adds
a function, moves one to a new file and removes another; memories anchored
before it are listed when the change moved, modified or deleted what they
point at, or changed what their symbol calls. Through a real MCP client,
with ty confirming the first-hop dependents (`verify`).
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import orjson
import pytest

from bridge.cli.main import main
from map.extraction.outline import outline_file
from memory.changes import diff_files
from memory.errors import MemoryInputError
from memory.service import MemoryService, NewMemory
from memory.symdiff import Side, diff_symbols
from tests.bridge.mcp_session import call, call_error, serve
from tests.conftest import FIXTURES, require_binary
from tests.memory.conftest import Repo

SCENARIO_TIMEOUT_S = 180.0
HELPERS = """

def fmt_total(value: float) -> str:
    return f"{value:.2f}"


def old_helper() -> int:
    return 1
"""
EXPECTED = {
    ("modified", "app/shapes.py#total_area", "app/shapes.py#total_area"),
    ("renamed", "app/shapes.py#Shape.explain", "app/shapes.py#Shape.describe"),
    ("added", "app/shapes.py#perimeter", None),
    ("moved", "app/fmt.py#fmt_total", "app/report.py#fmt_total"),
    ("removed", None, "app/report.py#old_helper"),
}


def _repo(tmp_path: Path) -> tuple[Repo, dict[str, str]]:
    """py_app with two helpers, committed, with memories saved on it; then the change."""
    repo = Repo(tmp_path / "py_app")
    shutil.copytree(FIXTURES / "py_app", repo.root)
    repo.git("init", "-q", "-b", "main")
    repo.write(".gitignore", ".codeanchor/\n")
    repo.write("codeanchor.toml", 'servers = { python = "ty" }\n')
    repo.write("app/report.py", repo.read("app/report.py") + HELPERS)
    repo.commit("start")
    notes = {
        "sums": "app/shapes.py#total_area",
        "describes": "app/shapes.py#Shape.describe",
        "reports": "app/report.py#build_report",
        "formats": "app/report.py#fmt_total",
        "logs": "app/decorators.py#logged",
    }
    with MemoryService(repo.root) as service:
        ids = {text: service.save(NewMemory(text, (ref,))).id for text, ref in notes.items()}
    shapes = repo.read("app/shapes.py")
    shapes = shapes.replace("return sum(", "return 2 * sum(").replace("def describe", "def explain")
    repo.write(
        "app/shapes.py", shapes + "\n\ndef perimeter(side: float) -> float:\n    return 4 * side\n"
    )
    repo.write("app/report.py", repo.read("app/report.py").replace(HELPERS, "\n"))
    repo.write("app/fmt.py", HELPERS.split("\n\ndef old_helper")[0].lstrip() + "\n")
    return repo, ids


def _symbols(data: dict[str, Any]) -> set[tuple[str, str | None, str | None]]:
    return {(s["change"], s["nodeId"], s["oldId"]) for s in data["symbols"]}


def _dependents(data: dict[str, Any], node_id: str) -> list[dict[str, Any]]:
    (found,) = [s for s in data["symbols"] if s["nodeId"] == node_id]
    dependents: list[dict[str, Any]] = found["dependents"]
    return dependents


def test_map_changes_lists_symbols_blast_radius_and_touched_memories(tmp_path: Path) -> None:
    require_binary("ty")
    repo, ids = _repo(tmp_path)

    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo.root) as client:
            answer = await call(client, "map_changes", verify=True)
            repo.commit("the change")
            committed = await call(client, "map_changes", since="HEAD~1", until="HEAD")
            assert _symbols(committed["data"]) == EXPECTED
            error = await call_error(client, "map_changes", since="no-such-commit")
            assert error["code"] == "bad_input"
            assert "no-such-commit" in error["message"]
            return answer

    data = asyncio.run(scenario())["data"]
    assert _symbols(data) == EXPECTED
    assert data["counts"] == {"added": 1, "removed": 1, "modified": 1, "moved": 1, "renamed": 1}
    radius = [
        (d["nodeId"], d["distance"], d["confidence"])
        for d in _dependents(data, "app/shapes.py#total_area")
    ]
    assert radius == [("app/report.py#build_report", 1, 1.0), ("app/cli.py#main", 2, 1.0)]
    first_hop = _dependents(data, "app/shapes.py#total_area")[0]
    assert first_hop["verified"] is True
    assert data["verification"]["held"] >= 1

    memories = {m["id"]: m for m in data["memories"]}
    assert set(memories) == {ids["sums"], ids["describes"], ids["reports"], ids["formats"]}
    assert memories[ids["sums"]]["text"] == "sums"
    assert [r["status"] for r in memories[ids["sums"]]["refs"]] == ["modified"]
    assert [(r["status"], r["symbol"]) for r in memories[ids["describes"]]["refs"]] == [
        ("renamed", "Shape.explain")
    ]
    assert [(r["status"], r["path"]) for r in memories[ids["formats"]]["refs"]] == [
        ("relocated", "app/fmt.py")
    ]
    assert memories[ids["reports"]]["refs"] == []
    assert memories[ids["reports"]]["calleesChanged"] == ["app/shapes.py#total_area"]


def test_memory_check_since_lists_the_memories_a_diff_touches(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, ids = _repo(tmp_path)
    code = main(["memory", "check", "--since", "HEAD", "--root", str(repo.root), "--json"])
    out = orjson.loads(capsys.readouterr().out)
    assert code == 1
    listed = {m["id"]: m for m in out["memories"]}
    assert set(listed) == {ids["sums"], ids["describes"], ids["reports"], ids["formats"]}
    assert listed[ids["sums"]]["touchedRefs"] == ["app/shapes.py#total_area"]
    assert listed[ids["reports"]]["calleesChanged"] == ["app/shapes.py#total_area"]

    repo.git("checkout", "--", ".")
    (repo.root / "app" / "fmt.py").unlink()
    code = main(["memory", "check", "--since", "HEAD", "--root", str(repo.root), "--json"])
    assert code == 0
    assert orjson.loads(capsys.readouterr().out)["memories"] == []


def _side(path: str, text: str) -> Side:
    return Side(outline_file(path, text.encode()), text)


def test_a_reformat_is_no_change_and_an_edited_move_is_a_move() -> None:
    old = {
        "a.py": _side(
            "a.py",
            "def f(x):\n    return x + 1\n\n\n"
            "def g(y):\n    a = y * 2\n    b = a + 3\n    return a + b\n",
        )
    }
    new = {
        "a.py": _side("a.py", "def f(x):\n    # one more\n    return  x + 1\n"),
        "b.py": _side("b.py", "def g(y):\n    a = y * 2\n    b = a + 4\n    return a + b\n"),
    }
    found = diff_symbols(old, new, {})
    assert [(c.change, c.node_id, c.old_id) for c in found] == [("moved", "b.py#g", "a.py#g")]
    assert found[0].similarity is not None and found[0].similarity < 1.0


def test_diff_files_refuses_an_unknown_commit(tmp_path: Path) -> None:
    repo, _ = _repo(tmp_path)
    with pytest.raises(MemoryInputError, match="unknown commit"):
        diff_files(repo.root, "nope")


def test_a_rename_is_found_though_the_body_still_names_the_old_name() -> None:
    old = {"t.py": _side("t.py", "def walk(n):\n    return walk(n - 1) if n else 0\n")}
    new = {"t.py": _side("t.py", "def visit(n):\n    return walk(n - 1) if n else 0\n")}
    found = diff_symbols(old, new, {})
    assert [(c.change, c.node_id, c.old_id) for c in found] == [
        ("renamed", "t.py#visit", "t.py#walk")
    ]


CALLEE = "def callee(x: int) -> int:\n    return x + 1\n"
CALLER = (
    "from lib import callee\n\n\ndef caller(y: int) -> int:\n    return callee(y) * 2\n\n\n"
    "def alone(z: int) -> int:\n    return z\n"
)


def _callee_repo(tmp_path: Path) -> tuple[Repo, dict[str, str]]:
    """`caller` in use.py calls `callee` in lib.py. Memories on `caller`: one made stale by
    an edit of `caller` (checked, so stored stale), a draft from before that edit, one
    saved after it and never verified; one on `alone`, which calls nothing. Then `callee`
    changes (uncommitted)."""
    repo = Repo(tmp_path / "calls")
    repo.root.mkdir()
    repo.git("init", "-q", "-b", "main")
    repo.write(".gitignore", ".codeanchor/\n")
    repo.write("lib.py", CALLEE)
    repo.write("use.py", CALLER)
    repo.commit("start")
    with MemoryService(repo.root) as service:
        ids = {
            "stale": service.save(NewMemory("stale", ("use.py#caller",))).id,
            "draft": service.save(NewMemory("draft", ("use.py#caller",), draft=True)).id,
            "alone": service.save(NewMemory("alone", ("use.py#alone",))).id,
        }
        repo.write("use.py", CALLER.replace("* 2", "* 3"))
        repo.commit("caller edited")
        assert [c.status for c in service.check([ids["stale"]])] == ["stale"]
        ids["unverified"] = service.save(NewMemory("unverified", ("use.py#caller",))).id
    repo.write("lib.py", CALLEE.replace("x + 1", "x + 2"))
    return repo, ids


def test_a_changed_callee_lists_its_callers_memories_whatever_their_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo, ids = _callee_repo(tmp_path)

    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo.root) as client:
            return await call(client, "map_changes")

    data = asyncio.run(scenario())["data"]
    callers = {ids["stale"], ids["draft"], ids["unverified"]}
    listed = {m["id"]: m for m in data["memories"]}
    assert set(listed) == callers  # not `alone`: it calls nothing that changed
    assert {m["calleesChanged"] == ["lib.py#callee"] for m in listed.values()} == {True}
    assert {listed[i]["status"] for i in callers} == {"stale", "draft", "active"}
    assert {m["refs"] == [] for m in listed.values()} == {True}  # use.py is not in the diff

    code = main(
        ["memory", "check", "--since", "HEAD", "--no-live", "--root", str(repo.root), "--json"]
    )
    out = orjson.loads(capsys.readouterr().out)
    assert code == 1
    assert {m["id"]: tuple(m["calleesChanged"]) for m in out["memories"]} == dict.fromkeys(
        callers, ("lib.py#callee",)
    )


def _shared_by_many(tmp_path: Path, users: int) -> Repo:
    """`lib.shared` used by `users` files, then changed (uncommitted)."""
    repo = Repo(tmp_path)
    repo.git("init", "-q", "-b", "main")
    repo.write(".gitignore", ".codeanchor/\n")
    repo.write("lib.py", "def shared():\n    return 1\n")
    for n in range(users):
        repo.write(
            f"use_{n}.py", f"from lib import shared\n\n\ndef use_{n}():\n    return shared()\n"
        )
    repo.commit("start")
    repo.write("lib.py", "def shared():\n    return 2\n")
    return repo


@pytest.mark.parametrize("budget", [400, 1000, None])
def test_the_changed_symbol_is_kept_and_its_dependents_cut_first_at_any_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], budget: int
) -> None:
    users = 120  # more than the default budget holds
    repo = _shared_by_many(tmp_path, users)
    args = ["map", "changes", "--depth", "1", "--json", "--root", str(repo.root)]
    code = main(args if budget is None else [*args, "--budget", str(budget)])
    answer = orjson.loads(capsys.readouterr().out)
    assert code == 0
    (symbol,) = answer["data"]["symbols"]
    assert (symbol["nodeId"], symbol["dependentCount"]) == ("lib.py#shared", users)
    listed = len(symbol["dependents"])
    assert listed < users
    assert {"items": "dependents", "kept": listed, "dropped": users - listed} in answer[
        "truncated"
    ]["cuts"]
    assert all(c["items"] != "symbols" for c in answer["truncated"]["cuts"])


def test_dependents_follow_the_budget_past_25(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    users = 60
    repo = _shared_by_many(tmp_path, users)
    args = ["map", "changes", "--depth", "1", "--budget", "50000", "--json"]
    assert main([*args, "--root", str(repo.root)]) == 0
    answer = orjson.loads(capsys.readouterr().out)
    (symbol,) = answer["data"]["symbols"]
    assert symbol["completeness"] == answer["data"]["completeness"] == "complete"
    assert len(symbol["dependents"]) == symbol["dependentCount"] == users
    assert answer["truncated"] is None


def test_a_changed_method_used_through_an_unknown_receiver_has_partial_dependents(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = Repo(tmp_path)
    repo.git("init", "-q", "-b", "main")
    repo.write(".gitignore", ".codeanchor/\n")
    for name in "ABCDEF":  # more `save`s than the map guesses between
        repo.write(f"{name.lower()}.py", f"class {name}:\n    def save(self):\n        return 1\n")
    repo.write("use.py", "def keep(thing):\n    return thing.save()\n")
    repo.commit("start")
    repo.write("a.py", "class A:\n    def save(self):\n        return 2\n")
    code = main(["map", "changes", "--root", str(repo.root), "--json"])
    answer = orjson.loads(capsys.readouterr().out)
    assert code == 0
    (symbol,) = answer["data"]["symbols"]
    assert symbol["nodeId"] == "a.py#A.save"
    assert symbol["completeness"] == answer["data"]["completeness"] == "partial"
    assert [r["code"] for r in answer["data"]["completenessReasons"]] == ["unresolved_uses"]
    assert [(u["path"], u["line"], u["name"]) for u in symbol["unresolved"]] == [
        ("use.py", 2, "save")
    ]
