"""The PostgreSQL store's schema and the migrations that bring a database up to it.

The version lives in `codeanchor_schema`; migration N+1 takes a database from
version N to N+1, under an advisory lock so that two processes opening a new
database at once migrate it once. A database newer than this codeanchor is
refused. The tables' columns are those of `memory.tables`; every row also
carries `repo_id` (`memory.identity`): one database serves many repositories.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import psycopg

from memory.errors import MemoryStoreError
from memory.tables import (
    CHECK_COLUMNS,
    MEMORY_COLUMNS,
    REF_COLUMNS,
    REF_KEY,
    Column,
    ColumnKind,
    create_table,
    definitions,
)

_LOCK_KEY = 0x636F6465  # "code": the advisory lock that serializes migrations

_TYPES: dict[ColumnKind, str] = {
    "text": "TEXT",
    "integer": "INTEGER",
    "bigint": "BIGINT",
    "boolean": "BOOLEAN",
}
"""PostgreSQL's type for each kind of column of `memory.tables`."""

_REPO = Column("repo_id", "text", True)
"""The repository a row belongs to (`memory.identity`)."""


def _migrate_1(cur: psycopg.Cursor[Any]) -> None:
    memories = [
        "seq BIGSERIAL UNIQUE",
        *definitions((_REPO, *MEMORY_COLUMNS, *CHECK_COLUMNS), _TYPES),
        "search TSVECTOR GENERATED ALWAYS AS ("
        "to_tsvector('simple', text || ' ' || tags || ' ' || kind)) STORED",
        "PRIMARY KEY (repo_id, id)",
    ]
    refs = [
        *definitions((_REPO, *REF_KEY, *REF_COLUMNS), _TYPES),
        "PRIMARY KEY (repo_id, memory_id, position)",
        "FOREIGN KEY (repo_id, memory_id) REFERENCES memories (repo_id, id) ON DELETE CASCADE",
    ]
    cur.execute(create_table("memories", memories))
    cur.execute("CREATE INDEX memories_search ON memories USING GIN (search)")
    cur.execute(create_table("refs", refs))
    cur.execute("CREATE INDEX refs_path ON refs (repo_id, path)")


MIGRATIONS: tuple[Callable[[psycopg.Cursor[Any]], None], ...] = (_migrate_1,)
SCHEMA_VERSION = len(MIGRATIONS)


def stored_version(cur: psycopg.Cursor[Any]) -> int:
    """The schema version of the database (0 when codeanchor never wrote to it)."""
    cur.execute("SELECT to_regclass('codeanchor_schema') IS NOT NULL")
    row = cur.fetchone()
    if row is None or not row[0]:
        return 0
    cur.execute("SELECT max(version) FROM codeanchor_schema")
    found = cur.fetchone()
    return int(found[0]) if found and found[0] is not None else 0


def upgrade(cur: psycopg.Cursor[Any]) -> None:
    """Bring the database to `SCHEMA_VERSION` inside the caller's transaction.

    A database already at the version is only read (no lock, no DDL), so a
    role with no more than SELECT, INSERT, UPDATE and DELETE can use it.
    """
    if _checked(stored_version(cur)) == SCHEMA_VERSION:
        return
    cur.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
    cur.execute("CREATE TABLE IF NOT EXISTS codeanchor_schema (version INTEGER NOT NULL)")
    version = _checked(stored_version(cur))  # again, under the lock
    for number in range(version, SCHEMA_VERSION):
        MIGRATIONS[number](cur)
    cur.execute("DELETE FROM codeanchor_schema")
    cur.execute("INSERT INTO codeanchor_schema (version) VALUES (%s)", (SCHEMA_VERSION,))


def _checked(version: int) -> int:
    if version > SCHEMA_VERSION:
        raise MemoryStoreError(
            f"memory store schema {version} is newer than this codeanchor understands "
            f"({SCHEMA_VERSION})",
            hint="upgrade codeanchor",
        )
    return version
