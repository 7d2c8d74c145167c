"""The map benchmark's runner: which child runs which measure, and what it carries."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def test_every_session_measure_is_run_through_a_session(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    runner = importlib.import_module("mapbench.runner")
    restart = importlib.import_module("mapbench.restart")
    serve = importlib.import_module("mapbench.serve")
    sessions = serve.SESSIONS.keys() | restart.SESSIONS.keys()
    assert sessions == runner.SESSIONS
    assert sessions <= set(runner.CHOICES)


def test_an_in_process_measure_does_not_carry_the_mcp_sdk() -> None:
    """A cold build's peak RSS is its measuring child's, which runs bench_map.py: the MCP
    client SDK (~45 MB), which only the session measures use, must not be imported
    with the script."""
    probe = (
        "import runpy, sys\n"
        f"sys.argv = [{str(SCRIPTS / 'bench_map.py')!r}, '--help']\n"
        "try:\n"
        "    runpy.run_path(sys.argv[0], run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('mcp' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": f"{SCRIPTS}:{SCRIPTS.parent}", "PATH": "/usr/bin:/bin"},
    )
    assert done.stdout.strip().splitlines()[-1] == "False"
