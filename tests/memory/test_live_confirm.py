"""memory_check confirms the symbols it found with a REAL language server (ty)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bridge.context import AppContext
from bridge.tools import memory
from memory.check import check_memories
from memory.live import confirm_check, live_of
from memory.model import LiveCheck
from memory.workspace import Workspace
from tests.memory.conftest import Repo
from verify import Listing, LiveConfirmer

TIMEOUT_S = 120.0
CODE = "def greet(name):\n    return 'hi ' + name\n\n\ndef other():\n    return 1\n"
MOVED = "import os\n\n\ndef greet(name, punctuation='!'):\n    return 'hi ' + name + punctuation\n"


def _with_app(root: Path, scenario: Callable[[AppContext], Awaitable[None]]) -> None:
    """Run `scenario` on a fresh AppContext of `root` (closed after), within TIMEOUT_S."""

    async def bounded() -> None:
        async with asyncio.timeout(TIMEOUT_S):
            app = AppContext(root)
            try:
                await scenario(app)
            finally:
                await app.aclose()

    asyncio.run(bounded())


def test_memory_check_confirms_a_moved_and_edited_symbol_live(repo: Repo) -> None:
    repo.write("hello.py", CODE)
    repo.write("notes.txt", "a\nb\n")
    repo.commit("start")

    async def scenario(app: AppContext) -> None:
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
        assert (greet["liveConfirmed"], greet["liveReason"]) == (True, "listed")
        assert (other["status"], other["symbol"], other["liveConfirmed"]) == (
            "renamed",
            "another",
            True,
        )
        assert (notes["liveConfirmed"], notes["liveReason"]) == (None, "not_needed")
        assert checked["warnings"] == []

    _with_app(repo.root, scenario)


def test_every_symbol_found_at_a_new_place_is_asked_and_only_those(repo: Repo) -> None:
    code = "def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n"
    repo.write("m.py", code)
    repo.commit("start")
    memory = repo.remember("m.py#a", "m.py#b", "m.py#c", "m.py:9-10")
    edited = code.replace("return 1", "return 10").replace("return 2", "x = 2\n    return x")
    repo.write("m.py", "import os\n\n\n" + edited)  # a: edited, moved down; b: grew; c: moved
    asked: list[str] = []

    def live(path: str, symbol: str, lines: tuple[int, int]) -> LiveCheck:
        asked.append(f"{symbol} {lines[0]}-{lines[1]}")
        return LiveCheck(True, "listed")

    (result,) = check_memories(Workspace(repo.root), [memory], live=live)
    assert [(r.status, live_of(r).reason) for r in result.refs] == [
        ("modified", "listed"),
        ("modified", "listed"),
        ("relocated", "listed"),
        ("relocated", "not_needed"),
    ]
    assert asked == ["a 4-5", "b 8-10", "c 13-14"]
    (unasked,) = check_memories(Workspace(repo.root), [memory])
    assert [live_of(r) for r in unasked.refs] == [LiveCheck(None, "skipped")] * 3 + [
        LiveCheck(None, "not_needed")
    ]


@pytest.mark.store_specific
def test_live_questions_stop_at_the_file_budget_and_say_so(repo: Repo) -> None:
    repo.write("a.py", "def f():\n    return 1\n")
    repo.write("b.py", "def g():\n    return 2\n")

    async def scenario(app: AppContext) -> None:
        confirm = LiveConfirmer(app, asyncio.get_running_loop(), max_files=1)
        first = await asyncio.to_thread(confirm, "a.py", "f", (1, 2))
        wrong = await asyncio.to_thread(confirm, "a.py", "f", (5, 6))
        second = await asyncio.to_thread(confirm, "b.py", "g", (1, 2))
        assert (first, wrong, second) == (
            Listing(True, "listed"),
            Listing(False, "not_listed"),
            Listing(None, "over_budget"),
        )
        (note,) = confirm.notes
        assert note.startswith("live confirmation: a check asks for at most 1 file outlines")

    _with_app(repo.root, scenario)


def test_a_check_confirmed_after_the_fact_carries_the_refusal_warning(repo: Repo) -> None:
    repo.write("m.py", "def a():\n    return 1\n")
    repo.commit("start")
    memory = repo.remember("m.py#a", "m.py")
    repo.write("m.py", "import os\n\n\ndef a():\n    return 1\n")
    (unconfirmed,) = check_memories(Workspace(repo.root), [memory])
    confirmed = confirm_check(
        unconfirmed, lambda path, symbol, lines: LiveCheck(False, "not_listed")
    )
    assert [r.live for r in confirmed.refs] == [LiveCheck(False, "not_listed"), None]
    (warning,) = [w for w in confirmed.warnings if w not in unconfirmed.warnings]
    assert "does not list a at m.py lines 4-5" in warning
