"""The memory store: SQLite in WAL mode, one transaction per write.

Several processes (the MCP server, a CLI) may write at once: every write
takes the write lock up front (`BEGIN IMMEDIATE`) and waits for it
(`busy_timeout`), so nobody's rows are lost; a process killed mid-write
leaves only whole transactions behind. The schema carries a version
(`PRAGMA user_version`) and is migrated forward on open; a store written by
a newer codeanchor is refused rather than guessed at (the schema and its
migrations: `memory.schema`). The operations themselves are those of
`memory.sql_store`, shared with the PostgreSQL store.

A store path may name anything (`--store` is input): a file that is not a
SQLite database, a truncated one, a database of another program, a
directory, a kernel file under /proc. Each is refused with a
MemoryStoreError before anything is written, and a store opened for reading
(`readonly`) changes nothing on disk, ours or not.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

import orjson

from disk.statedir import STATE_DIR
from memory.errors import MemoryInputError, MemoryStoreError
from memory.schema import SCHEMA_VERSION, Ownership, ownership, stored_version, upgrade
from memory.sql_store import SqlMemoryStore
from memory.storefile import NEW_FILE_HINT, STORE_NAME, foreign_store, inspect_store_file

BUSY_TIMEOUT_MS = 30_000


def default_store_path(root: Path) -> Path:
    """`<root>/.codeanchor/memory.db` (where links are refused: see `disk.statedir`)."""
    return root / STATE_DIR / STORE_NAME


class MemoryStore(SqlMemoryStore):
    """The memories of one workspace, in one SQLite file.

    `readonly` opens it for reading: nothing on disk changes (a missing or
    empty file reads as an empty store) until the first write, which opens
    it for writing.
    """

    _mark = "?"

    def __init__(self, path: Path, *, readonly: bool = False) -> None:
        self.path = path
        self.readonly = readonly
        with self._failing():
            self._conn = self._open()

    def _open(self) -> sqlite3.Connection:
        found = inspect_store_file(self.path)
        if found is not None:
            self._refuse_newer(found)
        if self.readonly and (found is None or found == (Ownership.EMPTY, 0)):
            return _new_in_memory()
        if self.readonly and found is not None and found[1] == SCHEMA_VERSION:
            conn = _connect(self.path.absolute().as_uri() + "?mode=ro", uri=True)
            conn.execute("PRAGMA query_only = ON")
            return conn
        self.readonly = False  # an older store of ours is migrated even to be read
        return self._open_for_writing(found)

    def _refuse_newer(self, found: tuple[Ownership, int]) -> None:
        """Refuse a store of ours whose schema a newer codeanchor wrote."""
        kind, version = found
        if kind is Ownership.OURS and version > SCHEMA_VERSION:
            raise MemoryInputError(
                f"{self.path}: memory store schema {version} is newer than this "
                f"codeanchor understands ({SCHEMA_VERSION})",
                hint="upgrade codeanchor, or point --store elsewhere",
            )

    def _open_for_writing(self, found: tuple[Ownership, int] | None) -> sqlite3.Connection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise MemoryStoreError(
                f"{self.path}: cannot create the memory store's folder ({exc.strerror})",
                hint=NEW_FILE_HINT,
            ) from exc
        self._conn = conn = _connect(self.path)
        try:
            if found != (Ownership.OURS, SCHEMA_VERSION):
                with self.transaction():
                    # again under the write lock: another process may have made it meanwhile
                    kind, why = ownership(conn)
                    if kind is Ownership.FOREIGN:
                        raise foreign_store(self.path, why)
                    self._refuse_newer((kind, stored_version(conn)))
                    upgrade(conn)
            conn.execute("PRAGMA journal_mode = WAL")
        except BaseException:
            conn.close()
            raise
        return conn

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction holding the write lock from the start."""
        with self._failing():
            if self.readonly:
                self._conn.close()
                self.readonly = False
                self._conn = self._open()
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                with suppress(sqlite3.Error):  # a broken file may have ended it already
                    self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    @contextmanager
    def _failing(self) -> Iterator[None]:
        """Turn SQLite's errors (a corrupt or unwritable file) into a MemoryStoreError."""
        try:
            yield
        except sqlite3.Error as exc:
            raise MemoryStoreError(
                f"{self.path}: cannot use the memory store ({exc})",
                hint="make it writable, restore it from a backup, or " + NEW_FILE_HINT,
            ) from exc

    def _read(self, sql: str, params: Sequence[object]) -> list[Any]:
        with self._failing():
            return self._conn.execute(sql, params).fetchall()

    def _one_of(self, column: str, values: Collection[str]) -> tuple[str, object]:
        return f"{column} IN (SELECT value FROM json_each(?))", orjson.dumps(list(values)).decode()

    def _ranked(self, words: Sequence[str], limit: int) -> list[Any]:
        """BM25 relevance, negated: higher is better. Each word also matches the
        words it begins (`discount` finds `discounts`)."""
        match = " OR ".join('"' + w.replace('"', "") + '"*' for w in words)
        return self._read(
            "SELECT m.id, -bm25(memories_fts) FROM memories_fts JOIN memories m "
            "ON m.seq = memories_fts.rowid WHERE memories_fts MATCH ? "
            "ORDER BY bm25(memories_fts) LIMIT ?",
            (match, limit),
        )


def _connect(target: str | Path, *, uri: bool = False) -> sqlite3.Connection:
    conn = sqlite3.connect(target, isolation_level=None, check_same_thread=False, uri=uri)
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _new_in_memory() -> sqlite3.Connection:
    """An empty store that lives only as long as its connection."""
    conn = _connect(":memory:")
    upgrade(conn)
    return conn
