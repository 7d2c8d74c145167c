"""How far a long tool call is, told to the MCP client that asked to hear it.

Opening or rebuilding the map of a large repository takes up to a minute. The
MCP handler (bridge.server.mcp_server) sets a listener for the call it runs, and the
map's build progress, heard in a worker thread, reaches the client as
`notifications/progress`: one value rising from 0 to 3 over a build's three
phases (reading, linking, saving), with a message such as `linking names
512/5172` (a second build in the same call is heard only where it passes the
first). A client that sent no progress token hears nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Coroutine
from concurrent.futures import Future
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from map import BuildPhase, BuildProgress

PHASES: dict[BuildPhase, str] = {
    "reading": "reading files",
    "linking": "linking names",
    "saving": "saving the map",
}
"""What a report says of each phase of a build, in the phases' order."""
Report = Callable[[float, float, str], Coroutine[object, object, None]]
"""`report(progress, total, message)`: one notification to the client."""

_listener: ContextVar[BuildProgress | None] = ContextVar("build_progress", default=None)


def build_progress() -> BuildProgress | None:
    """The running call's listener for a map build (None: nobody asked to hear it)."""
    return _listener.get()


@asynccontextmanager
async def reporting(report: Report) -> AsyncIterator[None]:
    """Within the body, a map build's progress goes to `report` (on this event loop,
    from whichever thread the build runs in); leaving waits for what was sent."""
    loop = asyncio.get_running_loop()
    sent: list[Future[None]] = []
    reached = [-1.0]

    def listen(phase: BuildPhase, done: int, total: int) -> None:
        step = list(PHASES).index(phase) + (done / total if total else 1.0)
        if step <= reached[0]:  # progress must rise (a second build in one call)
            return
        reached[0] = step
        message = f"{PHASES[phase]} {done}/{total}"
        sent.append(asyncio.run_coroutine_threadsafe(report(step, len(PHASES), message), loop))

    token = _listener.set(listen)
    try:
        yield
    finally:
        _listener.reset(token)
        for future in sent:
            await asyncio.wrap_future(future)
