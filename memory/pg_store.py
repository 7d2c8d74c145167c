"""The memory store on PostgreSQL: one database shared by every clone of a team.

Same operations and guarantees as the SQLite store (`memory.store`): every
write is one transaction, all or nothing. Rows carry the repository identity
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

from collections.abc import Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from memory.errors import MemoryInputError, MemoryStoreError
from memory.git import CommitStamp
from memory.model import Anchor, Memory, MemoryStatus
from memory.pg_schema import upgrade
from memory.rows import (
    MEMORY_COLUMNS,
    REF_COLUMNS,
    anchor_from_row,
    anchor_values,
    columns,
    in_order,
    memory_from_row,
    memory_values,
    search_words,
    unknown_memory,
)
from memory.stores import redact

CONNECT_TIMEOUT_S = 10


class PgMemoryStore:
    """The memories of one repository (`repo_id`) in a PostgreSQL database."""

    def __init__(self, dsn: str, repo_id: str) -> None:
        self.path = redact(dsn)
        self.repo_id = repo_id
        self._dsn = dsn
        self._conn = _connect(dsn)
        with self.transaction() as cur:
            upgrade(cur)

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()

    def __enter__(self) -> PgMemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
                f"write was kept ({_first_line(exc)})",
                hint="retry; check that the PostgreSQL server is running",
            ) from exc

    # -- writes ---------------------------------------------------------------

    def add(self, memories: Sequence[Memory]) -> None:
        """Insert memories, all or none."""
        with self.transaction() as cur:
            self._insert(cur, memories)

    def touch(self, ids: Collection[str], when: str) -> None:
        """Record that memories were read (last_used_at only)."""
        if ids:
            with self.transaction() as cur:
                cur.execute(
                    "UPDATE memories SET last_used_at = %s WHERE repo_id = %s AND id = ANY(%s)",
                    (when, self.repo_id, list(ids)),
                )

    def set_statuses(
        self, statuses: Mapping[str, MemoryStatus], checked: CommitStamp | None = None
    ) -> None:
        """Store statuses a check at commit `checked` derived; never over a status set by
        hand meanwhile, nor over one a clone checked at a newer commit."""
        if statuses:
            sha, time = (checked.sha, checked.time) if checked else (None, None)
            with self.transaction() as cur:
                cur.executemany(
                    "UPDATE memories SET status = %s, checked_commit = %s, checked_time = %s "
                    "WHERE repo_id = %s AND id = %s "
                    "AND status IN ('active', 'stale', 'historical') "
                    "AND (%s::bigint IS NULL OR checked_time IS NULL OR checked_time <= %s)",
                    [(s, sha, time, self.repo_id, i, time, time) for i, s in statuses.items()],
                )

    def reanchor(self, anchors: Mapping[str, Sequence[Anchor]], when: str) -> None:
        """Replace memories' references and mark them verified now, all or none."""
        with self.transaction() as cur:
            for memory_id, new in anchors.items():
                self._require(cur, memory_id)
                cur.execute(
                    "DELETE FROM refs WHERE repo_id = %s AND memory_id = %s",
                    (self.repo_id, memory_id),
                )
                self._insert_anchors(cur, memory_id, new)
                cur.execute(
                    "UPDATE memories SET last_verified_at = %s, status = CASE WHEN status IN "
                    "('superseded', 'retired') THEN status ELSE 'active' END "
                    "WHERE repo_id = %s AND id = %s",
                    (when, self.repo_id, memory_id),
                )

    def supersede(self, old_id: str, new: Memory) -> None:
        """Insert `new` and mark `old_id` superseded by it, together."""
        with self.transaction() as cur:
            self._require(cur, old_id)
            self._insert(cur, [new])
            cur.execute(
                "UPDATE memories SET status = 'superseded', superseded_by = %s "
                "WHERE repo_id = %s AND id = %s",
                (new.id, self.repo_id, old_id),
            )

    def set_status(self, memory_id: str, status: MemoryStatus) -> None:
        """Set a status by hand (retire, draft)."""
        with self.transaction() as cur:
            self._require(cur, memory_id)
            cur.execute(
                "UPDATE memories SET status = %s WHERE repo_id = %s AND id = %s",
                (status, self.repo_id, memory_id),
            )

    # -- reads ----------------------------------------------------------------

    def get(self, memory_id: str) -> Memory:
        """One memory; raises UnknownMemoryError (with the nearest IDs) when absent."""
        return self.get_many([memory_id])[0]

    def get_many(self, ids: Sequence[str]) -> list[Memory]:
        """Memories in the order asked; raises UnknownMemoryError naming the first unknown."""
        return in_order(ids, self._load("AND m.id = ANY(%s)", (list(ids),)), self.ids)

    def select(
        self, statuses: Collection[MemoryStatus] | None = None, kind: str | None = None
    ) -> list[Memory]:
        """Memories in creation order, optionally filtered by status and kind."""
        clauses, params = "", list[object]()
        if statuses is not None:
            clauses += " AND m.status = ANY(%s)"
            params.append(list(statuses))
        if kind is not None:
            clauses += " AND m.kind = %s"
            params.append(kind)
        return self._load(clauses, tuple(params))

    def search(self, query: str, limit: int) -> list[tuple[Memory, float]]:
        """Full-text matches with their relevance (higher is better)."""
        ts_query = " | ".join(w.lower() for w in search_words(query))
        rows = self._fetch(
            "SELECT id, ts_rank_cd(search, to_tsquery('simple', %s)) AS rank FROM memories "
            "WHERE repo_id = %s AND search @@ to_tsquery('simple', %s) "
            "ORDER BY rank DESC, seq LIMIT %s",
            (ts_query, self.repo_id, ts_query, limit),
        )
        scores = {str(r[0]): float(r[1]) for r in rows}
        return [(m, scores[m.id]) for m in self.get_many(list(scores))]

    def count(self) -> int:
        """How many memories this repository has."""
        rows = self._fetch("SELECT count(*) FROM memories WHERE repo_id = %s", (self.repo_id,))
        return int(rows[0][0])

    def ids(self) -> list[str]:
        """Every memory ID of this repository."""
        rows = self._fetch(
            "SELECT id FROM memories WHERE repo_id = %s ORDER BY seq", (self.repo_id,)
        )
        return [str(r[0]) for r in rows]

    # -- internals ------------------------------------------------------------

    def _fetch(self, sql: str, params: tuple[object, ...]) -> list[tuple[Any, ...]]:
        with self.transaction() as cur:
            cur.execute(sql, params)
            return cur.fetchall()

    def _require(self, cur: psycopg.Cursor[Any], memory_id: str) -> None:
        cur.execute(
            "SELECT 1 FROM memories WHERE repo_id = %s AND id = %s FOR UPDATE",
            (self.repo_id, memory_id),
        )
        if cur.fetchone() is None:
            raise unknown_memory(memory_id, self.ids())

    def _insert(self, cur: psycopg.Cursor[Any], memories: Sequence[Memory]) -> None:
        for m in memories:
            try:
                cur.execute(
                    f"INSERT INTO memories (repo_id, {', '.join(MEMORY_COLUMNS)}) "
                    f"VALUES ({', '.join(['%s'] * (len(MEMORY_COLUMNS) + 1))})",
                    (self.repo_id, *memory_values(m)),
                )
            except pg_errors.UniqueViolation as exc:
                raise MemoryInputError(f"a memory with ID {m.id!r} exists already") from exc
            self._insert_anchors(cur, m.id, m.anchors)

    def _insert_anchors(
        self, cur: psycopg.Cursor[Any], memory_id: str, anchors: Sequence[Anchor]
    ) -> None:
        cur.executemany(
            f"INSERT INTO refs (repo_id, memory_id, position, {', '.join(REF_COLUMNS)}) "
            f"VALUES ({', '.join(['%s'] * (len(REF_COLUMNS) + 3))})",
            [
                (self.repo_id, memory_id, position, *anchor_values(a))
                for position, a in enumerate(anchors)
            ],
        )

    def _load(self, where: str, params: tuple[object, ...]) -> list[Memory]:
        base = (self.repo_id, *params)
        rows = self._fetch(
            f"SELECT {columns(MEMORY_COLUMNS, 'm')} FROM memories m "
            f"WHERE m.repo_id = %s {where} ORDER BY m.seq",
            base,
        )
        anchors: dict[str, list[Anchor]] = {str(r[0]): [] for r in rows}
        for r in self._fetch(
            f"SELECT r.memory_id, {columns(REF_COLUMNS, 'r')} FROM refs r JOIN memories m "
            "ON m.repo_id = r.repo_id AND m.id = r.memory_id "
            f"WHERE m.repo_id = %s {where} ORDER BY r.memory_id, r.position",
            base,
        ):
            anchors[str(r[0])].append(anchor_from_row(r[1:]))
        return [memory_from_row(r, anchors[str(r[0])]) for r in rows]


