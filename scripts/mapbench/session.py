"""A `codeanchor serve` MCP stdio session for the benchmark: start it, call its tools,
poll until an answer turns as expected, read the server's peak RSS."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import orjson
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment

from mapbench.procs import CODE, codeanchor, command_line, descendants, vm_hwm_kib

CALL_TIMEOUT_S = 600.0
POLL_S = 0.01
FRESH_DEADLINE_S = 120.0
"""How long an edit may take to show in a running server's answers."""

Answer = TypeVar("Answer")


def serve(root: Path) -> Client:
    """A client that starts `codeanchor serve --root ROOT` (this tree's code) as it opens."""
    command, *args = codeanchor("serve", "--root", str(root))
    params = StdioServerParameters(
        command=command, args=args, env=dict(get_default_environment()), cwd=str(CODE)
    )
    return Client(params, read_timeout_seconds=CALL_TIMEOUT_S)


def configure(root: Path, *, watch: bool) -> None:
    """Whether the next server started on `root` watches the disk."""
    (root / "codeanchor.toml").write_text(f"watch = {str(watch).lower()}\n")


async def call(client: Client, tool: str, **arguments: Any) -> dict[str, Any]:
    """The tool's answer envelope; raises RuntimeError with its text on an error answer."""
    result = await client.call_tool(tool, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    if result.is_error:
        raise RuntimeError(f"{tool} failed: {text[:300]}")
    envelope: dict[str, Any] = orjson.loads(text)
    return envelope


def server_peak_mb() -> float:
    """The peak RSS of the `codeanchor serve` process below this one."""
    peaks = [vm_hwm_kib(p) for p in descendants(os.getpid()) if "serve" in command_line(p)]
    return max(peaks, default=0) * 1024 / 1e6


async def poll(
    ask: Callable[[], Awaitable[Answer]],
    done: Callable[[Answer], bool],
    what: str,
    *,
    deadline_s: float = FRESH_DEADLINE_S,
    every_s: float = POLL_S,
) -> Answer:
    """Ask until an answer is `done` and return that answer; RuntimeError naming `what`
    once `deadline_s` has passed with none."""
    deadline = time.monotonic() + deadline_s
    while True:
        answer = await ask()
        if done(answer):
            return answer
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what}: no answer turned as expected within {deadline_s:.0f} s")
        await asyncio.sleep(every_s)


async def until(
    client: Client,
    done: Callable[[dict[str, Any]], bool],
    tool: str,
    *,
    deadline_s: float = FRESH_DEADLINE_S,
    every_s: float = POLL_S,
    **arguments: Any,
) -> dict[str, Any]:
    """The first answer of `tool` that is `done` (see `poll`)."""
    return await poll(
        lambda: call(client, tool, **arguments),
        done,
        f"{tool} {arguments}",
        deadline_s=deadline_s,
        every_s=every_s,
    )
