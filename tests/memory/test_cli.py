"""`codeanchor memory ...`: JSON shapes and exit codes of docs/contracts.md (CLI)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from bridge.cli.main import main
from tests.memory.conftest import Repo

CODE = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"
REF_RESULT_KEYS = {
    "ref",
    "status",
    "path",
    "symbol",
    "start_line",
    "end_line",
    "confidence",
    "reason",
}
STORED_REF_KEYS = {
    "ref",
    "type",
    "path",
    "symbol",
    "start_line",
    "end_line",
    "commit",
    "branch",
    "dirty",
    "content_hash",
    "fingerprint",
    "text",
}


@pytest.fixture
def shapes(repo: Repo) -> Repo:
    repo.write("shapes.py", CODE)
    repo.commit("start")
    return repo


def _run(capsys: pytest.CaptureFixture[str], repo: Repo, *args: str) -> tuple[int, Any, str]:
    code = main(["memory", *args, "--root", str(repo.root), "--json"])
    out, err = capsys.readouterr()
    return code, orjson.loads(out) if out.strip() else None, err


def _add(capsys: pytest.CaptureFixture[str], repo: Repo, *refs: str) -> str:
    args = ["add", "--text", "area multiplies width by height", "--kind", "fact", "--tag", "geo"]
    for ref in refs:
        args += ["--ref", ref]
    code, data, _ = _run(capsys, repo, *args)
    assert code == 0
    return str(data["id"])


def test_add_answers_id_and_stored_refs(capsys: pytest.CaptureFixture[str], shapes: Repo) -> None:
    code, data, _ = _run(
        capsys,
        shapes,
        "add",
        "--text",
        "area is w*h",
        "--ref",
        "shapes.py#area",
        "--ref",
        "shapes.py:5-6",
        "--ref",
        "shapes.py",
    )
    assert code == 0
    assert set(data) == {"id", "refs"}
    assert [set(r) for r in data["refs"]] == [STORED_REF_KEYS] * 3
    assert [r["type"] for r in data["refs"]] == ["symbol", "line_range", "file"]
    first = data["refs"][0]
    assert (first["symbol"], first["start_line"], first["end_line"]) == ("area", 1, 2)
    assert first["branch"] == "main" and first["dirty"] is False
    assert first["commit"] == shapes.git("rev-parse", "HEAD").strip()


def test_check_shape_and_exit_codes(capsys: pytest.CaptureFixture[str], shapes: Repo) -> None:
    memory_id = _add(capsys, shapes, "shapes.py#area")
    code, data, _ = _run(capsys, shapes, "check")
    assert code == 0
    (memory,) = data["memories"]
    assert set(memory) == {"id", "status", "refs", "warnings"}
    assert (memory["id"], memory["status"]) == (memory_id, "active")
    assert [set(r) for r in memory["refs"]] == [REF_RESULT_KEYS]
    shapes.write("shapes.py", CODE.replace("w * h", "h * w"))
    code, data, _ = _run(capsys, shapes, "check", memory_id)
    assert code == 1
    (ref,) = data["memories"][0]["refs"]
    assert data["memories"][0]["status"] == "stale"
    assert (ref["status"], ref["reason"], ref["path"]) == (
        "modified",
        "symbol_changed",
        "shapes.py",
    )


def test_bad_input_exits_2_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], shapes: Repo
) -> None:
    store = shapes.root / ".codeanchor" / "memory.db"
    for ref in ("shapes.py#", "shapes.py#volume", "../elsewhere.py", "nowhere.py"):
        code = main(["memory", "add", "--root", str(shapes.root), "--text", "t", "--ref", ref])
        out, err = capsys.readouterr()
        assert (code, out) == (2, "")
        assert err.startswith("codeanchor: ")
    assert not store.exists()
    memory_id = _add(capsys, shapes, "shapes.py#area")
    code, data, err = _run(capsys, shapes, "show", memory_id + "x")
    assert code == 2
    assert data["error"]["code"] == "unknown_id"
    assert memory_id in err


def test_store_option_and_environment(
    capsys: pytest.CaptureFixture[str],
    shapes: Repo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chosen = tmp_path / "elsewhere" / "m.db"
    code, _, _ = _run(
        capsys, shapes, "add", "--text", "t", "--ref", "shapes.py", "--store", str(chosen)
    )
    assert code == 0 and chosen.exists()
    monkeypatch.setenv("CODEANCHOR_STORE", str(chosen))
    code, data, _ = _run(capsys, shapes, "list")
    assert len(data["memories"]) == 1
    assert not (shapes.root / ".codeanchor").exists()


def test_export_then_import_round_trip(
    capsys: pytest.CaptureFixture[str], shapes: Repo, tmp_path: Path
) -> None:
    first = _add(capsys, shapes, "shapes.py#area", "shapes.py:5-6")
    assert main(["memory", "export", "--root", str(shapes.root), "--json"]) == 0
    out, _ = capsys.readouterr()
    (line,) = [orjson.loads(text) for text in out.splitlines()]
    assert (line["id"], line["text"], line["refs"]) == (
        first,
        "area multiplies width by height",
        ["shapes.py#area", "shapes.py:5-6"],
    )
    assert line["check"]["status"] == "active"
    exported = tmp_path / "out.jsonl"
    exported.write_text(out)
    code, data, _ = _run(capsys, shapes, "import", str(exported))
    assert code == 0 and len(data["ids"]) == 1 and data["ids"] != [first]
    code, data, _ = _run(capsys, shapes, "list")
    assert [m["refs"] for m in data["memories"]] == [line["refs"]] * 2


def test_recall_list_show_verify_supersede_retire(
    capsys: pytest.CaptureFixture[str], shapes: Repo
) -> None:
    memory_id = _add(capsys, shapes, "shapes.py#area")
    code, data, _ = _run(capsys, shapes, "recall", "width height")
    assert code == 0
    (hit,) = data["hits"]
    assert (hit["id"], hit["status"], hit["warning"]) == (memory_id, "active", None)
    assert set(hit["check"]) == {"id", "status", "refs", "warnings"}
    code, data, _ = _run(capsys, shapes, "show", memory_id)
    assert data["memory"]["last_used_at"] is not None
    assert data["memory"]["last_verified_at"] is None
    code, data, _ = _run(capsys, shapes, "verify", memory_id)
    assert code == 0 and data["memories"][0]["id"] == memory_id
    code, data, _ = _run(capsys, shapes, "supersede", memory_id, "--text", "area = w * h")
    assert code == 0 and data["supersedes"] == memory_id
    new_id = data["id"]
    code, data, _ = _run(capsys, shapes, "retire", new_id)
    assert data == {"id": new_id, "status": "retired"}
    code, data, _ = _run(capsys, shapes, "list", "--status", "superseded")
    assert [m["superseded_by"] for m in data["memories"]] == [new_id]


def test_review_without_a_terminal_refuses(
    capsys: pytest.CaptureFixture[str], shapes: Repo
) -> None:
    code = main(["memory", "review", "--root", str(shapes.root)])
    _, err = capsys.readouterr()
    assert code == 2
    assert "terminal" in err and "memory verify" in err
