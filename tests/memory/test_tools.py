"""The memory_* tool functions the MCP server registers: envelopes around the contract shapes."""

from __future__ import annotations

import asyncio

import pytest

from bridge.context import AppContext
from bridge.contract.errors import UnknownIdError
from bridge.tools import memory
from tests.memory.conftest import Repo

TIMEOUT_S = 60.0
CODE = "def greet(name):\n    return 'hi ' + name\n"


def test_save_recall_check_verify_supersede_retire(repo: Repo) -> None:
    repo.write("hello.py", CODE)
    repo.commit("start")

    async def scenario(app: AppContext) -> None:
        saved = await memory.memory_save(app, "greet prefixes hi", ["hello.py#greet"], tags=["ux"])
        assert saved["ok"]
        memory_id = saved["data"]["id"]
        assert saved["data"]["refs"][0]["symbol"] == "greet"
        repo.write("hello.py", CODE.replace("'hi '", "'hello '"))
        quiet = await memory.memory_recall(app, "greet prefix")
        assert quiet["data"]["hits"] == []
        assert quiet["data"]["staleHidden"] == 1
        assert any("1 stale memory hidden" in w for w in quiet["warnings"])
        loud = await memory.memory_recall(app, "greet prefix", include_stale=True)
        (hit,) = loud["data"]["hits"]
        assert hit["status"] == "stale"
        warning = hit["warning"] or ""
        assert warning.startswith("STALE") and f"verify {memory_id}" in warning
        checked = await memory.memory_check(app, [memory_id])
        assert checked["data"]["memories"][0]["refs"][0]["status"] == "modified"
        await memory.memory_verify(app, memory_id)
        assert (await memory.memory_check(app))["data"]["memories"][0]["status"] == "active"
        replaced = await memory.memory_supersede(app, memory_id, "greet prefixes hello")
        assert replaced["data"]["supersedes"] == memory_id
        retired = await memory.memory_retire(app, replaced["data"]["id"])
        assert retired["data"]["status"] == "retired"
        with pytest.raises(UnknownIdError):
            await memory.memory_verify(app, memory_id + "0")

    async def bounded() -> None:
        app = AppContext(repo.root)  # one event loop: the live servers it starts live in it
        try:
            async with asyncio.timeout(TIMEOUT_S):
                await scenario(app)
        finally:
            await app.aclose()

    asyncio.run(bounded())
