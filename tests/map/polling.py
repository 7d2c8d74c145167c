"""Waiting in async map tests: poll a condition with a bounded deadline, never sleep blind."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

WAIT_S = 20.0


async def wait_until(condition: Callable[[], bool], what: str) -> None:
    """Poll `condition` until it holds; fail naming `what` after WAIT_S seconds."""
    deadline = asyncio.get_running_loop().time() + WAIT_S
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        await asyncio.sleep(0.01)
