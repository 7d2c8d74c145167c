"""The two tables of a memory store, described once for SQLite and PostgreSQL.

`memories` holds a row per memory, `refs` a row per anchor (its memory's ID
and its place among the memory's anchors, then the anchor). Both stores keep
these columns; what is a store's own goes around them in its schema module:
the SQL type of each kind of column (`definitions`), the keys, the full-text
index, and the repository a PostgreSQL row belongs to (`memory.schema`,
`memory.pg_schema`). The row codec (`memory.rows`) reads and writes them in
the order given here.

A store's first migration creates the tables from these columns, so a
column added later is not added to these tuples but to one of its own,
which each store's next migration adds (as `CHECK_COLUMNS` was, in SQLite's
migration 2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

ColumnKind = Literal["text", "integer", "bigint", "boolean"]


@dataclass(frozen=True)
class Column:
    """A column of a memory table: its name, its kind, whether it may be NULL."""

    name: str
    kind: ColumnKind
    required: bool = False


MEMORY_COLUMNS = (
    Column("id", "text", True),
    Column("text", "text", True),
    Column("kind", "text", True),
    Column("tags", "text", True),  # a JSON array
    Column("origin", "text", True),
    Column("status", "text", True),
    Column("created_at", "text", True),
    Column("last_used_at", "text"),
    Column("last_verified_at", "text"),
    Column("superseded_by", "text"),
)
"""A memory, as the row codec writes and reads it."""

CHECK_COLUMNS = (Column("checked_commit", "text"), Column("checked_time", "bigint"))
"""The commit a stored status was checked at (its SHA and time): the newest check wins."""

REF_KEY = (Column("memory_id", "text", True), Column("position", "integer", True))
"""Which memory an anchor belongs to, and its place among that memory's anchors."""

REF_COLUMNS = (
    Column("type", "text", True),
    Column("path", "text", True),
    Column("symbol", "text"),
    Column("ref_start", "integer"),
    Column("ref_end", "integer"),
    Column("start_line", "integer"),
    Column("end_line", "integer"),
    Column("container", "text", True),  # a JSON array
    Column("commit_sha", "text"),
    Column("branch", "text"),
    Column("dirty", "boolean", True),
    Column("content_hash", "text", True),
    Column("fingerprint", "text", True),
    Column("body_fingerprint", "text"),
    Column("file_hash", "text", True),
    Column("text", "text", True),
    Column("truncated", "boolean", True),
)
"""An anchor, as the row codec writes and reads it."""


def names(columns: Iterable[Column]) -> tuple[str, ...]:
    """The columns' names, in order."""
    return tuple(column.name for column in columns)


def definitions(columns: Iterable[Column], types: Mapping[ColumnKind, str]) -> list[str]:
    """`name TYPE [NOT NULL]` for each column, in a dialect whose type for each kind of
    column is `types`."""
    return [f"{c.name} {types[c.kind]}{' NOT NULL' if c.required else ''}" for c in columns]


def create_table(name: str, parts: Iterable[str]) -> str:
    """`CREATE TABLE name (...)` of column definitions and table constraints."""
    return f"CREATE TABLE {name} (\n    " + ",\n    ".join(parts) + "\n)"
