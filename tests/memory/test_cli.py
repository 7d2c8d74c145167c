"""`codeanchor memory ...`: JSON shapes and exit codes of docs/contracts.md (CLI)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest

from bridge.cli.main import main
from tests.conftest import require_binary
from tests.memory.conftest import Repo

CODE = "def area(w, h):\n    return w * h\n\n\ndef perimeter(w, h):\n    return 2 * (w + h)\n"
REF_RESULT_KEYS = {
    "ref",
    "status",
    "path",
    "symbol",
    "startLine",
    "endLine",
    "confidence",
    "reason",
    "liveConfirmed",
    "liveReason",
}
STORED_REF_KEYS = {
    "ref",
    "type",
    "path",
    "symbol",
    "startLine",
    "endLine",
    "commit",
    "branch",
    "dirty",
    "contentHash",
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
    assert (first["symbol"], first["startLine"], first["endLine"]) == ("area", 1, 2)
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
    # edited within its own lines: nothing found elsewhere to confirm, no server asked
    assert (ref["liveConfirmed"], ref["liveReason"]) == (None, "not_needed")


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
    assert data["memory"]["lastUsedAt"] is not None
    assert data["memory"]["lastVerifiedAt"] is None
    code, data, _ = _run(capsys, shapes, "verify", memory_id)
    assert code == 0 and data["memories"][0]["id"] == memory_id
    code, data, _ = _run(capsys, shapes, "supersede", memory_id, "--text", "area = w * h")
    assert code == 0 and data["supersedes"] == memory_id
    new_id = data["id"]
    code, data, _ = _run(capsys, shapes, "retire", new_id)
    assert data == {"id": new_id, "status": "retired"}
    code, data, _ = _run(capsys, shapes, "list", "--status", "superseded")
    assert [m["supersededBy"] for m in data["memories"]] == [new_id]


def test_review_without_a_terminal_refuses(
    capsys: pytest.CaptureFixture[str], shapes: Repo
) -> None:
    code = main(["memory", "review", "--root", str(shapes.root)])
    _, err = capsys.readouterr()
    assert code == 2
    assert "terminal" in err and "memory verify" in err


def _keys(value: Any) -> set[str]:
    """Every key of every object in a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_every_answer_has_camel_case_keys(capsys: pytest.CaptureFixture[str], shapes: Repo) -> None:
    memory_id = _add(capsys, shapes, "shapes.py#area", "shapes.py:5-6", "shapes.py")
    answers = [
        _run(capsys, shapes, *args)[1] for args in (["check"], ["list"], ["show", memory_id])
    ]
    answers.append(_run(capsys, shapes, "recall", "width")[1])
    answers.append(_run(capsys, shapes, "verify", memory_id)[1])
    superseding = _run(capsys, shapes, "supersede", memory_id, "--text", "area = w * h")[1]
    answers += [superseding, _run(capsys, shapes, "retire", superseding["id"])[1]]
    assert main(["memory", "export", "--root", str(shapes.root), "--json"]) == 0
    answers += [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    keys = set().union(*(_keys(a) for a in answers))
    assert {"startLine", "contentHash", "lastVerifiedAt", "supersededBy", "liveReason"} <= keys
    assert sorted(k for k in keys if "_" in k) == []


def test_an_export_with_the_old_snake_case_keys_still_imports(
    capsys: pytest.CaptureFixture[str], shapes: Repo, tmp_path: Path
) -> None:
    old = {
        "text": "area is w*h",
        "refs": ["shapes.py#area"],
        "id": "m-000000000001",
        "status": "active",
        "created_at": "2026-01-01T00:00:00Z",
        "last_used_at": None,
        "last_verified_at": None,
        "superseded_by": None,
    }
    exported = tmp_path / "old.jsonl"
    exported.write_bytes(orjson.dumps(old) + b"\n")
    code, data, _ = _run(capsys, shapes, "import", str(exported))
    assert code == 0 and len(data["ids"]) == 1


MOVED = "def area(w, h, scale=1):\n    return w * h * scale\n"


@pytest.mark.store_specific
@pytest.mark.parametrize("server", ["ty", "pyright"])
def test_check_confirms_a_found_symbol_with_a_live_server(
    capsys: pytest.CaptureFixture[str], shapes: Repo, server: str
) -> None:
    require_binary("ty" if server == "ty" else "pyright-langserver")
    shapes.write("codeanchor.toml", f'servers = {{ python = "{server}" }}\n')
    shapes.commit("choose the server")
    memory_id = _add(capsys, shapes, "shapes.py#area")
    shapes.write("shapes.py", CODE[CODE.index("def perimeter") :])
    shapes.write("geometry.py", "import math\n\n\n" + MOVED)
    code, data, err = _run(capsys, shapes, "check", memory_id)
    (ref,) = data["memories"][0]["refs"]
    assert (code, ref["status"], ref["path"], ref["startLine"]) == (1, "modified", "geometry.py", 4)
    assert (ref["liveConfirmed"], ref["liveReason"]) == (True, "listed")
    assert "live confirmation" not in err
    assert main(["memory", "check", "--root", str(shapes.root)]) == 1
    assert "-> geometry.py#area lines 4-5 [live: listed]" in capsys.readouterr().out
    code, data, _ = _run(capsys, shapes, "check", "--no-live")
    (ref,) = data["memories"][0]["refs"]
    assert (code, ref["status"], ref["liveConfirmed"], ref["liveReason"]) == (
        1,
        "modified",
        None,
        "skipped",
    )


@pytest.mark.store_specific
def test_check_says_when_no_server_is_installed(
    capsys: pytest.CaptureFixture[str],
    shapes: Repo,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CODEANCHOR_CONFIG_HOME", str(tmp_path / "config"))
    shapes.write("codeanchor.toml", '[server.ty]\ncommand = ["ty-not-installed", "server"]\n')
    assert main(["trust", "--root", str(shapes.root)]) == 0
    capsys.readouterr()
    _add(capsys, shapes, "shapes.py#area")
    shapes.write("shapes.py", CODE[CODE.index("def perimeter") :])
    shapes.write("geometry.py", "import math\n\n\n" + MOVED)
    code, data, err = _run(capsys, shapes, "check")
    (ref,) = data["memories"][0]["refs"]
    assert (code, ref["status"], ref["path"]) == (1, "modified", "geometry.py")
    assert (ref["liveConfirmed"], ref["liveReason"]) == (None, "no_server")
    assert "live confirmation: no python language server: ty is not installed" in err


def test_a_broken_configuration_leaves_the_check_unconfirmed_not_failed(
    capsys: pytest.CaptureFixture[str], shapes: Repo
) -> None:
    _add(capsys, shapes, "shapes.py#area")
    shapes.write("codeanchor.toml", "bogus_key = 1\n")
    shapes.write("shapes.py", CODE[CODE.index("def perimeter") :])
    shapes.write("geometry.py", "import math\n\n\n" + MOVED)
    code, data, err = _run(capsys, shapes, "check")
    (ref,) = data["memories"][0]["refs"]
    assert (code, ref["status"], ref["liveConfirmed"], ref["liveReason"]) == (
        1,
        "modified",
        None,
        "skipped",
    )
    assert "live confirmation off: " in err and "bogus_key" in err


@pytest.mark.store_specific
def test_check_since_confirms_the_touched_memories_live(
    capsys: pytest.CaptureFixture[str], shapes: Repo
) -> None:
    require_binary("ty")
    memory_id = _add(capsys, shapes, "shapes.py#area")
    shapes.write("shapes.py", CODE[CODE.index("def perimeter") :])
    shapes.write("geometry.py", "import math\n\n\n" + MOVED)
    for flags, live in (([], (True, "listed")), (["--no-live"], (None, "skipped"))):
        code, data, err = _run(capsys, shapes, "check", "--since", "HEAD", *flags)
        (memory,) = data["memories"]
        (ref,) = memory["refs"]
        assert (code, memory["id"], memory["touchedRefs"]) == (1, memory_id, ["shapes.py#area"])
        assert (ref["path"], ref["liveConfirmed"], ref["liveReason"]) == ("geometry.py", *live)
        assert "live confirmation" not in err
