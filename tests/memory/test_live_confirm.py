"""memory_check confirms the symbols it found elsewhere with a REAL language server (ty)."""

from __future__ import annotations

import asyncio

from bridge.context import AppContext
from bridge.tools import memory
from tests.memory.conftest import Repo

TIMEOUT_S = 120.0
CODE = "def greet(name):\n    return 'hi ' + name\n\n\ndef other():\n    return 1\n"
MOVED = "import os\n\n\ndef greet(name, punctuation='!'):\n    return 'hi ' + name + punctuation\n"


def test_memory_check_confirms_a_moved_and_edited_symbol_live(repo: Repo) -> None:
    repo.write("hello.py", CODE)
    repo.write("notes.txt", "a\nb\n")
    repo.commit("start")

    async def scenario() -> None:
        app = AppContext(repo.root)
        try:
            saved = await memory.memory_save(
                app, "greet says hi", ["hello.py#greet", "hello.py#other", "notes.txt:1-2"]
            )
            memory_id = saved["data"]["id"]
            repo.write("hello.py", CODE[CODE.index("def other") :].replace("other", "another"))
            repo.write("greetings.py", MOVED)
            repo.write("notes.txt", "b\na\n")
            checked = await memory.memory_check(app, [memory_id])
            greet, other, notes = checked["data"]["memories"][0]["refs"]
            assert (greet["status"], greet["path"], greet["symbol"]) == (
                "modified",
                "greetings.py",
                "greet",
            )
            assert greet["live"] == "confirmed"
            assert (other["status"], other["symbol"], other["live"]) == (
                "renamed",
                "another",
                "confirmed",
            )
            assert "live" not in notes
        finally:
            await app.aclose()

    async def bounded() -> None:
        async with asyncio.timeout(TIMEOUT_S):
            await scenario()

    asyncio.run(bounded())
