"""The SQLite store's schema and the migrations that bring a store up to it.

The tables' columns are those of `memory.tables`; the keys, the types and
full-text search (FTS5, kept by triggers) are SQLite's own here.

The version lives in `PRAGMA user_version`; migration N+1 takes a store from
version N to N+1. `MemoryStore` refuses a store newer than `SCHEMA_VERSION`
and runs `upgrade` inside its write transaction.

A store says it is ours with `PRAGMA application_id = APPLICATION_ID`. A
SQLite file with another application id, or with tables that are not ours,
is someone else's and is never touched (`ownership`). Stores written before
the id existed have id 0 and exactly the objects our migrations create for
their version: those are adopted (`upgrade` stamps the id).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from enum import Enum

from memory.tables import (
    CHECK_COLUMNS,
    MEMORY_COLUMNS,
    REF_COLUMNS,
    REF_KEY,
    ColumnKind,
    create_table,
    definitions,
)

_TYPES: dict[ColumnKind, str] = {
    "text": "TEXT",
    "integer": "INTEGER",
    "bigint": "INTEGER",
    "boolean": "INTEGER",
}
"""SQLite's type for each kind of column of `memory.tables`."""

_FULL_TEXT = (
    """
        CREATE VIRTUAL TABLE memories_fts USING fts5(
            text, tags, kind, content='memories', content_rowid='seq'
        )""",
    """
        CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
            INSERT INTO memories_fts(rowid, text, tags, kind)
            VALUES (new.seq, new.text, new.tags, new.kind);
        END""",
    """
        CREATE TRIGGER memories_ad AFTER DELETE ON memories BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, text, tags, kind)
            VALUES ('delete', old.seq, old.text, old.tags, old.kind);
        END""",
    """
        CREATE TRIGGER memories_au AFTER UPDATE OF text, tags, kind ON memories BEGIN
            INSERT INTO memories_fts(memories_fts, rowid, text, tags, kind)
            VALUES ('delete', old.seq, old.text, old.tags, old.kind);
            INSERT INTO memories_fts(rowid, text, tags, kind)
            VALUES (new.seq, new.text, new.tags, new.kind);
        END""",
)
"""Full-text search over text, tags and kind (FTS5, kept by triggers)."""


def _migrate_1(conn: sqlite3.Connection) -> None:
    memories = [
        "seq INTEGER PRIMARY KEY AUTOINCREMENT",
        *definitions(MEMORY_COLUMNS, _TYPES),
        "UNIQUE (id)",
    ]
    refs = [
        *definitions(REF_KEY + REF_COLUMNS, _TYPES),
        "PRIMARY KEY (memory_id, position)",
        "FOREIGN KEY (memory_id) REFERENCES memories (id) ON DELETE CASCADE",
    ]
    conn.execute(create_table("memories", memories))
    conn.execute(create_table("refs", refs))
    conn.execute("CREATE INDEX refs_path ON refs(path)")
    for statement in _FULL_TEXT:
        conn.execute(statement)


def _migrate_2(conn: sqlite3.Connection) -> None:
    """The commit each stored status was checked at (shared stores: newest wins)."""
    for column in definitions(CHECK_COLUMNS, _TYPES):
        conn.execute(f"ALTER TABLE memories ADD COLUMN {column}")


MIGRATIONS: tuple[Callable[[sqlite3.Connection], None], ...] = (_migrate_1, _migrate_2)
"""Migration N+1 takes a store from schema version N to N+1."""
SCHEMA_VERSION = len(MIGRATIONS)


APPLICATION_ID = 0x4364416E
"""`PRAGMA application_id` of our stores ("CdAn")."""


class Ownership(Enum):
    """Whose a SQLite database is, as far as the memory store is concerned."""

    EMPTY = "empty"
    """No objects, no id: a new database, ours to create."""
    OURS = "ours"
    """Carries our application id."""
    ADOPTABLE = "adoptable"
    """Ours from before the application id: our objects for its version, id 0."""
    FOREIGN = "foreign"


def ownership(conn: sqlite3.Connection) -> tuple[Ownership, str]:
    """Whose the database behind `conn` is, and why (for messages). Reads only."""
    app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
    if app_id == APPLICATION_ID:
        return Ownership.OURS, "our application id"
    if app_id != 0:
        return Ownership.FOREIGN, f"application id {app_id:#010x} is another program's"
    version = stored_version(conn)
    objects = _objects(conn)
    if not objects and version == 0:
        return Ownership.EMPTY, "empty"
    if 0 < version <= SCHEMA_VERSION and objects == objects_at(version):
        return Ownership.ADOPTABLE, f"our schema {version}"
    strangers = sorted(name for _, name in objects - objects_at(SCHEMA_VERSION))
    shown = ", ".join(strangers[:3]) or f"schema version {version}"
    return Ownership.FOREIGN, f"it holds tables that are not a memory store's: {shown}"


def objects_at(version: int) -> frozenset[tuple[str, str]]:
    """(type, name) of every schema object our migrations create up to `version`."""
    conn = sqlite3.connect(":memory:")
    try:
        for migrate in MIGRATIONS[:version]:
            migrate(conn)
        return _objects(conn)
    finally:
        conn.close()


def _objects(conn: sqlite3.Connection) -> frozenset[tuple[str, str]]:
    """(type, name) of the schema objects, leaving out SQLite's own (`sqlite_*`)."""
    rows = conn.execute(
        "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    )
    return frozenset((str(kind), str(name)) for kind, name in rows)


def stored_version(conn: sqlite3.Connection) -> int:
    """The schema version a store is at (0 for a new file)."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def upgrade(conn: sqlite3.Connection) -> None:
    """Migrate to `SCHEMA_VERSION` and stamp our application id, inside the
    caller's write transaction.

    Reads the version under the lock, so a store another process migrated
    meanwhile is left alone.
    """
    for number in range(stored_version(conn), SCHEMA_VERSION):
        MIGRATIONS[number](conn)
        conn.execute(f"PRAGMA user_version = {number + 1}")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
