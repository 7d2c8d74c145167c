"""nav_diagnostics on a change with many users, through a real MCP client and ty:
every user file is checked when the server answers pulls (no 40-file cap that
only a server waited for one file at a time needs), and at the default budget
the diagnostics are what the answer keeps, the lists of files what it cuts."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from bridge.context import AppContext
from bridge.tools import diagnostics
from lsp import RequestTimeoutError
from tests.bridge.mcp_session import call, serve
from tests.bridge.test_diagnostics import BREAKING, SCENARIO_TIMEOUT_S, _errors, _repo
from tests.conftest import require_binary
from tests.lsp.conftest import line_of

USERS = 70
"""More user files than the cap for servers waited for one file at a time (40), and
than the documents a server keeps open (64): each must still be open when asked."""


def test_every_user_of_a_changed_function_is_checked_when_the_server_answers_pulls(
    tmp_path: Path,
) -> None:
    edit = BREAKING[0]
    require_binary(edit.case.server)
    repo = _repo(tmp_path, edit.case)
    users = [f"app/use_{i:02}.py" for i in range(USERS)]
    for user in users:
        repo.write(user, "from app.shapes import total_area\n\nTOTAL = total_area([])\n")
    repo.commit("callers")

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo.root) as client:
            await call(client, "nav_diagnostics")
            repo.write(edit.case.path, repo.read(edit.case.path).replace(edit.old, edit.new))
            large = await call(client, "nav_diagnostics", budget=50_000)
            small = await call(client, "nav_diagnostics")
            return large, small

    large, small = asyncio.run(scenario())
    data = large["data"]
    assert {(u, 3) for u in users} <= set(_errors(data)), data["notChecked"][:3]
    assert data["notChecked"] == []
    assert data["completeness"] == "complete", data["completenessReasons"]
    assert data["newErrorCount"] >= USERS
    # the default budget keeps diagnostics, the new ones first, and cuts the file lists
    shown = small["data"]["diagnostics"]
    assert len(shown) >= 5, small["truncated"]
    assert {d["change"] for d in shown} == {"new"}
    assert small["truncated"]["items"] == "diagnostics"
    assert {c["items"] for c in small["truncated"]["cuts"]} >= {"files"}


def test_a_server_too_slow_while_the_files_are_sent_fails_no_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """clangd under load timed out on the outline it is asked when the files are sent
    ahead: the answer comes from each file's own query, never an exception."""
    edit = BREAKING[0]
    require_binary(edit.case.server)
    repo = _repo(tmp_path, edit.case)
    repo.write(edit.case.path, repo.read(edit.case.path).replace(edit.old, edit.new))

    async def too_slow(paths: Sequence[str]) -> None:
        raise RequestTimeoutError("ty", "textDocument/documentSymbol", 10.0)

    async def scenario() -> dict[str, Any]:
        app = AppContext(repo.root)
        monkeypatch.setattr(app.live, "sync", too_slow)
        try:
            async with asyncio.timeout(SCENARIO_TIMEOUT_S):
                answer = await diagnostics.nav_diagnostics(app)
                return dict(answer["data"])
        finally:
            await app.aclose()

    data = asyncio.run(scenario())
    assert (edit.user, line_of(repo.root, edit.user, edit.call)) in _errors(data)
    assert data["completeness"] == "complete", data["completenessReasons"]
