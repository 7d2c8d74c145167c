"""The memory store: SQLite in WAL mode, one transaction per write.

Several processes (the MCP server, a CLI) may write at once: every write
takes the write lock up front (`BEGIN IMMEDIATE`) and waits for it
(`busy_timeout`), so nobody's rows are lost; a process killed mid-write
leaves only whole transactions behind. The schema carries a version
(`PRAGMA user_version`) and is migrated forward on open; a store written by
a newer codeanchor is refused rather than guessed at (the schema and its
migrations: `memory.schema`).
"""

from __future__ import annotations

import difflib
import re
import sqlite3
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import cast

import orjson

from memory.errors import MemoryInputError, UnknownMemoryError
from memory.model import Anchor, Memory, MemoryStatus, Origin, RefSpec, RefType
from memory.schema import SCHEMA_VERSION, stored_version, upgrade

BUSY_TIMEOUT_MS = 30_000
_WORD = re.compile(r"\w+", re.UNICODE)


def _make_dir(directory: Path) -> None:
    """Create the store's directory; a new `.codeanchor/` keeps itself out of git."""
    if directory.exists():
        return
    directory.mkdir(parents=True, exist_ok=True)
    if directory.name == ".codeanchor":
        (directory / ".gitignore").write_text("# codeanchor's own files\n*\n")


def default_store_path(root: Path) -> Path:
    """`<root>/.codeanchor/memory.db`."""
    return root / ".codeanchor" / "memory.db"


class MemoryStore:
    """The memories of one workspace, in one SQLite file."""

    def __init__(self, path: Path) -> None:
        if str(path) != ":memory:":
            _make_dir(path.parent)
        self.path = path
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.execute("PRAGMA synchronous = NORMAL")
        self._conn.execute("PRAGMA foreign_keys = ON")
        self._migrate()

    def close(self) -> None:
        """Close the connection."""
        self._conn.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _migrate(self) -> None:
        version = stored_version(self._conn)
        if version > SCHEMA_VERSION:
            raise MemoryInputError(
                f"{self.path}: memory store schema {version} is newer than this "
                f"codeanchor understands ({SCHEMA_VERSION})",
                hint="upgrade codeanchor, or point --store elsewhere",
            )
        if version == SCHEMA_VERSION:
            return
        with self.transaction() as conn:
            upgrade(conn)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction holding the write lock from the start."""
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

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

    def set_statuses(self, statuses: Mapping[str, MemoryStatus]) -> None:
        """Store statuses a check derived.

        Only memories still active, stale or historical change: a status set
        by hand meanwhile (another process retiring one) is never overwritten.
        """
        if statuses:
            with self.transaction() as conn:
                conn.executemany(
                    "UPDATE memories SET status = ? WHERE id = ? "
                    "AND status IN ('active', 'stale', 'historical')",
                    [(s, i) for i, s in statuses.items()],
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
        found = self.get_many([memory_id])
        return found[0]

    def get_many(self, ids: Sequence[str]) -> list[Memory]:
        """Memories in the order asked; raises UnknownMemoryError naming the first unknown ID."""
        by_id = {
            m.id: m
            for m in self._load(
                "WHERE m.id IN (SELECT value FROM json_each(?))",
                (orjson.dumps(list(ids)).decode(),),
            )
        }
        for memory_id in ids:
            if memory_id not in by_id:
                self._unknown(memory_id)
        return [by_id[i] for i in ids]

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
        words = _WORD.findall(query)
        if not words:
            raise MemoryInputError(f"query {query!r} has no words to search for")
        match = " OR ".join('"' + w.replace('"', "") + '"' for w in words)
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
        return int(self._conn.execute("SELECT count(*) FROM memories").fetchone()[0])

    def ids(self) -> list[str]:
        """Every memory ID."""
        return [str(r[0]) for r in self._conn.execute("SELECT id FROM memories ORDER BY seq")]

    def _require(self, conn: sqlite3.Connection, memory_id: str) -> None:
        if conn.execute("SELECT 1 FROM memories WHERE id = ?", (memory_id,)).fetchone() is None:
            self._unknown(memory_id)

    def _unknown(self, memory_id: str) -> None:
        near = difflib.get_close_matches(memory_id, self.ids(), n=3, cutoff=0.5)
        raise UnknownMemoryError(f"no memory with ID {memory_id!r}", suggestions=near)

    def _load(self, where: str, params: tuple[str, ...]) -> list[Memory]:
        rows = self._conn.execute(
            "SELECT m.id, m.text, m.kind, m.tags, m.origin, m.status, m.created_at, "
            f"m.last_used_at, m.last_verified_at, m.superseded_by FROM memories m {where} "
            "ORDER BY m.seq",
            params,
        ).fetchall()
        anchors: dict[str, list[Anchor]] = {str(r[0]): [] for r in rows}
        ref_rows = self._conn.execute(
            "SELECT r.memory_id, r.type, r.path, r.symbol, r.ref_start, r.ref_end, "
            "r.start_line, r.end_line, r.container, r.commit_sha, r.branch, r.dirty, "
            "r.content_hash, r.fingerprint, r.body_fingerprint, r.file_hash, r.text, "
            f"r.truncated FROM refs r JOIN memories m ON m.id = r.memory_id {where} "
            "ORDER BY r.memory_id, r.position",
            params,
        )
        for r in ref_rows:
            anchors[str(r[0])].append(_anchor_from_row(r))
        return [
            Memory(
                id=str(r[0]),
                text=str(r[1]),
                kind=str(r[2]),
                tags=tuple(orjson.loads(r[3])),
                origin=cast(Origin, r[4]),
                status=cast(MemoryStatus, r[5]),
                created_at=str(r[6]),
                anchors=tuple(anchors[str(r[0])]),
                last_used_at=r[7],
                last_verified_at=r[8],
                superseded_by=r[9],
            )
            for r in rows
        ]


def insert(conn: sqlite3.Connection, memories: Iterable[Memory]) -> None:
    """Insert memories inside the caller's transaction (see `MemoryStore.transaction`)."""
    for m in memories:
        conn.execute(
            "INSERT INTO memories (id, text, kind, tags, origin, status, created_at, "
            "last_used_at, last_verified_at, superseded_by) VALUES (?,?,?,?,?,?,?,?,?,?)",
            (
                m.id,
                m.text,
                m.kind,
                orjson.dumps(list(m.tags)).decode(),
                m.origin,
                m.status,
                m.created_at,
                m.last_used_at,
                m.last_verified_at,
                m.superseded_by,
            ),
        )
        _insert_anchors(conn, m.id, m.anchors)


