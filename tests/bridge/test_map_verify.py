"""Map graph answers say they are static, and `verify` confirms their edges live.

A real MCP client drives `codeanchor serve` on a tiny repository; ty answers.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.bridge.mcp_session import call, serve
from tests.conftest import require_binary

SCENARIO_TIMEOUT_S = 180.0
PREPARE = "app/client.py#Client.prepare"
SOURCES = {
    "codeanchor.toml": "watch = false\n",
    "app/__init__.py": "",
    "app/client.py": (
        "class Client:\n"
        "    def send(self, request):\n"
        "        return self.prepare(request)\n\n"
        "    def prepare(self, request):\n"
        "        return request\n"
    ),
    "app/use.py": (
        "from app.client import Client\n\n\n"
        "def real():\n"
        "    client = Client()\n"
        "    return client.prepare(2)\n\n\n"
        "def drive(thing):\n"
        "    return thing.prepare(1)\n"
    ),
    "web/queue.ts": (
        "export class Queue {\n"
        "  #bump(): number { return 1; }\n"
        "  get size(): number { return this.#bump(); }\n"
        "}\n"
    ),
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    require_binary("ty")
    for path, text in SOURCES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    return tmp_path


def _run(root: Path, tool: str, **arguments: Any) -> dict[str, Any]:
    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(root) as client:
            return await call(client, tool, **arguments)

    return asyncio.run(scenario())


def _by_node(items: list[dict[str, Any]], *fields: str) -> dict[str, tuple[Any, ...]]:
    return {item["nodeId"]: tuple(item.get(f) for f in fields) for item in items}


def test_callers_from_the_map_are_static_with_their_confidence(repo: Path) -> None:
    data = _run(repo, "map_neighbors", node_id=PREPARE, direction="in")["data"]
    assert data["source"] == "map"
    assert "static" in data["note"]
    assert _by_node(data["neighbors"], "edgeConfidence", "at", "verified") == {
        "app/client.py#Client.send": (1.0, [3], None),
        "app/use.py#real": (1.0, [6], None),
    }
    assert "verification" not in data
    assert _guessed(data) == [("app/use.py#drive", 10, "thing", [PREPARE])]
    assert data["completeness"] == "partial"


def _guessed(data: dict[str, Any]) -> list[tuple[str, int, str, list[str]]]:
    """The answer's open uses guessed by name: (enclosing, line, receiver, guesses)."""
    return [
        (u["enclosing"], u["line"], u["receiver"], u["guesses"])
        for u in data["unresolved"]
        if u["why"] == "guess"
    ]


def test_verify_confirms_resolved_edges_and_a_guess_stays_apart(repo: Path) -> None:
    data = _run(repo, "map_neighbors", node_id=PREPARE, direction="in", verify=True)["data"]
    assert _by_node(data["neighbors"], "verified") == {
        "app/client.py#Client.send": (True,),
        "app/use.py#real": (True,),
    }
    summary = data["verification"]
    assert (summary["checked"], summary["held"], summary["notHeld"]) == (2, 2, 0)
    assert _guessed(data) == [("app/use.py#drive", 10, "thing", [PREPARE])]


def test_impact_and_path_verify_their_edges_too(repo: Path) -> None:
    impact = _run(repo, "map_impact", node_id=PREPARE, verify=True)["data"]
    assert _by_node(impact["dependents"], "verified") == {
        "app/client.py#Client.send": (True,),
        "app/use.py#real": (True,),
    }
    assert _guessed(impact) == [("app/use.py#drive", 10, "thing", [PREPARE])]
    path = _run(repo, "map_path", source="app/use.py#real", target=PREPARE, verify=True)["data"]
    assert path["source"] == "map"
    assert [
        (s["from"], s["to"], s["via"], s["confidence"], s["verified"]) for s in path["steps"]
    ] == [("app/use.py#real", PREPARE, "calls", 1.0, True)]


def test_a_private_typescript_member_has_an_id_every_tool_accepts(repo: Path) -> None:
    bump = "web/queue.ts#Queue.#bump"

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo) as client:
            callers = await call(client, "map_neighbors", node_id=bump, direction="in")
            saved = await call(client, "memory_save", text="bump stays private", refs=[bump])
            return callers["data"], saved["data"]

    callers, saved = asyncio.run(scenario())
    assert [(n["nodeId"], n["edgeConfidence"]) for n in callers["neighbors"]] == [
        ("web/queue.ts#Queue.size", 1.0)
    ]
    assert saved["id"]
