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
    assert runner.SESSIONS == serve.SESSIONS.keys() | restart.SESSIONS.keys()
    assert runner.SESSIONS <= set(runner.CHOICES)


def test_an_in_process_measure_does_not_carry_the_mcp_sdk() -> None:
    """A cold build's peak RSS is the measuring child's: the MCP client SDK (~45 MB),
    which only the session measures use, must not be imported with the runner."""
    probe = "import sys, mapbench.runner; print('mcp' in sys.modules)"
    env_path = f"{SCRIPTS}:{SCRIPTS.parent}"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"},
    )
    assert done.stdout.strip() == "False"
