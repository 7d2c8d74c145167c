"""The map rows a team shares: one table in the team's PostgreSQL database.

One row per extracted content: the extract as map.extraction.snapshot packs it (an
orjson list, zlib-compressed), keyed by the content hash of the exact bytes parsed,
the language, and the recipe (map.extraction.recipe: extractor, grammar, query).
A row holds nothing of a path or a checkout, so one blob at two paths, in two
clones or on two branches is one row. Rows are immutable: written with INSERT ...
ON CONFLICT DO NOTHING (two builders publishing the same row: no error, one row),
never updated. Linking stays per checkout, in its local store (map.store.mapstore).

`TeamStore` implements map.intake.shared.SharedRows. Opening it raises
TeamStoreError (one line, no password); once open, a failure (the server gone
mid-build) never stops a build: the store is no longer used in this process and
`status` says why, while the build goes on with local extraction. A role that may
only read rows reads them and publishes nothing. The table is created by the
first role that may (the database owner), under an advisory lock.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import psycopg
from psycopg import errors as pg_errors

from disk.database import DatabaseError, connect, first_line, redact
from map.errors import TeamStoreError
from map.extraction.recipe import recipe
from map.intake.shared import Publishing, RowKey, SharedOutcome

TABLE = "codeanchor_map_rows"
SNAPSHOTS = "codeanchor_map_snapshots"
"""A linked map per commit (map.store.team_snapshot)."""
_LOCK_KEY = 0x6D617073  # "maps": the advisory lock that serializes creating the table
FETCH_BATCH = 1000
"""Content hashes asked for in one query."""
PUBLISH_BATCH_BYTES = 8 << 20
"""About this many bytes of rows go in one INSERT."""
STATEMENT_TIMEOUT_MS = 120_000
"""A statement the server does not answer in time fails (the store is then dropped)."""

log = logging.getLogger(__name__)

_CREATE = f"""CREATE TABLE IF NOT EXISTS {TABLE} (
    content_hash TEXT NOT NULL,
    language TEXT NOT NULL,
    extractor TEXT NOT NULL,
    grammar TEXT NOT NULL,
    query TEXT NOT NULL,
    extract BYTEA NOT NULL,
    written_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (content_hash, language, extractor, grammar, query)
)"""
_CREATE_SNAPSHOTS = f"""CREATE TABLE IF NOT EXISTS {SNAPSHOTS} (
    commit_id TEXT NOT NULL,
    version TEXT NOT NULL,
    store BYTEA NOT NULL,
    written_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (commit_id, version)
)"""
_FETCH = (
    f"SELECT content_hash, extract FROM {TABLE} WHERE language = %s AND extractor = %s "
    "AND grammar = %s AND query = %s AND content_hash = ANY(%s)"
)
_PUBLISH = (
    f"INSERT INTO {TABLE} (content_hash, language, extractor, grammar, query, extract) "
    "SELECT h, %s, %s, %s, %s, e FROM unnest(%s::text[], %s::bytea[]) AS t(h, e) "
    "ON CONFLICT DO NOTHING"
)


@dataclass(frozen=True)
class TeamStatus:
    """The team store as this process used it: where, whether it is in use (and why
    not), which extracts it takes, and what it gave and took so far."""

    store: str
    in_use: bool
    reason: str | None
    publishing: Publishing
    fetched: int
    extracted: int
    published: int
    refused: int
    snapshot: str | None = None
    """The commit of the linked map this checkout's map started from, if it did."""


