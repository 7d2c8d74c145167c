"""The memory tools over a real MCP session (`codeanchor serve` on stdio)."""

from __future__ import annotations

import asyncio

from tests.bridge.mcp_session import call, call_error, serve
from tests.memory.conftest import Repo

TIMEOUT_S = 120.0
CODE = "def greet(name):\n    return 'hi ' + name\n"


def test_save_then_recall_and_check_over_mcp(repo: Repo) -> None:
    repo.write("hello.py", CODE)
    repo.commit("start")

    async def scenario() -> None:
        async with serve(repo.root) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            annotations = tools["memory_save"].annotations
            assert annotations is not None and annotations.read_only_hint is False
            saved = await call(client, "memory_save", text="greet says hi", refs=["hello.py#greet"])
            memory_id = saved["data"]["id"]
            repo.write("hello.py", CODE.replace("'hi '", "'hello '"))
            recalled = await call(client, "memory_recall", query="greet", include_stale=True)
            (hit,) = recalled["data"]["hits"]
            assert (hit["id"], hit["status"]) == (memory_id, "stale")
            checked = await call(client, "memory_check")
            assert checked["data"]["memories"][0]["refs"][0]["status"] == "modified"
            error = await call_error(client, "memory_save", text="x", refs=["hello.py#nope"])
            assert error["code"] == "unknown_id"

    async def bounded() -> None:
        async with asyncio.timeout(TIMEOUT_S):
            await scenario()

    asyncio.run(bounded())
