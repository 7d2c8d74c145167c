"""Drive `codeanchor serve` as a subprocess through the mcp SDK's stdio client."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment

from tests.gitrepo import commit_all
from tests.processes import processes_under as processes_under  # re-exported

EXAMPLE = Path(__file__).resolve().parents[2] / "scripts" / "example"
CALL_TIMEOUT_S = 60.0
FULL_SCHEMAS = 'output_schemas = "full"\n'
"""The configuration line that publishes every nested shape (tools/list is lean by
default): for the tests that check every key of an answer against its schema."""


def example_repo(dest: Path, *, watch: bool, config: str = "") -> Path:
    """A private git repository copied from the bundled example (`config`: more lines
    of its codeanchor.toml)."""
    root = dest / "repo"
    shutil.copytree(EXAMPLE, root)
    (root / "codeanchor.toml").write_text(f"watch = {str(watch).lower()}\n{config}")
    commit_all(root, "example")
    return root


def server_params(root: Path, *options: str) -> StdioServerParameters:
    """How to start `codeanchor serve OPTIONS` on `root` with this interpreter."""
    ours = {k: v for k, v in os.environ.items() if k.startswith("CODEANCHOR_")}
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "bridge.cli", "serve", "--root", str(root), *options],
        env={**get_default_environment(), **ours},  # the store and config the test chose
    )


@asynccontextmanager
async def serve(root: Path, *options: str) -> AsyncIterator[Client]:
    """An initialized MCP client session with a fresh server on `root` (`options`: more
    arguments of `codeanchor serve`)."""
    params = server_params(root, *options)
    async with Client(params, read_timeout_seconds=CALL_TIMEOUT_S) as client:
        yield client


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed; returns its envelope."""
    result = await client.call_tool(tool, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    if result.is_error:
        raise AssertionError(f"{tool} failed: {text}")
    envelope: dict[str, Any] = orjson.loads(text)
    if result.structured_content is not None:
        assert result.structured_content == envelope
    return envelope


async def call_error(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must fail; returns the error of its envelope."""
    result = await client.call_tool(tool, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    assert result.is_error, f"{tool} should have failed but answered {text[:200]}"
    envelope: dict[str, Any] = orjson.loads(text)
    assert envelope["ok"] is False
    error: dict[str, Any] = envelope["error"]
    return error
