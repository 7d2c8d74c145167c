"""Shared test helpers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from lsp.locate import locate
from tests.pgserver import Postgres, running_postgres

FIXTURES = Path(__file__).parent / "fixtures"


def require_binary(name: str) -> Path:
    """The path of an installed executable; fails under CI and skips loudly elsewhere."""
    found = locate(name)
    if found is None:
        message = f"{name} is not installed: run scripts/setup.sh (CI installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(f"MISSING SERVER: {message}")
    return found


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write `files` ({relative path: text}) under `root`, folders made; returns `root`."""
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A real PostgreSQL server for the whole session (stopped at its end), started by
    the first test that asks for it."""
    with running_postgres() as server:
        yield server


@pytest.fixture
def team_database(postgres: Postgres, request: pytest.FixtureRequest) -> str:
    """A fresh, empty database for one test; its DSN."""
    return postgres.create_database(f"t_{abs(hash(request.node.nodeid)):x}")
