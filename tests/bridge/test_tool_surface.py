"""What a client pays for the tool definitions: `tools/list` fits in 40,000 characters,
stays typed, and a client with tight context can ask for some tool families only.

Through a real MCP stdio client and `codeanchor serve` on the bundled example.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.bridge.mcp_session import FULL_SCHEMAS, call, call_error, example_repo, serve
from tests.conftest import require_binary

SCENARIO_TIMEOUT_S = 120.0
MOST_CHARACTERS = 40_000
LIMITER = "shop/middleware/rate_limit.py"


def characters(tools: list[Any]) -> int:
    """The size of the tool definitions as JSON with a space after each `,` and `:` (as
    the issue counted them: ~7% more than the compact JSON the wire carries)."""
    listed = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    return len(json.dumps(listed))


async def listed(root: Path, *options: str) -> list[Any]:
    async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(root, *options) as client:
        return list((await client.list_tools()).tools)


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return example_repo(tmp_path_factory.mktemp("surface"), watch=False)


def test_every_tool_fits_in_40000_characters_and_stays_typed(repo: Path) -> None:
    tools = asyncio.run(listed(repo))
    assert len(tools) == 27
    assert characters(tools) <= MOST_CHARACTERS
    for tool in tools:
        schema = tool.output_schema
        assert set(schema["properties"]) == {
            "ok",
            "data",
            "warnings",
            "truncated",
            "mapBuiltAt",
            "stale",
        }
        data = schema["$defs"][schema["properties"]["data"]["$ref"].rsplit("/", 1)[1]]
        assert data["properties"], tool.name  # data's own keys, typed
        assert all("type" in p or "enum" in p or "anyOf" in p for p in data["properties"].values())
        assert "\n    " not in (tool.description or "")  # no docstring indentation


def test_the_full_schemas_are_there_for_who_asks(tmp_path: Path) -> None:
    root = example_repo(tmp_path, watch=False, config=FULL_SCHEMAS)
    full = {t.name: t for t in asyncio.run(listed(root))}
    references = full["nav_references"].output_schema
    assert {"Place", "Reason", "UnconfirmedSite"} <= set(references["$defs"])
    assert "required" in references


def test_a_lean_answer_validates_and_keeps_its_nested_keys(repo: Path) -> None:
    """The client checks each answer against the lean schema (the SDK refuses one that
    does not fit); the nested objects the schema leaves open are still whole."""
    require_binary("ty")

    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo) as client:
            return await call(client, "nav_references", target=f"{LIMITER}#RateLimiter.allow")

    answer = asyncio.run(scenario())
    assert {"path", "line", "column", "text"} <= set(answer["data"]["locations"][0])


def test_serve_tools_serves_only_those_families(repo: Path) -> None:
    async def scenario() -> tuple[list[str], dict[str, Any], str]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo, "--tools", "map,memory") as c:
            names = [t.name for t in (await c.list_tools()).tools]
            refused = await call_error(c, "nav_references", target=LIMITER)
            return names, refused, c.instructions or ""

    names, refused, instructions = asyncio.run(scenario())
    assert names and all(n.startswith(("map_", "memory_")) for n in names)
    assert "map_changes" not in names  # the `change` family
    assert refused["code"] == "unknown_tool"
    assert instructions.endswith(f"This server serves only these tools: {', '.join(names)}.")


def test_the_configured_families_are_served(tmp_path: Path) -> None:
    root = example_repo(tmp_path, watch=False, config='tools = ["resolve", "change"]\n')
    names = {t.name for t in asyncio.run(listed(root))}
    assert names == {"resolve", "nav_diagnostics", "nav_rename", "map_changes"}


def test_an_unknown_family_is_refused_with_the_known_ones(repo: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bridge.cli", "serve", "--root", str(repo), "--tools", "navv"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=SCENARIO_TIMEOUT_S,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "unknown tool families navv" in done.stderr
    assert "nav, resolve, map, change, memory" in done.stderr
