"""End to end: a real MCP client over stdio, `codeanchor serve`, real language servers."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bridge.trust import trust
from tests.bridge.mcp_session import call, call_error, example_repo, processes_under, serve
from tests.conftest import require_binary

LIMITER = "shop/middleware/rate_limit.py"
ALLOW = f"{LIMITER}#RateLimiter.allow"
SCENARIO_TIMEOUT_S = 180.0


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    """Run one client scenario, bounded in time."""

    async def bounded() -> None:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S):
            await scenario()

    asyncio.run(bounded())


def line_of(root: Path, path: str, needle: str) -> int:
    """The 1-based line of the first line containing `needle`."""
    lines = (root / path).read_text().splitlines()
    return next(i for i, text in enumerate(lines, 1) if needle in text)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    require_binary("ty")
    return example_repo(tmp_path, watch=False)


def test_every_tool_is_listed_and_read_only_ones_say_so(repo: Path) -> None:
    async def scenario() -> None:
        async with serve(repo) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert {
                "nav_definition",
                "nav_references",
                "nav_callers",
                "resolve",
                "map_overview",
                "map_rebuild",
                "map_search",
            } <= set(tools)
            read_only = {
                name: tool.annotations.read_only_hint if tool.annotations else None
                for name, tool in tools.items()
            }
            assert read_only["nav_references"] is True
            assert read_only["map_rebuild"] is False
            # recall and check write last-used times and statuses: never declared read-only
            assert read_only["memory_recall"] is False
            assert read_only["memory_check"] is False
            assert "live" in (tools["nav_definition"].description or "").lower()
            assert tools["resolve"].output_schema is not None

    run(scenario)


def test_nav_tools_answer_from_the_live_server(repo: Path) -> None:
    async def scenario() -> None:
        async with serve(repo) as client:
            use = line_of(repo, "shop/app.py", "LIMITER.allow")
            found = await call(client, "nav_definition", target=f"shop/app.py:{use}", name="allow")
            [definition] = found["data"]["locations"]
            assert definition["path"] == LIMITER
            assert definition["line"] == line_of(repo, LIMITER, "def allow")

            refs = await call(client, "nav_references", target=ALLOW)
            places = {(r["path"], r["line"]) for r in refs["data"]["locations"]}
            assert ("shop/app.py", use) in places

            hover = await call(client, "nav_hover", target=ALLOW)
            assert "bool" in hover["data"]["contents"]

            outline = await call(client, "nav_symbols", path=LIMITER)
            [limiter] = outline["data"]["symbols"]
            assert limiter["nodeId"] == f"{LIMITER}#RateLimiter"
            assert {c["nodeId"] for c in limiter["children"]} >= {ALLOW}

            symbols = await call(client, "nav_workspace_symbols", query="PriceBook")
            assert any(s["path"] == "shop/pricing.py" for s in symbols["data"]["symbols"])

            callers = await call(client, "nav_callers", target="shop/pricing.py#apply_discount")
            assert [c["name"] for c in callers["data"]["callers"]] == ["total"]
            callees = await call(client, "nav_callees", target="shop/app.py#checkout")
            assert {"allow", "add", "total"} <= {c["name"] for c in callees["data"]["callees"]}

            inside = line_of(repo, LIMITER, "recent.popleft()")
            around = (await call(client, "resolve", target=f"{LIMITER}:{inside}"))["data"]
            assert around["enclosing"] == [f"{LIMITER}#RateLimiter", ALLOW]

            typedef = await call(
                client, "nav_type_definition", target=f"shop/app.py:{use}", name="LIMITER"
            )
            assert typedef["data"]["locations"][0]["path"] == LIMITER

    run(scenario)


def _insert_above(root: Path, path: str, needle: str, lines: list[str]) -> None:
    text = (root / path).read_text()
    at = text.index(needle)
    start = text.rfind("\n", 0, at) + 1
    (root / path).write_text(text[:start] + "".join(f"{ln}\n" for ln in lines) + text[start:])


def test_resolve_reports_moves_then_the_rebuilt_map_agrees(repo: Path) -> None:
    async def scenario() -> None:
        async with serve(repo) as client:
            first = (await call(client, "resolve", target=ALLOW))["data"]
            assert (first["verified"], first["mapStale"], first["relocated"]) == (
                True,
                False,
                False,
            )
            old_line = first["location"]["selectionLine"]

            _insert_above(repo, LIMITER, "class RateLimiter", [f"# note {i}" for i in range(5)])
            shifted = await call(client, "resolve", target=ALLOW)
            data = shifted["data"]
            assert (data["mapStale"], data["relocated"]) == (True, False)
            assert data["mapRange"]["selectionLine"] == old_line
            assert data["location"]["selectionLine"] == old_line + 5
            assert shifted["stale"] is True and shifted["mapBuiltAt"]

            await call(client, "map_rebuild")
            clean = (await call(client, "resolve", target=ALLOW))["data"]
            assert (clean["mapStale"], clean["relocated"]) == (False, False)

            # move `allow` into another class: the ID no longer names it
            text = (repo / LIMITER).read_text()
            (repo / LIMITER).write_text(
                text.replace("    def allow(", "\nclass Throttle:\n    def allow(", 1)
            )
            moved = (await call(client, "resolve", target=ALLOW))["data"]
            assert moved["relocated"] is True and moved["mapStale"] is True
            assert moved["currentId"] == f"{LIMITER}#Throttle.allow"
            assert moved["location"]["selectionLine"] == line_of(repo, LIMITER, "def allow")

            # rename the file: found again, in its new home
            await call(client, "map_rebuild")
            (repo / LIMITER).rename(repo / "shop/middleware/limits.py")
            renamed = (await call(client, "resolve", target=f"{LIMITER}#Throttle.allow"))["data"]
            assert renamed["relocated"] is True
            assert renamed["currentId"] == "shop/middleware/limits.py#Throttle.allow"
            assert renamed["mapRange"]["path"] == LIMITER

    run(scenario)


def test_a_killed_language_server_is_restarted_for_the_next_query(repo: Path) -> None:
    marker = str(repo)

    def ty_pids() -> set[int]:
        return {pid for pid, cmd in processes_under(marker).items() if "ty server" in cmd}

    async def scenario() -> None:
        async with serve(repo) as client:
            assert (await call(client, "resolve", target=ALLOW))["data"]["verified"] is True
            killed = ty_pids()
            assert killed, "the ty server should be running under codeanchor serve"
            for pid in killed:
                os.kill(pid, signal.SIGKILL)
            # the query that meets the dead server may answer unverified (from the
            # map, flagged); the one after it is served by a restarted server
            first = await call(client, "resolve", target=ALLOW)
            if not first["data"]["verified"]:
                assert first["data"]["location"] == first["data"]["mapRange"]
                assert any("not verified" in w for w in first["warnings"])
                first = await call(client, "resolve", target=ALLOW)
            assert first["data"]["verified"] is True and first["data"]["mapStale"] is False
            assert ty_pids() and not ty_pids() & killed
            refs = await call(client, "nav_references", target=ALLOW)
            assert refs["data"]["count"] == 2

    run(scenario)


# A language "server" that reads its input and never answers.
SILENT_SERVER = """\
import sys
while sys.stdin.buffer.read(1):
    pass
