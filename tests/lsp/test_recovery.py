"""A dying or silent server never hangs a query: typed errors, then recovery."""

from __future__ import annotations

import os
import signal
import sys
from pathlib import Path

import pytest

from lsp.catalog import Catalog
from lsp.errors import (
    NoServerError,
    RequestTimeoutError,
    ServerCrashedError,
    ServerGaveUpError,
)
from lsp.settings import LiveSettings
from tests.lsp.conftest import (
    PYTHON_SERVERS,
    Live,
    line_of,
    open_live,
    position_of,
    python_catalog_with,
)

SHAPES = "app/shapes.py"
REPORT = "app/report.py"

# A "server" that records its pid, then reads stdin and never answers.
SILENT = """\
import os, sys
with open(sys.argv[1], "a") as pids:
    pids.write(f"{os.getpid()}\\n")
while sys.stdin.buffer.read(1):
    pass
"""

# A "server" that prints its version but dies at once when started.
DOOMED = """\
import sys
if sys.argv[1:] == ["--version"]:
    print("doomed 1.0")
    sys.exit(0)
sys.stderr.write("fake server: cannot start\\n")
sys.exit(3)
"""

# A broken install (like the rustup shim): even its version command fails.
SHIM = """\
import sys
sys.stderr.write("error: unknown proxy name: 'shim'\\n")
sys.exit(1)
"""


def _fake_catalog(tmp_path: Path, name: str, script: str, *args: str) -> Catalog:
    path = tmp_path / f"{name}.py"
    path.write_text(script, encoding="utf-8")
    return python_catalog_with(name, (sys.executable, str(path), *args))


def _is_running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _definition(live: Live) -> set[tuple[str, int]]:
    line, col = position_of(live.root, REPORT, "total_area", after="return")
    return {(loc.path, loc.line) for loc in live.run(live.pool.definition(REPORT, line, col))}


@pytest.mark.parametrize("server", PYTHON_SERVERS)
def test_a_killed_server_is_restarted_and_answers_again(server: str, tmp_path: Path) -> None:
    with open_live("py_app", tmp_path, server=server) as live:
        expected = {(SHAPES, line_of(live.root, SHAPES, "def total_area"))}
        assert _definition(live) == expected
        [before] = live.pool.status()
        assert before.pid is not None
        os.killpg(before.pid, signal.SIGKILL)  # the server and any child it runs
        try:
            first = _definition(live)
        except ServerCrashedError as exc:  # the query in flight may see the death
            assert server in str(exc)
            first = _definition(live)
        assert first == expected
        [after] = live.pool.status()
        assert (after.state, after.restarts, after.recycles) == ("running", 1, 0)  # a crash
        assert after.pid not in (None, before.pid)
        assert not _is_running(before.pid)
    assert not _is_running(after.pid or 0)


def test_a_server_that_never_answers_times_out_then_is_given_up(tmp_path: Path) -> None:
    pids = tmp_path / "pids.txt"
    catalog = _fake_catalog(tmp_path, "silent", SILENT, str(pids))
    settings = LiveSettings(
        request_timeout=0.5, cold_start_deadline=0.5, restart_limit=2, restart_window=60.0
    )
    with open_live("py_app", tmp_path, catalog=catalog, settings=settings) as live:
        for _ in range(2):
            with pytest.raises(RequestTimeoutError) as caught:
                live.run(live.pool.document_symbols(SHAPES), timeout=20)
            assert "silent did not answer initialize within 0.5 s" in str(caught.value)
        with pytest.raises(ServerGaveUpError, match="silent crashed 2 times within 60 s"):
            live.run(live.pool.document_symbols(SHAPES), timeout=20)
        [status] = live.pool.status()
        assert (status.name, status.state, status.pid) == ("silent", "given_up", None)
    started = [int(pid) for pid in pids.read_text(encoding="utf-8").split()]
    assert len(started) == 2
    assert not any(_is_running(pid) for pid in started)


def test_a_server_that_dies_at_start_is_a_crash_with_its_exit_code(tmp_path: Path) -> None:
    catalog = _fake_catalog(tmp_path, "doomed", DOOMED)
    with open_live("py_app", tmp_path, catalog=catalog) as live:
        with pytest.raises(ServerCrashedError, match="doomed crashed: exit code 3") as caught:
            live.run(live.pool.hover(SHAPES, 0, 0), timeout=20)
        assert not isinstance(caught.value, ServerGaveUpError)
        assert live.pool.status()[0].state == "stopped"


def test_a_broken_install_is_reported_with_its_install_command(tmp_path: Path) -> None:
    shim = tmp_path / "shim"
    shim.write_text(f"#!{sys.executable}\n{SHIM}", encoding="utf-8")
    shim.chmod(0o755)
    catalog = python_catalog_with("shim", (str(shim),))
    with open_live("py_app", tmp_path, catalog=catalog) as live:
        with pytest.raises(NoServerError, match="shim does not run") as caught:
            live.run(live.pool.hover(SHAPES, 0, 0), timeout=30)
        assert "unknown proxy name" in str(caught.value)
        assert caught.value.install == "(a test double)"


def test_a_server_that_outgrew_its_memory_bound_is_restarted_and_answers_the_same(
    tmp_path: Path,
) -> None:
    settings = LiveSettings(max_server_mb=1, recycle_interval=0.0)  # any server is heavier
    with open_live("py_app", tmp_path, server="ty", settings=settings) as live:
        expected = {(SHAPES, line_of(live.root, SHAPES, "def total_area"))}
        live.run(_open_both(live))  # its first push: not weighed yet
        assert live.pool.open_document_count() == 2
        [before] = live.pool.status()
        assert _definition(live) == expected  # weighed before this query: restarted
        [after] = live.pool.status()
        assert (after.state, after.restarts, after.recycles) == ("running", 1, 1)
        assert after.pid not in (None, before.pid)
        assert live.pool.open_document_count() == 1  # only the queried one opened again
        assert not _is_running(before.pid or 0)
        assert _definition(live) == expected  # weighed at most every 10 s: not again
        assert live.pool.status()[0].restarts == 1


async def _open_both(live: Live) -> None:
    """Open REPORT and SHAPES in the server under one push (as they are on disk)."""
    texts = {live.root / p: (live.root / p).read_text() for p in (REPORT, SHAPES)}
    async with live.pool.session("python").overlaid(texts):
        pass


def test_a_server_within_its_memory_bound_keeps_running(tmp_path: Path) -> None:
    settings = LiveSettings(max_server_mb=1_000_000, recycle_interval=0.0)
    with open_live("py_app", tmp_path, server="ty", settings=settings) as live:
        for _ in range(2):
            _definition(live)
        [status] = live.pool.status()
        assert (status.restarts, status.recycles) == (0, 0)
        assert status.held_mb is not None and status.bound_mb is not None
        assert status.held_mb <= status.bound_mb < 1_000_000  # its working size + growth