def _insert_anchors(conn: sqlite3.Connection, memory_id: str, anchors: Sequence[Anchor]) -> None:
    conn.executemany(
        "INSERT INTO refs (memory_id, position, type, path, symbol, ref_start, ref_end, "
        "start_line, end_line, container, commit_sha, branch, dirty, content_hash, "
        "fingerprint, body_fingerprint, file_hash, text, truncated) "
        "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        [
            (
                memory_id,
                position,
                a.spec.type,
                a.spec.path,
                a.spec.symbol,
                a.spec.start_line,
                a.spec.end_line,
                a.start_line,
                a.end_line,
                orjson.dumps(list(a.container)).decode(),
                a.commit,
                a.branch,
                int(a.dirty),
                a.content_hash,
                a.fingerprint,
                a.body_fingerprint,
                a.file_hash,
                a.text,
                int(a.truncated),
            )
            for position, a in enumerate(anchors)
        ],
    )


def _anchor_from_row(r: sqlite3.Row | tuple[object, ...]) -> Anchor:
    spec = RefSpec(
        type=cast(RefType, r[1]),
        path=str(r[2]),
        symbol=cast("str | None", r[3]),
        start_line=cast("int | None", r[4]),
        end_line=cast("int | None", r[5]),
    )
    return Anchor(
        spec=spec,
        start_line=cast("int | None", r[6]),
        end_line=cast("int | None", r[7]),
        container=() if r[8] == "[]" else tuple(orjson.loads(cast(str, r[8]))),
        commit=cast("str | None", r[9]),
        branch=cast("str | None", r[10]),
        dirty=bool(r[11]),
        content_hash=str(r[12]),
        fingerprint=str(r[13]),
        body_fingerprint=cast("str | None", r[14]),
        file_hash=str(r[15]),
        text=str(r[16]),
        truncated=bool(r[17]),
    )
