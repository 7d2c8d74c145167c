"""Fixtures of the map tests that use a team store (tests/map/team.py)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from map import TeamStore
from tests.gitrepo import commit_all
from tests.map.graph_state import FIXTURE


@pytest.fixture
def origin(tmp_path: Path) -> Path:
    """A repository of the map fixture, committed, one file also at a second path."""
    root = tmp_path / "origin"
    shutil.copytree(FIXTURE, root)
    shutil.copy(root / "pkg" / "util.py", root / "pkg" / "util_copy.py")
    commit_all(root, "start")
    return root


@pytest.fixture(autouse=True)
def opened() -> Iterator[list[TeamStore]]:
    """The team stores a test opened, closed at its end."""
    stores: list[TeamStore] = []
    yield stores
    for store in stores:
        store.close()
