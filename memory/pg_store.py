"""The memory store on PostgreSQL: one database shared by every clone of a team.

The same operations (`memory.sql_store`) and guarantees as the SQLite store
(`memory.store`): every write is one transaction, all or nothing. Rows carry the repository identity
(`memory.identity`), so a database holds many repositories and each store
object sees only its own. Full-text recall uses a `tsvector` kept by the
database and `ts_rank_cd`, fed to the same freshness ranking as SQLite's BM25.
Schema and migrations: `memory.pg_schema`.

Connection problems (wrong password, unreachable host, missing database, a
server restarted mid-write) become one-line `MemoryStoreError`s that say what
to fix and never show the password; a write the server did not commit is
rolled back whole.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from disk.database import DatabaseError, connect, first_line, redact
from memory.errors import MemoryStoreError
from memory.pg_schema import upgrade
from memory.sql_store import SqlMemoryStore


class PgMemoryStore(SqlMemoryStore):
    """The memories of one repository (`repo_id`) in a PostgreSQL database."""

    _mark = "%s"
    _row_lock = " FOR UPDATE"
    _duplicate = (pg_errors.UniqueViolation,)

    def __init__(self, dsn: str, repo_id: str) -> None:
        self.path = redact(dsn)
        self.repo_id = repo_id
        self._scope = {"repo_id": repo_id}
        self._dsn = dsn
        self._conn = _connect(dsn)
        with self.transaction() as cur:
            upgrade(cur)

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()

    @contextmanager
    def transaction(self) -> Iterator[psycopg.Cursor[Any]]:
        """One transaction: committed whole, or rolled back whole.

        A connection the server dropped (a restart) is replaced on the next
        call; the write that was under way fails with a clear error instead of
        being retried, since it may or may not have been committed.
        """
        if self._conn.closed or self._conn.broken:
            self._conn = _connect(self._dsn)
        try:
            with self._conn.transaction(), self._conn.cursor() as cur:
                yield cur
        except psycopg.OperationalError as exc:
            raise MemoryStoreError(
                f"{self.path}: the database connection failed mid-write; nothing of this "
                f"write was kept ({first_line(exc)})",
                hint="retry; check that the PostgreSQL server is running",
            ) from exc

    def _read(self, sql: str, params: Sequence[object]) -> list[Any]:
        with self.transaction() as cur:
            return cur.execute(sql, params).fetchall()

    def _one_of(self, column: str, values: Collection[str]) -> tuple[str, object]:
        return f"{column} = ANY(%s)", list(values)

    def _ranked(self, words: Sequence[str], limit: int) -> list[Any]:
        """`ts_rank_cd` of the `tsvector` the database keeps. Each word also matches
        the words it begins (`discount` finds `discounts`)."""
        ts_query = " | ".join(f"{w.lower()}:*" for w in words)
        return self._read(
            "SELECT id, ts_rank_cd(search, to_tsquery('simple', %s)) AS rank FROM memories "
            "WHERE repo_id = %s AND search @@ to_tsquery('simple', %s) "
            "ORDER BY rank DESC, seq LIMIT %s",
            (ts_query, self.repo_id, ts_query, limit),
        )


def _connect(dsn: str) -> psycopg.Connection[Any]:
    try:
        return connect(dsn, "the memory store")
    except DatabaseError as exc:
        raise MemoryStoreError(exc.message, hint=exc.hint) from exc