class TeamStore:
    """The shared map rows of one PostgreSQL database (see the module docstring)."""

    def __init__(
        self,
        dsn: str,
        connection: psycopg.Connection[Any] | None,
        publishing: Publishing,
        reason: str | None = None,
    ) -> None:
        self.shown = redact(dsn)
        self._conn = connection
        self._publishing: Publishing = publishing
        self._reason = reason
        """Why the store is not used (None: in use)."""
        self._read_only: str | None = None
        """Why nothing is published though `publishing` asks for it."""
        self._counts = {"fetched": 0, "extracted": 0, "published": 0, "refused": 0}
        self.restored: str | None = None
        """The commit of the snapshot the map started from (map.store.team_snapshot)."""

    @classmethod
    def open(cls, dsn: str, publishing: Publishing = "committed") -> TeamStore:
        """The team store at `dsn`, its table made when missing and this role may;
        raises TeamStoreError (one line) when it cannot be used."""
        try:
            conn = connect(dsn, "the team store")
        except DatabaseError as exc:
            raise TeamStoreError(exc.message, exc.hint) from exc
        try:
            conn.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")
            writes = _prepare(conn, redact(dsn))
        except BaseException:
            conn.close()
            raise
        store = cls(dsn, conn, publishing)
        if not writes and publishing != "none":
            store._read_only = "this role may only read rows"
        return store

    @classmethod
    def unusable(cls, dsn: str, reason: str, publishing: Publishing = "committed") -> TeamStore:
        """A store that is not used, and says why (e.g. it could not be opened)."""
        return cls(dsn, None, publishing, reason)

    @property
    def publishing(self) -> Publishing:
        """Which extracts made here the store takes ("none" once it may not take any)."""
        return "none" if self._conn is None or self._read_only else self._publishing

    def fetch(self, keys: Collection[RowKey]) -> dict[RowKey, bytes]:
        """The rows held for `keys` under this codeanchor's recipe; a failure drops the
        store (see `status`) and answers with what was read."""
        found: dict[RowKey, bytes] = {}
        if self._conn is None:
            return found
        try:
            with self._conn.cursor(binary=True) as cur:
                for language, hashes in _by_language(keys).items():
                    extractor, grammar, query = recipe(language)
                    for start in range(0, len(hashes), FETCH_BATCH):
                        batch = hashes[start : start + FETCH_BATCH]
                        cur.execute(_FETCH, (language, extractor, grammar, query, batch))
                        found.update(((h, language), bytes(e)) for h, e in cur.fetchall())
        except psycopg.Error as exc:
            self._drop(f"reading rows failed: {first_line(exc)}")
        return found

    def publish(self, rows: Mapping[RowKey, bytes]) -> int:
        """Add the rows the store lacks (never replacing one); the number added. A role
        that may not insert is remembered and nothing more is tried; any other failure
        drops the store."""
        conn = self._conn
        if self.publishing == "none" or conn is None or not rows:
            return 0
        added = 0
        try:
            for language, hashes in _by_language(rows).items():
                extractor, grammar, query = recipe(language)
                for batch in _batches(hashes, language, rows):
                    extracts = [rows[(digest, language)] for digest in batch]
                    params = (language, extractor, grammar, query, batch, extracts)
                    added += _insert(conn, params)
        except pg_errors.InsufficientPrivilege:
            self._read_only = "this role may only read rows"
        except psycopg.Error as exc:
            self._drop(f"publishing rows failed: {first_line(exc)}")
        self._counts["published"] += added
        return added

    def snapshot(self, commits: Sequence[str], version: str) -> tuple[str, bytes] | None:
        """The linked map of the first of `commits` held for `version` (see
        map.store.team_snapshot), and that commit; None when there is none, or the
        role may not read snapshots. Any other failure drops the store."""
        if self._conn is None or not commits:
            return None
        try:
            found = self._conn.execute(
                f"SELECT commit_id, store FROM {SNAPSHOTS} "
                "WHERE version = %s AND commit_id = ANY(%s)",
                (version, list(commits)),
                binary=True,
            ).fetchall()
        except pg_errors.InsufficientPrivilege:
            log.info("%s: this role may not read snapshots", self.shown)
            return None
        except psycopg.Error as exc:
            self._drop(f"reading a snapshot failed: {first_line(exc)}")
            return None
        held = {commit: bytes(store) for commit, store in found}
        nearest = next((commit for commit in commits if commit in held), None)
        return None if nearest is None else (nearest, held[nearest])

    def put_snapshot(self, commit: str, version: str, packed: bytes) -> bool:
        """Keep `packed` as the linked map of `commit` for `version` unless one is held
        (never replaced); whether it was added. Raises TeamStoreError when the store is
        not in use or refuses it."""
        if self._conn is None:
            raise TeamStoreError(f"{self.shown}: the team store is not in use ({self._reason})")
        try:
            added = self._conn.execute(
                f"INSERT INTO {SNAPSHOTS} (commit_id, version, store) VALUES (%s, %s, %s) "
                "ON CONFLICT DO NOTHING",
                (commit, version, packed),
            ).rowcount
        except pg_errors.InsufficientPrivilege as exc:
            raise TeamStoreError(
                f"{self.shown}: this role may not publish snapshots",
                f"GRANT INSERT ON {SNAPSHOTS} to the role that publishes (CI)",
            ) from exc
        except psycopg.Error as exc:
            raise TeamStoreError(
                f"{self.shown}: publishing the snapshot failed: {first_line(exc)}"
            ) from exc
        return added == 1

    def record(self, outcome: SharedOutcome) -> None:
        """Count what one scan took from the store and extracted itself."""
        self._counts["fetched"] += outcome.fetched
        self._counts["extracted"] += outcome.extracted
        self._counts["refused"] += len(outcome.refused)

    @property
    def failure(self) -> str | None:
        """Why the store is not in use (None: it is)."""
        return self._reason

    def status(self) -> TeamStatus:
        """Where the store is, whether it is in use and what it did (see TeamStatus)."""
        return TeamStatus(
            self.shown,
            self._conn is not None,
            self._reason or self._read_only,
            self.publishing,
            **self._counts,
            snapshot=self.restored,
        )

    def close(self) -> None:
        """Close the connection (the store is no longer used)."""
        if self._conn is not None:
            self._conn.close()

    def _drop(self, why: str) -> None:
        log.warning("%s: the team store is no longer used: %s", self.shown, why)
        self._reason = why
        if self._conn is not None:
            self._conn.close()
            self._conn = None


