"""Helpers for the team store's tests: clones of one origin, a store opened and closed."""

from __future__ import annotations

from pathlib import Path

import psycopg

from map import CodeMap, TeamStore
from map.store.team_store import TABLE
from tests.map.graph_state import git

EXTRA = "def doubled(x):\n    return 2 * x\n"


def clone(origin: Path, where: Path) -> Path:
    """A clone of `origin` at `where`."""
    where.parent.mkdir(parents=True, exist_ok=True)
    git(origin, "clone", "-q", str(origin), str(where))
    return where


def rows(dsn: str) -> int:
    """How many rows the team store at `dsn` holds."""
    with psycopg.connect(dsn) as conn:
        found = conn.execute(f"SELECT count(*) FROM {TABLE}").fetchone()
    return int(found[0]) if found else 0


def sql(dsn: str, statement: str) -> None:
    """Run one statement on the database at `dsn` (as the role it names)."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(statement.encode())


def built(root: Path, dsn: str, opened: list[TeamStore]) -> tuple[CodeMap, TeamStore]:
    """The map of `root` built with the team store at `dsn`, and that store."""
    team = TeamStore.open(dsn)
    opened.append(team)
    return CodeMap.open(root, team=team), team
