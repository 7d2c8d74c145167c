"""The operations both memory stores run, written once in SQL both dialects speak.

`SqlMemoryStore` implements `memory.stores.MemoryBackend` over the tables of
`memory.tables`, with the row codec of `memory.rows`. A store supplies only
what is its own (SQLite: `memory.store`; PostgreSQL: `memory.pg_store`):

    _mark          its driver's parameter mark (`?`, `%s`)
    _scope         the column values every row it sees carries (PostgreSQL's
                   repository); none in SQLite
    _row_lock      what locks a row it is about to change (PostgreSQL's
                   `FOR UPDATE`; SQLite holds the write lock from the start)
    _duplicate     the driver's error for a memory ID stored already
    transaction()  its connection's write transaction
    _read()        one read, its driver's errors turned into MemoryStoreErrors
    _one_of()      how it matches a column against a list of values
    _ranked()      its full-text search
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Collection, Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from types import MappingProxyType
from typing import Any, Protocol, Self

from memory.errors import MemoryInputError
from memory.git import CommitStamp
from memory.model import Anchor, Memory, MemoryStatus
from memory.rows import (
    anchor_from_row,
    anchor_values,
    in_order,
    memory_from_row,
    memory_values,
    search_words,
    unknown_memory,
)
from memory.tables import MEMORY_COLUMNS, REF_COLUMNS, REF_KEY, names

_MEMORY = names(MEMORY_COLUMNS)
_REF = names(REF_KEY + REF_COLUMNS)


class Rows(Protocol):
    """What a statement returns: its rows."""

    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...


class Statements(Protocol):
    """Where a store runs statements: a sqlite3 connection, a psycopg cursor."""

    def execute(self, sql: str, params: Sequence[Any], /) -> Rows: ...
    def executemany(self, sql: str, params: Iterable[Sequence[Any]], /) -> object: ...


class SqlMemoryStore(ABC):
    """The memory operations in SQL; see the module docstring for what a store supplies."""

    _mark: str
    _scope: Mapping[str, object] = MappingProxyType({})
    _row_lock = ""
    _duplicate: tuple[type[Exception], ...] = ()

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""

    @abstractmethod
    def transaction(self) -> AbstractContextManager[Statements]:
        """One write transaction: committed whole, or rolled back whole."""

    @abstractmethod
    def _read(self, sql: str, params: Sequence[object]) -> list[Any]:
        """The rows of one query."""

    @abstractmethod
    def _one_of(self, column: str, values: Collection[str]) -> tuple[str, object]:
        """A condition that `column` is one of `values`, and its parameter."""

    @abstractmethod
    def _ranked(self, words: Sequence[str], limit: int) -> list[Any]:
        """(memory ID, relevance) of the best `limit` full-text matches of any of `words`,
        best first."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writes ---------------------------------------------------------------

    def add(self, memories: Sequence[Memory]) -> None:
        """Insert memories, all or none."""
        with self.transaction() as cur:
            self.insert(cur, memories)

    def touch(self, ids: Collection[str], when: str) -> None:
        """Record that memories were read (last_used_at only)."""
        if ids:
            one_of, listed = self._one_of("id", ids)
            with self.transaction() as cur:
                cur.execute(
                    f"UPDATE memories SET last_used_at = {self._mark} {self._where('', one_of)}",
                    (when, *self._at(listed)),
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
            p = self._mark
            with self.transaction() as cur:
                cur.executemany(
                    f"UPDATE memories SET status = {p}, checked_commit = {p}, checked_time = {p} "
                    + self._where(
                        "",
                        f"id = {p}",
                        "status IN ('active', 'stale', 'historical')",
                        f"(CAST({p} AS BIGINT) IS NULL OR checked_time IS NULL "
                        f"OR checked_time <= {p})",
                    ),
                    [(s, sha, time, *self._at(i, time, time)) for i, s in statuses.items()],
                )

    def reanchor(self, anchors: Mapping[str, Sequence[Anchor]], when: str) -> None:
        """Replace memories' references and mark them verified now, all or none.

        Their status becomes active, unless superseded or retired (those stay).
        """
        p = self._mark
        with self.transaction() as cur:
            for memory_id, new in anchors.items():
                self._require(cur, memory_id)
                cur.execute(
                    f"DELETE FROM refs {self._where('', f'memory_id = {p}')}",
                    self._at(memory_id),
                )
                self._insert_anchors(cur, memory_id, new)
                self._update(
                    cur,
                    memory_id,
                    f"last_verified_at = {p}, status = CASE WHEN status IN "
                    "('superseded', 'retired') THEN status ELSE 'active' END",
                    when,
                )

    def supersede(self, old_id: str, new: Memory) -> None:
        """Insert `new` and mark `old_id` superseded by it, together."""
        with self.transaction() as cur:
            self._require(cur, old_id)
            self.insert(cur, [new])
            self._update(
                cur, old_id, f"status = 'superseded', superseded_by = {self._mark}", new.id
            )

    def set_status(self, memory_id: str, status: MemoryStatus) -> None:
        """Set a status by hand (retire, draft)."""
        with self.transaction() as cur:
            self._require(cur, memory_id)
            self._update(cur, memory_id, f"status = {self._mark}", status)

    def insert(self, cur: Statements, memories: Iterable[Memory]) -> None:
        """Insert memories inside the caller's transaction (see `transaction`)."""
        scope = tuple(self._scope)
        for m in memories:
            try:
                cur.execute(
                    f"INSERT INTO memories ({', '.join(scope + _MEMORY)}) "
                    f"VALUES ({self._marks(len(scope) + len(_MEMORY))})",
                    self._at(*memory_values(m)),
                )
            except self._duplicate as exc:
                raise MemoryInputError(f"a memory with ID {m.id!r} exists already") from exc
            self._insert_anchors(cur, m.id, m.anchors)

    # -- reads ----------------------------------------------------------------

    def get(self, memory_id: str) -> Memory:
        """One memory; raises UnknownMemoryError (with the nearest IDs) when absent."""
        return self.get_many([memory_id])[0]

    def get_many(self, ids: Sequence[str]) -> list[Memory]:
        """Memories in the order asked; raises UnknownMemoryError naming the first unknown ID."""
        one_of, listed = self._one_of("m.id", ids)
        return in_order(ids, self._load([one_of], [listed]), self.ids)

    def select(
        self, statuses: Collection[MemoryStatus] | None = None, kind: str | None = None
    ) -> list[Memory]:
        """Memories in creation order, optionally filtered by status and kind."""
        conditions: list[str] = []
        params: list[object] = []
        if statuses is not None:
            one_of, listed = self._one_of("m.status", statuses)
            conditions.append(one_of)
            params.append(listed)
        if kind is not None:
            conditions.append(f"m.kind = {self._mark}")
            params.append(kind)
        return self._load(conditions, params)

    def search(self, query: str, limit: int) -> list[tuple[Memory, float]]:
        """Full-text matches with their relevance (higher is better)."""
        scores = {str(r[0]): float(r[1]) for r in self._ranked(search_words(query), limit)}
        return [(m, scores[m.id]) for m in self.get_many(list(scores))]

    def count(self) -> int:
        """How many memories there are."""
        rows = self._read(f"SELECT count(*) FROM memories {self._where('')}", self._at())
        return int(rows[0][0])

    def ids(self) -> list[str]:
        """Every memory ID."""
        rows = self._read(f"SELECT id FROM memories {self._where('')} ORDER BY seq", self._at())
        return [str(r[0]) for r in rows]

    # -- SQL both dialects speak ----------------------------------------------

    def _marks(self, count: int) -> str:
        return ", ".join([self._mark] * count)

    def _at(self, *params: object) -> tuple[object, ...]:
        """The scope's values, then `params`."""
        return (*self._scope.values(), *params)

    def _where(self, alias: str, *conditions: str) -> str:
        """`WHERE` the scope's conditions on the table `alias` (with its dot) and
        `conditions` (parameters: `_at`), or nothing when there are none."""
        scoped = [f"{alias}{column} = {self._mark}" for column in self._scope]
        return f"WHERE {' AND '.join(scoped + list(conditions))}" if scoped or conditions else ""

    def _require(self, cur: Statements, memory_id: str) -> None:
        found = cur.execute(
            f"SELECT 1 FROM memories {self._where('', f'id = {self._mark}')}{self._row_lock}",
            self._at(memory_id),
        ).fetchone()
        if found is None:
            raise unknown_memory(memory_id, self.ids())

    def _update(self, cur: Statements, memory_id: str, assignments: str, value: object) -> None:
        """Set `assignments` (with one parameter, `value`) on one memory."""
        cur.execute(
            f"UPDATE memories SET {assignments} {self._where('', f'id = {self._mark}')}",
            (value, *self._at(memory_id)),
        )

    def _insert_anchors(self, cur: Statements, memory_id: str, anchors: Sequence[Anchor]) -> None:
        scope = tuple(self._scope)
        cur.executemany(
            f"INSERT INTO refs ({', '.join(scope + _REF)}) "
            f"VALUES ({self._marks(len(scope) + len(_REF))})",
            [
                self._at(memory_id, position, *anchor_values(a))
                for position, a in enumerate(anchors)
            ],
        )

    def _load(self, conditions: Sequence[str], params: Sequence[object]) -> list[Memory]:
        """The memories that meet `conditions` (on `m`, with `params`), in creation order."""
        where = self._where("m.", *conditions)
        rows = self._read(
            f"SELECT {_columns('m', _MEMORY)} FROM memories m {where} ORDER BY m.seq",
            self._at(*params),
        )
        anchors: dict[str, list[Anchor]] = {str(r[0]): [] for r in rows}
        joined = " AND ".join([*(f"m.{c} = r.{c}" for c in self._scope), "m.id = r.memory_id"])
        for r in self._read(
            f"SELECT r.memory_id, {_columns('r', names(REF_COLUMNS))} FROM refs r "
            f"JOIN memories m ON {joined} {where} "
            "ORDER BY r.memory_id, r.position",
            self._at(*params),
        ):
            anchors[str(r[0])].append(anchor_from_row(r[1:]))
        return [memory_from_row(r, anchors[str(r[0])]) for r in rows]


def _columns(alias: str, columns: Sequence[str]) -> str:
    """`alias.a, alias.b, ...` for a SELECT."""
    return ", ".join(f"{alias}.{name}" for name in columns)
