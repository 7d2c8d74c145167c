"""nav_diagnostics on a change with many users, through a real MCP client and ty:
every user file is checked when the server answers pulls (no 40-file cap that
only a server waited for one file at a time needs), and at the default budget
the diagnostics are what the answer keeps, the lists of files what it cuts."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from tests.bridge.mcp_session import call, serve
from tests.bridge.test_diagnostics import BREAKING, SCENARIO_TIMEOUT_S, _errors, _repo
from tests.conftest import require_binary

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
