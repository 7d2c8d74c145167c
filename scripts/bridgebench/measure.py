"""The bridge benchmark's measuring: each case in-process (with its raw live call)
and through `codeanchor serve` over MCP stdio. Needs the repository root on
sys.path (`tests.bridge.mcp_session`)."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from mcp import Client
from rich.console import Console

from bridge.context import AppContext
from bridgebench.cases import Case
from tests.bridge.mcp_session import server_params

WARMUP_CALLS = 2
CALL_TIMEOUT_S = 120.0

err = Console(stderr=True)

T = TypeVar("T")


@dataclass
class Samples:
    """Latencies (seconds) of one tool in each mode, and its answer's size."""

    raw: list[float] = field(default_factory=list)
    inproc: list[float] = field(default_factory=list)
    mcp: list[float] = field(default_factory=list)
    answer_bytes: int = 0


async def timed(call: Callable[[], Awaitable[T]]) -> tuple[float, T]:
    """Seconds one awaited call took, and its result."""
    started = time.perf_counter()
    result = await asyncio.wait_for(call(), CALL_TIMEOUT_S)
    return time.perf_counter() - started, result


async def measure_inproc(
    root: Path, cases: list[Case], runs: int, samples: dict[str, Samples]
) -> dict[str, float]:
    """Raw and in-process latencies, one shared AppContext; returns cold-start times."""
    app = AppContext(root)
    cold: dict[str, float] = {}
    try:
        cold["map_open_s"], _ = await timed(app.code_map)
        first = cases[0]
        cold["first_call_s"], _ = await timed(lambda: first.fn(app, **first.args))
        err.log(f"in-process cold start: first {first.tool} {cold['first_call_s']:.2f} s")

        async def one_round(case: Case, record: bool) -> None:
            if case.raw is not None:
                raw = case.raw
                seconds, _ = await timed(lambda: raw(app))
                if record:
                    samples[case.label].raw.append(seconds)
            seconds, _ = await timed(lambda: case.fn(app, **case.args))
            if record:
                samples[case.label].inproc.append(seconds)

        for case in cases:
            for _ in range(WARMUP_CALLS):
                await one_round(case, record=False)
        for run in range(runs):
            for case in cases:
                await one_round(case, record=True)
            err.log(f"in-process run {run + 1}/{runs}")
    finally:
        await app.aclose()
    return cold


async def measure_mcp(
    root: Path, cases: list[Case], runs: int, samples: dict[str, Samples]
) -> dict[str, float]:
    """Latencies through `codeanchor serve` over stdio; returns cold-start times."""
    cold: dict[str, float] = {}
    cases = [case for case in cases if case.over_mcp]
    started = time.perf_counter()
    async with Client(server_params(root), read_timeout_seconds=CALL_TIMEOUT_S) as client:
        cold["session_start_s"] = time.perf_counter() - started

        async def call(case: Case) -> int:
            result = await client.call_tool(case.tool, case.args)
            text = result.content[0].text  # type: ignore[union-attr]
            if result.is_error:
                raise SystemExit(f"{case.tool} failed through MCP: {text}")
            return len(text.encode())

        first = cases[0]
        cold["first_call_s"], _ = await timed(lambda: call(first))
        err.log(
            f"MCP cold start: session {cold['session_start_s']:.2f} s, first {first.tool} "
            f"{cold['first_call_s']:.2f} s"
        )
        for case in cases:
            for _ in range(WARMUP_CALLS):
                await call(case)
        for run in range(runs):
            for case in cases:
                seconds, size = await timed(functools.partial(call, case))
                samples[case.label].mcp.append(seconds)
                samples[case.label].answer_bytes = size
            err.log(f"MCP run {run + 1}/{runs}")
    return cold