def _insert(conn: psycopg.Connection[Any], params: tuple[Any, ...]) -> int:
    """One INSERT of a batch, tried again once when the server broke a deadlock between
    two builders (each batch goes in key order, which makes one rare); rows added."""
    for attempt in (1, 2):
        try:
            return conn.execute(_PUBLISH, params).rowcount
        except pg_errors.DeadlockDetected:
            if attempt == 2:
                raise
    return 0


def _prepare(conn: psycopg.Connection[Any], shown: str) -> bool:
    """Make the table when missing (under the lock); whether this role may insert rows.
    Raises TeamStoreError when the table is missing and may not be made, or may not be
    read."""
    try:
        with conn.transaction():
            if not (_exists(conn, TABLE) and _exists(conn, SNAPSHOTS)):
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_LOCK_KEY,))
                conn.execute(_CREATE)
                conn.execute(_CREATE_SNAPSHOTS)
    except pg_errors.InsufficientPrivilege as exc:
        raise TeamStoreError(
            f"{shown}: the team store has no map table yet, and this role may not create it",
            "run `codeanchor map build` once as the database owner, or set "
            '[tool.codeanchor.map] team_store = "off" (docs/team-store.md)',
        ) from exc
    except psycopg.Error as exc:
        raise TeamStoreError(f"{shown}: the team store cannot be used: {first_line(exc)}") from exc
    rights = conn.execute(
        "SELECT has_table_privilege(%s, 'SELECT'), has_table_privilege(%s, 'INSERT')",
        (TABLE, TABLE),
    ).fetchone()
    if rights is None or not rights[0]:
        raise TeamStoreError(
            f"{shown}: this role may not read the team's map rows",
            f"GRANT SELECT ON {TABLE} TO the role, or set [tool.codeanchor.map] "
            'team_store = "off" (docs/team-store.md)',
        )
    return bool(rights[1])


def _exists(conn: psycopg.Connection[Any], table: str) -> bool:
    row = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (table,)).fetchone()
    return bool(row and row[0])


def _by_language(keys: Collection[RowKey]) -> dict[str, list[str]]:
    """Content hashes per language, each list in order (builders insert in one order)."""
    grouped: dict[str, list[str]] = defaultdict(list)
    for digest, language in keys:
        grouped[language].append(digest)
    return {language: sorted(hashes) for language, hashes in sorted(grouped.items())}


def _batches(hashes: list[str], language: str, rows: Mapping[RowKey, bytes]) -> Iterator[list[str]]:
    """`hashes` in batches of about PUBLISH_BATCH_BYTES of rows."""
    batch: list[str] = []
    size = 0
    for digest in hashes:
        batch.append(digest)
        size += len(rows[(digest, language)])
        if size >= PUBLISH_BATCH_BYTES:
            yield batch
            batch, size = [], 0
    if batch:
        yield batch