"""


def test_a_server_that_never_answers_gives_the_maps_range_unverified(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = example_repo(tmp_path, watch=False)
    (tmp_path / "silent.py").write_text(SILENT_SERVER)
    (root / "codeanchor.toml").write_text(
        "watch = false\n[live]\nrequest_timeout = 1.0\n[server.ty]\n"
        f"command = [{str(sys.executable)!r}, {str(tmp_path / 'silent.py')!r}]\n"
    )
    monkeypatch.setenv("CODEANCHOR_CONFIG_HOME", str(tmp_path / "user-config"))
    trust(root)  # a server command from the repository runs only once trusted

    async def scenario() -> None:
        async with serve(root) as client:
            answer = await call(client, "resolve", target=ALLOW)
            data = answer["data"]
            assert data["verified"] is False and data["mapStale"] is None
            assert data["location"] == data["mapRange"]
            assert data["location"]["selectionLine"] == line_of(root, LIMITER, "def allow")
            assert any("not verified" in w for w in answer["warnings"])
            line = line_of(root, LIMITER, "def allow")
            error = await call_error(client, "nav_references", target=f"{LIMITER}:{line}")
            assert error["code"] in {"server_timeout", "server_crashed"}, error
            assert "ty" in error["message"]
            assert (await call(client, "map_search", query="Cart"))["ok"] is True

    run(scenario)


def test_disconnecting_leaves_no_process_behind(repo: Path) -> None:
    marker = str(repo)

    async def scenario() -> None:
        async with serve(repo) as client:
            await call(client, "nav_references", target=ALLOW)
            running = processes_under(marker)
            assert any("ty server" in cmd for cmd in running.values())

    run(scenario)
    deadline = time.monotonic() + 10
    while processes_under(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_under(marker) == {}


BAD_CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("resolve", {"target": ALLOW, "colour": "red"}, "does not take"),
    ("resolve", {"target": "shop/app.py#"}, "malformed node ID"),
    ("nav_definition", {"target": "../outside.py:1"}, "outside the workspace root"),
    ("nav_definition", {"target": "/etc/hostname:1"}, "outside the workspace root"),
    ("map_search", {"query": "Cart", "budget": 10_000_000}, "out of range"),
    ("map_search", {"query": "   "}, "empty query"),
    ("nav_references", {"target": "shop/app.py:999"}, "past the end"),
    ("resolve", {"target": "shop/pricing.py#PriceBok"}, "PriceBook"),
]


def test_bad_input_is_a_clear_tool_error_and_serving_goes_on(repo: Path) -> None:
    async def scenario() -> None:
        async with serve(repo) as client:
            for tool, arguments, expected in BAD_CALLS:
                error = await call_error(client, tool, **arguments)
                assert expected in f"{error['message']} {error['hint']}", (tool, error)
            assert (await call(client, "map_search", query="Cart"))["ok"] is True

    run(scenario)


def test_served_map_flags_an_edit_at_once_and_rebuilds_by_itself(tmp_path: Path) -> None:
    require_binary("ty")
    root = example_repo(tmp_path, watch=True)

    async def scenario() -> None:
        async with serve(root) as client:
            status = (await call(client, "map_status"))["data"]
            assert status["watcher"]["status"] == "watching"
            _insert_above(root, LIMITER, "class RateLimiter", ["# moved down", "# again"])
            hit = await call(client, "map_search", query="RateLimiter")
            assert hit["stale"] is True and LIMITER in hit["data"]["staleFiles"]
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                data = (await call(client, "resolve", target=ALLOW))["data"]
                if not data["mapStale"]:
                    break
                await asyncio.sleep(0.05)
            assert data["mapStale"] is False, "the watcher should have rebuilt the map"
            after = (await call(client, "map_status"))["data"]
            assert after["staleFiles"] == [] and after["watcher"]["rebuildCount"] >= 1

    run(scenario)


def test_stale_answers_piling_up_suggest_a_rebuild(repo: Path) -> None:
    async def scenario() -> None:
        async with serve(repo) as client:
            await call(client, "map_status")
            _insert_above(repo, LIMITER, "class RateLimiter", ["# shifted"])
            answers = [await call(client, "map_search", query="RateLimiter") for _ in range(3)]
            assert all(a["stale"] for a in answers)
            hinted = ["map_rebuild" in " ".join(a["warnings"]) for a in answers]
            assert hinted == [False, False, True]  # stale_hint_after = 3 by default
            await call(client, "map_rebuild")
            fresh = await call(client, "map_search", query="RateLimiter")
            assert fresh["stale"] is False and fresh["warnings"] == []

    run(scenario)


def test_a_map_build_reports_its_phases_to_a_client_that_listens(repo: Path) -> None:
    async def rebuild_heard(client: Any) -> list[tuple[float, float | None, str | None]]:
        heard: list[tuple[float, float | None, str | None]] = []

        async def listen(progress: float, total: float | None, message: str | None) -> None:
            heard.append((progress, total, message))

        result = await client.call_tool("map_rebuild", {}, progress_callback=listen)
        assert not result.is_error
        return heard

    async def scenario() -> None:
        async with serve(repo) as client:
            built = await rebuild_heard(client)  # the first map call builds it
            _insert_above(repo, LIMITER, "class RateLimiter", ["# shifted"])
            rebuilt = await rebuild_heard(client)
        for heard in (built, rebuilt):
            steps = [progress for progress, _, _ in heard]
            assert steps == sorted(set(steps)), "progress must rise with each notification"
            assert heard[-1][:2] == (3, 3)  # the three phases, each to its end
            phases = [str(message).rsplit(" ", 1)[0] for _, _, message in heard]
            assert list(dict.fromkeys(phases)) == [
                "reading files",
                "linking names",
                "saving the map",
            ]

    run(scenario)
