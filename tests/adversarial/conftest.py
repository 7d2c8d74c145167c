"""What the adversarial tests share: a small committed repository to attack."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.memory.conftest import Repo

CODE = "def area(w, h):\n    return w * h\n"
SCENARIO_TIMEOUT_S = 180.0
"""The longest one MCP scenario (a server started, several calls) may take."""


@pytest.fixture
def shapes(tmp_path: Path) -> Repo:
    """A git repository with one committed Python file."""
    repo = Repo(tmp_path / "repo")
    repo.root.mkdir()
    repo.git("init", "-q", "-b", "main")
    repo.write("shapes.py", CODE)
    repo.commit("start")
    return repo
