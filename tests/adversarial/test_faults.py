"""Faults from outside: a killed build, a client that leaves mid-request, a slow server.

No process outlives the one that started it: `kill -9` of `map build` takes
its extraction workers with it, and a language server that hangs dies with
`codeanchor serve` when the client disconnects in the middle of a request. A
slow answer is not a crash: it does not count toward giving a server up.
Real processes and a real language server (ty) throughout.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lsp.errors import RequestTimeoutError, ServerCrashedError
from lsp.settings import LiveSettings
from tests.adversarial.cli import REPO
from tests.bridge.mcp_session import call, example_repo, serve
from tests.conftest import require_binary
from tests.lsp.conftest import Live, open_live, position_of
from tests.processes import processes_under, session_members

DEADLINE_S = 60.0
MODULES = 600
MODULE_TEXT = "".join(
    f"class Shape{i}:\n    def area(self, w: int) -> int:\n        return helper{i}(w) * {i}\n\n"
    f"def helper{i}(x: int) -> int:\n    return x + {i}\n\n"
    for i in range(40)
)


def wait_until(condition: Callable[[], bool], what: str) -> None:
    """Poll `condition()` until it holds, failing after DEADLINE_S."""
    deadline = time.monotonic() + DEADLINE_S
    while not condition():
        assert time.monotonic() < deadline, f"still waiting after {DEADLINE_S} s: {what}"
        time.sleep(0.05)


@contextlib.contextmanager
def reaping(pids: set[int]) -> Iterator[set[int]]:
    """Kill whatever of `pids` is still running on the way out (the test failed)."""
    try:
        yield pids
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
                os.kill(pid, signal.SIGKILL)


def test_kill_9_of_map_build_takes_its_workers_with_it(tmp_path: Path) -> None:
    root = tmp_path / "big"
    (root / "pkg").mkdir(parents=True)
    for n in range(MODULES):
        (root / "pkg" / f"mod{n}.py").write_text(MODULE_TEXT)
    build = subprocess.Popen(
        [sys.executable, "-m", "bridge.cli", "map", "build", "--root", str(root)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    with reaping(set()) as started:

        def workers_running() -> bool:
            members = session_members(build.pid)
            started.update(members)
            return sum("forkserver" in cmd for cmd in members.values()) >= 2

        wait_until(workers_running, "the build's pool workers to start")
        build.kill()
        build.wait()
        wait_until(lambda: not session_members(build.pid), "the workers to exit")


def test_a_hung_server_dies_with_serve_when_the_client_leaves_mid_request(
    tmp_path: Path,
) -> None:
    require_binary("ty")
    root = example_repo(tmp_path, watch=False)
    allow = "shop/middleware/rate_limit.py#RateLimiter.allow"

    def ty_pids() -> set[int]:
        return {pid for pid, cmd in processes_under(str(root)).items() if "ty server" in cmd}

    async def scenario(hung: set[int]) -> None:
        async with serve(root) as client:
            assert (await call(client, "resolve", target=allow))["data"]["verified"] is True
            hung.update(ty_pids())
            assert hung, "ty should be running under serve"
            for pid in hung:
                os.kill(pid, signal.SIGSTOP)
            pending = asyncio.ensure_future(client.call_tool("nav_references", {"target": allow}))
            done, _ = await asyncio.wait({pending}, timeout=1.0)  # the request is in flight
            assert not done
            pending.cancel()
        # the client has closed stdin, and (serve not exiting in time) signalled it

    with reaping(set()) as hung:
        asyncio.run(asyncio.wait_for(scenario(hung), DEADLINE_S))
        wait_until(lambda: not any(_running(pid) for pid in hung), "the hung ty to die")


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    return state != "Z"


def _definition(live: Live) -> int:
    line, col = position_of(live.root, "app/report.py", "total_area", after="return")
    return len(live.run(live.pool.definition("app/report.py", line, col)))


def test_a_slow_answer_does_not_count_as_a_crash(tmp_path: Path) -> None:
    settings = LiveSettings(request_timeout=3.0, cold_start_deadline=30.0, restart_limit=3)
    with open_live("py_app", tmp_path, settings=settings) as live:
        assert _definition(live) == 1
        for _ in range(2):  # two crashes: one short of the restart limit
            [status] = live.pool.status()
            assert status.pid is not None
            os.killpg(status.pid, signal.SIGKILL)
            with contextlib.suppress(ServerCrashedError):  # the query that meets the death
                _definition(live)
            assert _definition(live) == 1
        [before] = live.pool.status()
        assert before.pid is not None and before.restarts == 2
        os.kill(before.pid, signal.SIGSTOP)  # slow: no answer within request_timeout
        try:
            with pytest.raises(RequestTimeoutError):
                _definition(live)
        finally:
            os.kill(before.pid, signal.SIGCONT)
        assert _definition(live) == 1
        [after] = live.pool.status()
        assert (after.state, after.pid, after.restarts) == ("running", before.pid, 2)
