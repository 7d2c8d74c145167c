"""A node ID is answered for exactly what it names, or refused with the nearest IDs.

It is followed elsewhere only with evidence that the code moved (git records a
rename of its file, or the map recorded the node), and the answer then says so.
A real MCP client drives `codeanchor serve`; ty answers.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from map import CodeMap, MapSettings
from tests.bridge.mcp_session import call, call_error, serve
from tests.conftest import require_binary, write_tree
from tests.gitrepo import commit_all, git
from verify import nearest_ids
from verify.moves import renamed_to

SCENARIO_TIMEOUT_S = 180.0
SOURCES = {
    "codeanchor.toml": "watch = false\n",
    "pkg/__init__.py": "",
    "pkg/render.py": "def render(value):\n    return str(value)\n",
    "pkg/views.py": "from pkg.render import render\n\n\ndef page():\n    return render(1)\n",
    "tests/__init__.py": "",
    "tests/test_page.py": "def render():\n    return 'a test helper of the same name'\n",
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    commit_all(write_tree(tmp_path, SOURCES), "start")
    return tmp_path


def _session(root: Path, *calls: tuple[str, dict[str, Any], bool]) -> list[dict[str, Any]]:
    """Each (tool, arguments, ok) in one server session: the envelope, or the error."""
    require_binary("ty")

    async def scenario() -> list[dict[str, Any]]:
        found = []
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(root) as client:
            for tool, arguments, ok in calls:
                ask = call if ok else call_error
                found.append(await ask(client, tool, **arguments))
        return found

    return asyncio.run(scenario())


def test_a_node_id_in_a_file_that_never_existed_is_refused(repo: Path) -> None:
    resolved, refs = _session(
        repo,
        ("resolve", {"target": "pkg/nonexist.py#render"}, False),
        ("nav_references", {"target": "pkg/nonexist.py#render"}, False),
    )
    for error in (resolved, refs):
        assert error["code"] == "unknown_id"
        assert "tests/test_page.py" not in error["message"]


def test_a_typo_in_the_file_name_suggests_the_right_file_first(repo: Path) -> None:
    (error,) = _session(repo, ("resolve", {"target": "pkg/rendr.py#render"}, False))
    assert error["code"] == "unknown_id"
    assert error["suggestions"][0] == "pkg/render.py#render"


def test_a_typo_in_a_folder_name_suggests_the_right_file_first(repo: Path) -> None:
    (error,) = _session(repo, ("nav_references", {"target": "pgk/render.py#render"}, False))
    assert error["code"] == "unknown_id"
    assert error["suggestions"][0] == "pkg/render.py#render"


def test_a_file_git_renamed_is_followed_and_the_answer_says_so(repo: Path) -> None:
    git(repo, "mv", "pkg/render.py", "pkg/rendering.py")
    (repo / "pkg/views.py").write_text(
        "from pkg.rendering import render\n\n\ndef page():\n    return render(1)\n"
    )
    git(repo, "commit", "-qam", "rename")
    resolved, refs = _session(
        repo,
        ("resolve", {"target": "pkg/render.py#render"}, True),
        ("nav_references", {"target": "pkg/render.py#render"}, True),
    )
    data = resolved["data"]
    assert (data["verified"], data["relocated"]) == (True, True)
    assert (data["requestedId"], data["currentId"]) == (
        "pkg/render.py#render",
        "pkg/rendering.py#render",
    )
    assert "renamed to pkg/rendering.py" in resolved["warnings"][0]
    assert refs["data"]["target"]["requestedId"] == "pkg/render.py#render"
    assert refs["data"]["target"]["currentId"] == "pkg/rendering.py#render"
    assert "pkg/render.py#render" in refs["warnings"][0]
    assert {loc["path"] for loc in refs["data"]["locations"]} == {
        "pkg/rendering.py",
        "pkg/views.py",
    }


def test_git_renames_chain_and_staged_renames_count(repo: Path) -> None:
    git(repo, "mv", "pkg/render.py", "pkg/b.py")
    git(repo, "commit", "-qm", "first")
    git(repo, "mv", "pkg/b.py", "pkg/c.py")
    chained = renamed_to(repo, "pkg/render.py")
    assert chained is not None
    assert (chained.old, chained.new) == ("pkg/render.py", "pkg/c.py")
    assert chained.where.endswith("the index")
    assert renamed_to(repo, "pkg/never.py") is None


def test_no_git_no_rename(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    assert renamed_to(tmp_path, "b.py") is None


def test_nearest_ids_rank_the_nearest_path_before_the_same_name_elsewhere(repo: Path) -> None:
    code_map = CodeMap.open(repo, MapSettings())
    assert nearest_ids(code_map, "pkg/rendr.py#render")[:2] == [
        "pkg/render.py#render",
        "tests/test_page.py#render",
    ]
    assert nearest_ids(code_map, "pkg/render.py#rendr")[0] == "pkg/render.py#render"
