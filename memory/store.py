"""The memory store: SQLite in WAL mode, one transaction per write.

Several processes (the MCP server, a CLI) may write at once: every write
takes the write lock up front (`BEGIN IMMEDIATE`) and waits for it
(`busy_timeout`), so nobody's rows are lost; a process killed mid-write
leaves only whole transactions behind. The schema carries a version
(`PRAGMA user_version`) and is migrated forward on open; a store written by
a newer codeanchor is refused rather than guessed at (the schema and its
migrations: `memory.schema`).

A store path may name anything (`--store` is input): a file that is not a
SQLite database, a truncated one, a database of another program, a
directory, a kernel file under /proc. Each is refused with a
MemoryStoreError before anything is written, and a store opened for reading
(`readonly`) changes nothing on disk, ours or not.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path

import orjson

from disk.statedir import STATE_DIR
from memory.errors import MemoryInputError, MemoryStoreError
from memory.git import CommitStamp
from memory.model import Anchor, Memory, MemoryStatus
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
from memory.schema import SCHEMA_VERSION, Ownership, ownership, stored_version, upgrade
from memory.storefile import NEW_FILE_HINT, STORE_NAME, foreign_store, inspect_store_file

BUSY_TIMEOUT_MS = 30_000


def default_store_path(root: Path) -> Path:
    """`<root>/.codeanchor/memory.db` (where links are refused: see `disk.statedir`)."""
    return root / STATE_DIR / STORE_NAME


class MemoryStore:
    """The memories of one workspace, in one SQLite file.

    `readonly` opens it for reading: nothing on disk changes (a missing or
    empty file reads as an empty store) until the first write, which opens
    it for writing.
    """

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

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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

    # -- writes ---------------------------------------------------------------

    def add(self, memories: Sequence[Memory]) -> None:
        """Insert memories, all or none."""
        with self.transaction() as conn:
            insert(conn, memories)

    def touch(self, ids: Collection[str], when: str) -> None:
        """Record that memories were read (last_used_at only)."""
        if ids:
            with self.transaction() as conn:
                conn.executemany(
                    "UPDATE memories SET last_used_at = ? WHERE id = ?", [(when, i) for i in ids]
                )

    def set_statuses(
        self, statuses: Mapping[str, MemoryStatus], checked: CommitStamp | None = None
    ) -> None:
        """Store statuses a check at commit `checked` derived.

        Only memories still active, stale or historical change: a status set
        by hand meanwhile (another process retiring one) is never overwritten,
        nor one checked at a newer commit (a clone on an older branch sharing
        the store).
        """
        if statuses:
            sha, time = (checked.sha, checked.time) if checked else (None, None)
            with self.transaction() as conn:
                conn.executemany(
                    "UPDATE memories SET status = ?, checked_commit = ?, checked_time = ? "
                    "WHERE id = ? AND status IN ('active', 'stale', 'historical') "
                    "AND (? IS NULL OR checked_time IS NULL OR checked_time <= ?)",
                    [(s, sha, time, i, time, time) for i, s in statuses.items()],
                )

    def reanchor(self, anchors: Mapping[str, Sequence[Anchor]], when: str) -> None:
        """Replace memories' references and mark them verified now, all or none.

        Their status becomes active, unless superseded or retired (those stay).
        """
        with self.transaction() as conn:
            for memory_id, new in anchors.items():
                self._require(conn, memory_id)
                conn.execute("DELETE FROM refs WHERE memory_id = ?", (memory_id,))
                _insert_anchors(conn, memory_id, new)
                conn.execute(
                    "UPDATE memories SET last_verified_at = ?, status = CASE WHEN status IN "
                    "('superseded', 'retired') THEN status ELSE 'active' END WHERE id = ?",
                    (when, memory_id),
                )

    def supersede(self, old_id: str, new: Memory) -> None:
        """Insert `new` and mark `old_id` superseded by it, together."""
        with self.transaction() as conn:
            self._require(conn, old_id)
            insert(conn, [new])
            conn.execute(
                "UPDATE memories SET status = 'superseded', superseded_by = ? WHERE id = ?",
                (new.id, old_id),
            )

    def set_status(self, memory_id: str, status: MemoryStatus) -> None:
        """Set a status by hand (retire, draft)."""
        with self.transaction() as conn:
            self._require(conn, memory_id)
            conn.execute("UPDATE memories SET status = ? WHERE id = ?", (status, memory_id))

    # -- reads ----------------------------------------------------------------

    def get(self, memory_id: str) -> Memory:
        """One memory; raises UnknownMemoryError (with the nearest IDs) when absent."""
        return self.get_many([memory_id])[0]

    def get_many(self, ids: Sequence[str]) -> list[Memory]:
        """Memories in the order asked; raises UnknownMemoryError naming the first unknown ID."""
        found = self._load(
            "WHERE m.id IN (SELECT value FROM json_each(?))", (orjson.dumps(list(ids)).decode(),)
        )
        return in_order(ids, found, self.ids)

    def select(
        self, statuses: Collection[MemoryStatus] | None = None, kind: str | None = None
    ) -> list[Memory]:
        """Memories in creation order, optionally filtered by status and kind."""
        clauses: list[str] = []
        params: list[str] = []
        if statuses is not None:
            clauses.append(f"m.status IN ({','.join('?' * len(statuses))})")
            params.extend(statuses)
        if kind is not None:
            clauses.append("m.kind = ?")
            params.append(kind)
        where = f"WHERE {' AND '.join(clauses)}" if clauses else ""
        return self._load(where, tuple(params))

    def search(self, query: str, limit: int) -> list[tuple[Memory, float]]:
        """Full-text matches with their BM25 relevance (higher is better)."""
        match = " OR ".join('"' + w.replace('"', "") + '"' for w in search_words(query))
        with self._failing():
            rows = self._conn.execute(
                "SELECT m.id, -bm25(memories_fts) FROM memories_fts JOIN memories m "
                "ON m.seq = memories_fts.rowid WHERE memories_fts MATCH ? "
                "ORDER BY bm25(memories_fts) LIMIT ?",
                (match, limit),
            ).fetchall()
        scores = {str(r[0]): float(r[1]) for r in rows}
        memories = self.get_many(list(scores))
        return [(m, scores[m.id]) for m in memories]

    def count(self) -> int:
        """How many memories there are."""
        with self._failing():
            return int(self._conn.execute("SELECT count(*) FROM memories").fetchone()[0])

    def ids(self) -> list[str]:
        """Every memory ID."""
        with self._failing():
            rows = self._conn.execute("SELECT id FROM memories ORDER BY seq").fetchall()
        return [str(r[0]) for r in rows]

    def _require(self, conn: sqlite3.Connection, memory_id: str) -> None:
        if conn.execute("SELECT 1 FROM memories WHERE id = ?", (memory_id,)).fetchone() is None:
            raise unknown_memory(memory_id, self.ids())

    def _load(self, where: str, params: tuple[str, ...]) -> list[Memory]:
        with self._failing():
            return self._load_rows(where, params)

    def _load_rows(self, where: str, params: tuple[str, ...]) -> list[Memory]:
        rows = self._conn.execute(
            f"SELECT {columns(MEMORY_COLUMNS, 'm')} FROM memories m {where} ORDER BY m.seq",
            params,
        ).fetchall()
        anchors: dict[str, list[Anchor]] = {str(r[0]): [] for r in rows}
        ref_rows = self._conn.execute(
            f"SELECT r.memory_id, {columns(REF_COLUMNS, 'r')} FROM refs r "
            f"JOIN memories m ON m.id = r.memory_id {where} ORDER BY r.memory_id, r.position",
            params,
        )
        for r in ref_rows:
            anchors[str(r[0])].append(anchor_from_row(r[1:]))
        return [memory_from_row(r, anchors[str(r[0])]) for r in rows]


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


def insert(conn: sqlite3.Connection, memories: Iterable[Memory]) -> None:
    """Insert memories inside the caller's transaction (see `MemoryStore.transaction`)."""
    for m in memories:
        conn.execute(
            f"INSERT INTO memories ({', '.join(MEMORY_COLUMNS)}) "
            f"VALUES ({','.join('?' * len(MEMORY_COLUMNS))})",
            memory_values(m),
        )
        _insert_anchors(conn, m.id, m.anchors)


def _insert_anchors(conn: sqlite3.Connection, memory_id: str, anchors: Sequence[Anchor]) -> None:
    conn.executemany(
        f"INSERT INTO refs (memory_id, position, {', '.join(REF_COLUMNS)}) "
        f"VALUES ({','.join('?' * (len(REF_COLUMNS) + 2))})",
        [(memory_id, position, *anchor_values(a)) for position, a in enumerate(anchors)],
    )