def _connect(dsn: str) -> psycopg.Connection[Any]:
    shown = redact(dsn)
    try:
        return psycopg.connect(dsn, connect_timeout=CONNECT_TIMEOUT_S, autocommit=True)
    except psycopg.OperationalError as exc:
        raise MemoryStoreError(
            f"{shown}: cannot connect to the memory store: {_why(exc)}", hint=_fix(exc)
        ) from exc
    except psycopg.ProgrammingError as exc:
        raise MemoryStoreError(f"{shown}: not a usable PostgreSQL address ({exc})") from exc


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def _why(exc: psycopg.OperationalError) -> str:
    text = str(exc)
    if "password authentication failed" in text or "no password supplied" in text:
        return "the password was refused"
    if "does not exist" in text and "database" in text:
        return "the database does not exist"
    if "role" in text and "does not exist" in text:
        return "the user (role) does not exist"
    return _first_line(exc).split(": ", 1)[-1]


def _fix(exc: psycopg.OperationalError) -> str:
    text = str(exc)
    if "password" in text:
        return "check the password (DSN, PGPASSWORD or ~/.pgpass)"
    if "does not exist" in text and "database" in text:
        return "create it (createdb NAME) or fix the database name in the DSN"
    return "check the host, port and that the PostgreSQL server is running"
