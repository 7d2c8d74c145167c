"""Which store holds a workspace's memories, and opening it.

A store location is a SQLite file (the embedded default,
`<root>/.codeanchor/memory.db`) or a `postgresql://` DSN (one database shared
by a team: `memory.pg_store`). `--store`, else `$CODEANCHOR_STORE`, else the
default. Both stores offer the operations of `MemoryBackend`.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Protocol

from disk.database import STORE_ENV, is_postgres_dsn
from disk.statedir import state_file
from memory.git import CommitStamp
from memory.identity import repository_identity
from memory.model import Anchor, Memory, MemoryStatus
from memory.store import MemoryStore, default_store_path
from memory.storefile import STORE_NAME

StoreLocation = Path | str
"""A SQLite file's path, or a PostgreSQL DSN (a str)."""


class MemoryBackend(Protocol):
    """What the memory service needs of a store; SQLite and PostgreSQL both offer it."""

    @property
    def path(self) -> object:
        """Where it is, for messages (a DSN without its password)."""
        ...

    def close(self) -> None: ...
    def add(self, memories: Sequence[Memory]) -> None: ...
    def touch(self, ids: Collection[str], when: str) -> None: ...
    def set_statuses(
        self, statuses: Mapping[str, MemoryStatus], checked: CommitStamp | None = None
    ) -> None: ...
    def reanchor(self, anchors: Mapping[str, Sequence[Anchor]], when: str) -> None: ...
    def supersede(self, old_id: str, new: Memory) -> None: ...
    def set_status(self, memory_id: str, status: MemoryStatus) -> None: ...
    def get(self, memory_id: str) -> Memory: ...
    def get_many(self, ids: Sequence[str]) -> list[Memory]: ...
    def select(
        self, statuses: Collection[MemoryStatus] | None = None, kind: str | None = None
    ) -> list[Memory]: ...
    def search(self, query: str, limit: int) -> list[tuple[Memory, float]]: ...
    def count(self) -> int: ...
    def ids(self) -> list[str]: ...


def store_location(root: Path, explicit: str | Path | None = None) -> StoreLocation:
    """`--store`, else $CODEANCHOR_STORE, else `<root>/.codeanchor/memory.db`."""
    chosen = explicit or os.environ.get(STORE_ENV)
    if not chosen:
        return default_store_path(root)
    if isinstance(chosen, str) and is_postgres_dsn(chosen):
        return chosen
    return Path(chosen).expanduser().resolve()


def store_exists(location: StoreLocation) -> bool:
    """Whether there may be memories there (a database server always may)."""
    return isinstance(location, str) or location.exists()


def open_store(location: StoreLocation, root: Path, *, create: bool) -> MemoryBackend:
    """The store at `location` for the repository at `root`.

    Without `create`, a SQLite file is opened for reading: nothing on disk is
    made or changed (a missing file reads as an empty store). The default
    file inside the root is refused (OutsideRootError) when it or
    `.codeanchor` is a symlink: writes never follow links out of the root.
    """
    if isinstance(location, str):
        from memory.pg_store import PgMemoryStore  # the PostgreSQL driver: only for its store

        return PgMemoryStore(location, repository_identity(root))
    if location == default_store_path(root):
        location = state_file(root, STORE_NAME, create_dir=create)
    return MemoryStore(location, readonly=not create)
