"""Helpers for memory tests: small git repositories built in tmp_path."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from pydantic import TypeAdapter

from disk.database import STORE_ENV
from memory.anchor import capture
from memory.check import check_memories
from memory.model import Memory, MemoryCheck, RefCheck
from memory.refs import parse_ref
from memory.views import MemoryCheckView, memory_check
from memory.workspace import Workspace
from tests import gitrepo
from tests.pgserver import Postgres

COMMIT_DATES = {
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
}
"""Every commit a memory test makes is dated alike (commit times order checks)."""
GIT_ENV = {**gitrepo.GIT_ENV, **COMMIT_DATES}
"""The whole git environment, for tests that run git or the CLI themselves."""


@dataclass
class Repo:
    """A scratch workspace, with git unless asked otherwise."""

    root: Path

    def git(self, *args: str, committed_at: str | None = None) -> str:
        """Run git here; commits are dated `committed_at` (ISO 8601) when given."""
        later = {} if committed_at is None else {"GIT_COMMITTER_DATE": committed_at}
        return gitrepo.git(self.root, *args, env={**COMMIT_DATES, **later})

    def clone(self, dest: Path) -> Repo:
        """A clone of this repository at `dest`."""
        self.git("clone", "-q", str(self.root), str(dest))
        return Repo(dest)

    def write(self, path: str, text: str) -> None:
        target = self.root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")

    def read(self, path: str) -> str:
        return (self.root / path).read_text(encoding="utf-8")

    def commit(self, message: str = "change") -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)

    def remember(self, *refs: str) -> Memory:
        """A memory anchored to `refs` now (not stored)."""
        ws = Workspace(self.root)
        anchors = tuple(capture(ws, parse_ref(self.root, r)) for r in refs)
        return Memory(
            id="m-test",
            text="a note",
            kind="fact",
            tags=(),
            origin="agent",
            status="active",
            created_at="2026-01-01T00:00:00Z",
            anchors=anchors,
        )

    def check(self, memory: Memory) -> MemoryCheck:
        result = check_memories(Workspace(self.root), [memory])[0]
        # every status, reason and confidence level is one the published schema lists
        TypeAdapter(MemoryCheckView).validate_python(memory_check(result), strict=True)
        return result

    def check_ref(self, memory: Memory) -> RefCheck:
        (result,) = self.check(memory).refs
        return result


@pytest.fixture
def repo(tmp_path: Path) -> Repo:
    """An empty git repository with one commit-ready work tree."""
    made = Repo(tmp_path / "repo")
    made.root.mkdir()
    made.git("init", "-q", "-b", "main")
    return made


@pytest.fixture
def plain_dir(tmp_path: Path) -> Repo:
    """A workspace outside any git repository."""
    made = Repo(tmp_path / "plain")
    made.root.mkdir()
    return made


# -- every memory test runs against both stores --------------------------------

BACKENDS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each memory test once per store; `store_specific` tests run once."""
    if "store_backend" in metafunc.fixturenames:
        only = metafunc.definition.get_closest_marker("store_specific")
        metafunc.parametrize("store_backend", ["own"] if only else list(BACKENDS))


@pytest.fixture(scope="session")
def shared_dsn(postgres: Postgres) -> str:
    """The team database the postgresql runs share (emptied before each test)."""
    return postgres.create_database("codeanchor_memories")


@pytest.fixture(autouse=True)
def store_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Point $CODEANCHOR_STORE at an empty PostgreSQL store for the postgresql runs
    (`own`: a store_specific test, which chooses its store itself)."""
    backend: str = request.param
    if backend == "postgresql":
        dsn: str = request.getfixturevalue("shared_dsn")
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(
                "DO $$ BEGIN IF to_regclass('memories') IS NOT NULL THEN "
                "TRUNCATE memories, refs; END IF; END $$"
            )
        monkeypatch.setenv(STORE_ENV, dsn)
    else:
        monkeypatch.delenv(STORE_ENV, raising=False)
    return backend


def nothing_stored(location: Path | str, count: int) -> bool:
    """No store file was created (SQLite), or the shared store holds nothing (PostgreSQL)."""
    return not location.exists() if isinstance(location, Path) else count == 0
