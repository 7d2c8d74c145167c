"""The team store of map rows from the command line and from a server: a second clone
takes every extract, a store that cannot be used is one line (CLI) or a local map that
says why (serve)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest

from map import CodeMap
from tests.adversarial.cli import Done
from tests.bridge.mcp_session import call, example_repo, serve
from tests.bridge.test_cli import envelope, run_cli
from tests.map.graph_state import git
from tests.map.team import clone

TIMEOUT_S = 120.0


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_map_build_in_a_second_clone_takes_every_extract_from_the_store(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, team_database: str
) -> None:
    origin = example_repo(tmp_path / "origin", watch=False)
    first = run_cli(
        capsys, clone(origin, tmp_path / "a"), "map", "build", "--store", team_database, "--json"
    )
    published = envelope(first)["data"]
    assert published["teamStore"]["inUse"] is True
    assert published["teamStore"]["published"] == published["files"]

    second_root = clone(origin, tmp_path / "b" / "elsewhere")
    second = envelope(
        run_cli(capsys, second_root, "map", "build", "--store", team_database, "--json")
    )["data"]
    team = second["teamStore"]
    assert (team["fetched"], team["extracted"], team["published"]) == (second["files"], 0, 0)
    assert "***" in team["store"] and team_database.split(":")[2].split("@")[0] not in team["store"]
    assert {k: second[k] for k in ("files", "symbols", "edges", "languages")} == {
        k: published[k] for k in ("files", "symbols", "edges", "languages")
    }


def test_map_build_with_an_unreachable_store_is_one_line_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    root = example_repo(tmp_path, watch=False)
    wrong = f"postgresql://agent:hunter2@127.0.0.1:{_closed_port()}/team"
    done: Done = run_cli(capsys, root, "map", "build", "--store", wrong, "--json")
    assert done.code == 2
    error = done.json()["error"]
    assert error["code"] == "bad_store"
    assert "cannot connect to the team store" in error["message"]
    assert "hunter2" not in done.out + done.err
    assert len(done.err.splitlines()) == 2  # the message and its hint
    assert not CodeMap.has_store(root)


def test_serve_with_an_unreachable_store_answers_from_its_own_map_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = example_repo(tmp_path, watch=False)
    monkeypatch.setenv("CODEANCHOR_STORE", f"postgresql://agent:pw@127.0.0.1:{_closed_port()}/t")

    async def scenario() -> None:
        async with serve(root) as client:
            status = (await call(client, "map_status"))["data"]
            found = (await call(client, "map_search", query="apply_discount"))["data"]
        team = status["teamStore"]
        assert team["inUse"] is False
        assert "cannot connect to the team store" in team["reason"]
        assert status["files"] > 0 and found["hits"]

    asyncio.run(asyncio.wait_for(scenario(), TIMEOUT_S))


def test_serve_in_a_second_clone_builds_from_the_store(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    team_database: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    origin = example_repo(tmp_path / "origin", watch=False)
    envelope(
        run_cli(
            capsys,
            clone(origin, tmp_path / "a"),
            "map",
            "build",
            "--store",
            team_database,
            "--json",
        )
    )
    root = clone(origin, tmp_path / "b")
    monkeypatch.setenv("CODEANCHOR_STORE", team_database)

    async def scenario() -> None:
        async with serve(root) as client:
            status = (await call(client, "map_status"))["data"]
        team = status["teamStore"]
        assert team["inUse"] is True and team["reason"] is None
        assert (team["fetched"], team["extracted"]) == (status["files"], 0)

    asyncio.run(asyncio.wait_for(scenario(), TIMEOUT_S))


def test_map_publish_gives_a_later_clone_the_linked_map_of_its_commit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, team_database: str
) -> None:
    origin = example_repo(tmp_path / "origin", watch=False)
    ci = clone(origin, tmp_path / "ci")
    published = envelope(run_cli(capsys, ci, "map", "publish", "--store", team_database, "--json"))
    commit = git(origin, "rev-parse", "HEAD").strip()
    assert published["data"]["commit"] == commit

    later = envelope(
        run_cli(
            capsys,
            clone(origin, tmp_path / "dev"),
            "map",
            "build",
            "--store",
            team_database,
            "--json",
        )
    )["data"]
    assert later["teamStore"]["snapshot"] == commit
    assert (later["files"], later["symbols"], later["edges"]) == (
        published["data"]["files"],
        published["data"]["symbols"],
        published["data"]["edges"],
    )


def test_map_publish_refuses_a_checkout_that_is_not_its_commit_or_has_no_store(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, team_database: str
) -> None:
    root = example_repo(tmp_path, watch=False)
    (root / "shop" / "draft.py").write_text("def draft():\n    return 1\n")
    dirty = run_cli(capsys, root, "map", "publish", "--store", team_database, "--json")
    assert dirty.code == 2 and "exactly its HEAD commit" in dirty.json()["error"]["message"]
    no_store = run_cli(capsys, root, "map", "publish", "--json")
    assert no_store.code == 2 and no_store.json()["error"]["code"] == "bad_store"
