"""The map on disk: one SQLite database (WAL), written file by file.

An edit rewrites only its files' rows (see map.store.store_rows for the tables,
map.store.store_write for what a save writes), in one transaction: a killed write
leaves the previous state. A store that is not SQLite, has another schema,
or was taken of another root raises StoreError: the caller rebuilds and
never trusts it. Where the store lives
and how a damaged file is told apart: map.store.store_files.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import zlib
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import orjson

from disk.stamps import FileStamp
from map.extraction.snapshot import decode_extract, unpack_lists
from map.graph.mapgraph import StoredEdge, StoredNode
from map.linking.layout import Layout
from map.model import FileExtract
from map.progress import Progress
from map.store.store_files import (
    LEGACY_NAME,
    STORE_NAME,
    StoreError,
    check_header,
    discard,
    remove_legacy,
    store_file,
)
from map.store.store_rows import (
    EDGE_COLUMNS,
    NODE_COLUMNS,
    ROWS_VERSION,
    STORE_SCHEMA,
    TABLES,
    edge_attrs,
    node_of,
    open_of,
)
from map.store.store_write import BULK_WRITE_FILES, FileRows, Stamps, State, write_rows

__all__ = [
    "BULK_WRITE_FILES",
    "LEGACY_NAME",
    "STORE_NAME",
    "STORE_SCHEMA",
    "FileRows",
    "MapStore",
    "Stamps",
    "State",
    "StoreError",
    "remove_legacy",
    "store_file",
]
BUSY_TIMEOUT_MS = 10_000
FRESH_SUFFIX = ".new"
"""A new store is written under its name plus this, then renamed into place (see create)."""
T = TypeVar("T")


class MapStore:
    """One repository's map store; safe to use from several threads (a connection each)."""

    def __init__(self, path: Path, root: str) -> None:
        self.path = path
        self.root = root
        self._local = threading.local()
        self._target: Path | None = None
        """Where a new store goes once its first write commits (see create)."""

    @classmethod
    def open(cls, path: Path, root: str) -> MapStore:
        """The existing store at `path`; raises StoreError when it cannot be trusted."""
        if not path.is_file():
            raise StoreError(f"{path}: no map store yet")
        check_header(path)
        store = cls(path, root)
        meta = store._meta()
        if meta.get("schema") != STORE_SCHEMA:
            raise StoreError(
                f"{path}: schema {meta.get('schema')!r}, this version reads {STORE_SCHEMA}"
            )
        if meta.get("root") != root:
            raise StoreError(f"{path}: taken of {meta.get('root')!r}, not of {root!r}")
        return store

    @classmethod
    def create(cls, path: Path, root: str) -> MapStore:
        """A new, empty store at `path`, replacing whatever was there once its first
        write commits: until then it is a new file beside `path` whose rollback journal
        is kept in memory (no write-ahead log that a cold build would write and then
        copy back: half its disk writes), renamed over `path` after that commit. A build
        killed before leaves `path` as it was; the next `create` discards the new file."""
        fresh = path.with_name(path.name + FRESH_SUFFIX)
        discard(fresh)
        path.parent.mkdir(parents=True, exist_ok=True)
        store = cls(fresh, root)
        store._target = path
        try:
            store._connection().executescript(
                f"BEGIN; {TABLES} INSERT INTO meta VALUES ('schema', '{STORE_SCHEMA}'); COMMIT;"
            )
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot create the map store ({exc})") from exc
        with store._write() as db:
            db.execute("INSERT INTO meta VALUES ('root', ?)", (root,))
        return store

    def close(self) -> None:
        """Close this thread's connection (others close with their threads)."""
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None

    def state(self) -> State:
        """The summary and every file's stamp."""
        meta = self._meta()
        try:
            state = State(
                built_at=datetime.fromisoformat(str(meta["built_at"])),
                duration_s=float(meta["duration_s"]),
                layout=Layout.loads(meta["layout"]),
                counts=dict(orjson.loads(meta["counts"])),
            )
        except (KeyError, TypeError, ValueError, orjson.JSONDecodeError) as exc:
            raise StoreError(f"{self.path}: malformed map store ({exc!r})") from exc
        for path, digest, edges, *stamp in self._rows(
            "SELECT path, hash, edges, size, mtime_ns, ctime_ns, inode FROM files"
        ):
            state.stamps[path] = (FileStamp(*stamp), digest)
            state.edge_counts[path] = edges
        for path, reason, *stamp in self._rows(
            "SELECT path, reason, size, mtime_ns, ctime_ns, inode FROM skipped"
        ):
            state.skipped[path] = (FileStamp(*stamp), reason)
        return state

    def linked_rows(
        self, decode: Callable[[str, list[Any]], T]
    ) -> Iterator[tuple[T, bytes, bytes]]:
        """Every file's extract, as `decode(path, lists)` makes it from the stored lists
        (map.extraction.snapshot), with its stored blob and what linking decided for it
        (map.linking.link_rows), one row at a time (a whole map is never decoded in memory at
        once); raises StoreError when it cannot be read, or a file has no link row."""
        try:
            for path, blob, links in self._connection().execute(
                "SELECT path, extract, links FROM files LEFT JOIN links USING (path)"
            ):
                if links is None:
                    raise StoreError(f"{self.path}: {path} has no link row")
                yield self._decode(path, blob, decode), blob, links
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: unreadable or corrupt map store ({exc})") from exc

    def rows_version(self) -> str | None:
        """The ID of the last write of files' rows (random, new with each; None: written
        before writes had one): equal, the nodes and edges are what they were."""
        rows = self._rows("SELECT value FROM meta WHERE key = ?", (ROWS_VERSION,))
        return str(rows[0][0]) if rows else None

    @contextmanager
    def reading(self) -> Iterator[None]:
        """One read transaction for the body: what it reads is one state of the store,
        whatever other processes write meanwhile."""
        db = self._connection()
        try:
            db.execute("BEGIN")
            yield
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: unreadable or corrupt map store ({exc})") from exc
        finally:
            if db.in_transaction:
                db.execute("COMMIT")

    def graph_nodes(self) -> Iterator[StoredNode]:
        """Every node with what the graph keeps of it and the node that contains it
        (map.graph.mapgraph.StoredNode), one row at a time."""
        return self._stream(f"SELECT {NODE_COLUMNS}, parent FROM nodes")

    def graph_edges(self) -> Iterator[StoredEdge]:
        """Every use and import edge (map.graph.mapgraph.StoredEdge), one row at a time."""
        return self._stream("SELECT source, target, kind, confidence FROM edges")

    def open_names(self) -> dict[str, frozenset[str]]:
        """Per file, the names of its references linking left open (map.linking.unresolved);
        raises StoreError when a row does not hold them."""
        held: dict[str, frozenset[str]] = {}
        for path, text in self._stream("SELECT path, open FROM links"):
            if not isinstance(text, str):
                raise StoreError(f"{self.path}: malformed open names of {path}")
            held[path] = open_of(text)
        return held

    def extract_blob(self, path: str) -> bytes | None:
        """One file's extract as stored, packed (map.extraction.snapshot.pack_lists), or None."""
        return self._blob("SELECT extract FROM files WHERE path = ?", path)

    def link_blob(self, path: str) -> bytes | None:
        """What linking decided for one file (map.linking.link_rows), or None."""
        return self._blob("SELECT links FROM links WHERE path = ?", path)

    def defined(self, name: str) -> set[str]:
        """The IDs of the symbols called `name`."""
        rows = self._rows("SELECT id FROM nodes WHERE name = ? AND kind != 'file'", (name,))
        return {row[0] for row in rows}

    def consulters(self, name: str) -> set[str]:
        """The files whose references consulted `name` when they were linked."""
        return {row[0] for row in self._rows("SELECT path FROM consulters WHERE name = ?", (name,))}

    def file_edges(self, path: str) -> list[StoredEdge]:
        """The use and import edges out of a file's nodes (map.graph.mapgraph.StoredEdge)."""
        return self._rows(
            "SELECT source, target, kind, confidence FROM edges "
            "WHERE source = ? OR (source >= ? AND source < ?)",
            (path, path + "#", path + "$"),
        )

    def using_files(self, path: str) -> set[str]:
        """The files with an edge into one of `path`'s nodes."""
        rows = self._rows(
            "SELECT DISTINCT source FROM edges WHERE target = ? OR (target >= ? AND target < ?)",
            (path, path + "#", path + "$"),
        )
        return {row[0].partition("#")[0] for row in rows}

    def extract(self, path: str) -> FileExtract | None:
        """One file's extract (None when the store does not hold it)."""
        rows = self._rows("SELECT extract FROM files WHERE path = ?", (path,))
        return self._decode(path, rows[0][0], decode_extract) if rows else None

    def node(self, node_id: str) -> dict[str, Any] | None:
        """A node's row (kind, name, qualname, path, lines), or None."""
        rows = self._rows(f"SELECT {NODE_COLUMNS} FROM nodes WHERE id = ?", (node_id,))
        return node_of(rows[0])[1] if rows else None

    def node_ids(self, prefix: str) -> list[str]:
        """The IDs that start with `prefix`."""
        rows = self._rows(
            "SELECT id FROM nodes WHERE id >= ? AND id < ? ORDER BY id",
            (prefix, prefix + "\U0010ffff"),
        )
        return [row[0] for row in rows]

    def names(self) -> list[tuple[str, str, str, str]]:
        """(path, content hash, search lines, details) of every file (see map.graph.names)."""
        rows = self._rows("SELECT path, hash, names, details FROM names")
        return [(p, h, n, d) for p, h, n, d in rows]

    def ends(self, node_id: str, incoming: bool) -> list[tuple[str, str, float, str | None]]:
        """(other end, kind, confidence, the other end's node kind, None when the store
        has no such node) of the edges into or out of `node_id`, in one query."""
        near, far = ("target", "source") if incoming else ("source", "target")
        return self._rows(
            f"SELECT edges.{far}, edges.kind, edges.confidence, nodes.kind FROM edges "
            f"LEFT JOIN nodes ON nodes.id = edges.{far} WHERE edges.{near} = ?",
            (node_id,),
        )

    def edge(self, source: str, target: str, kind: str) -> dict[str, Any] | None:
        """One edge's attributes, or None."""
        rows = self._rows(
            f"SELECT {EDGE_COLUMNS} FROM edges WHERE source = ? AND target = ? AND kind = ?",
            (source, target, kind),
        )
        return edge_attrs(kind, *rows[0]) if rows else None

    def write(
        self,
        state: State,
        files: Collection[str],
        rows_of: Callable[[str], FileRows | None],
        stamps_moved: Iterable[str],
        skipped_moved: Iterable[str],
        progress: Progress | None = None,
    ) -> None:
        """In one transaction, what `map.store.store_write.write_rows` writes: the rows of
        `files` (`rows_of` gives each file's as it is written; None: gone), the stamps
        of `stamps_moved` and `skipped_moved`, and the summary. `progress(done, total)`
        counts the files written. A new store then takes its place (see create); a
        bulk write empties the write-ahead log."""
        with self._write() as db:
            fresh = self._target is not None
            moved = (stamps_moved, skipped_moved)
            write_rows(db, state, files, rows_of, *moved, fresh=fresh, progress=progress)
        if self._target is not None:
            self._take_place(self._target)
        elif len(files) >= BULK_WRITE_FILES:
            self._checkpoint()

    def _take_place(self, target: Path) -> None:
        """Give the new store (committed and synced) a write-ahead log from now on, and
        rename it over `target` and its side files (see create)."""
        try:
            self._connection().execute("PRAGMA journal_mode = WAL")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write the map store ({exc})") from exc
        self.close()
        discard(target)
        os.replace(self.path, target)
        self.path, self._target = target, None

    def _checkpoint(self) -> None:
        """Copy the write-ahead log back into the database and empty it, now: after a
        bulk write (a cold build) the log holds the whole map, and otherwise the next
        small save (the first edit) would pay for copying it, and it would stay on disk."""
        try:
            self._connection().execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: cannot write the map store ({exc})") from exc

    def _connection(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            try:
                db = sqlite3.connect(
                    self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
                )
                journal = "WAL" if self._target is None else "MEMORY"  # see create
                db.execute(f"PRAGMA journal_mode = {journal}")
                db.execute("PRAGMA synchronous = NORMAL")
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: not a usable map store ({exc})") from exc
            self._local.db = db
        return db

    def _stream(self, sql: str) -> Iterator[Any]:
        """The rows of `sql`, one at a time; raises StoreError when the store cannot be
        read."""
        try:
            yield from self._connection().execute(sql)
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: unreadable or corrupt map store ({exc})") from exc

    def _rows(self, sql: str, params: Iterable[object] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._connection().execute(sql, tuple(params)).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: unreadable or corrupt map store ({exc})") from exc

    def _blob(self, sql: str, path: str) -> bytes | None:
        """The one blob `sql` selects for `path` (None: no row); raises StoreError when
        the column holds anything else."""
        rows = self._rows(sql, (path,))
        if not rows:
            return None
        if not isinstance(rows[0][0], bytes):
            raise StoreError(f"{self.path}: malformed row of {path} (not a blob)")
        return rows[0][0]

    def _meta(self) -> dict[str, Any]:
        return {str(k): v for k, v in self._rows("SELECT key, value FROM meta")}

    def _decode(self, path: str, blob: bytes, decode: Callable[[str, list[Any]], T]) -> T:
        try:
            return decode(path, unpack_lists(blob))
        except (zlib.error, KeyError, TypeError, ValueError, IndexError) as exc:
            raise StoreError(f"{self.path}: malformed extract of {path} ({exc!r})") from exc

    def _write(self) -> _Transaction:
        return _Transaction(self)


class _Transaction:
    """`with store._write() as db:` one IMMEDIATE transaction, committed or rolled back."""

    def __init__(self, store: MapStore) -> None:
        self._store = store
        self._db: sqlite3.Connection | None = None

    def __enter__(self) -> sqlite3.Connection:
        self._db = self._store._connection()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise StoreError(f"{self._store.path}: cannot write the map store ({exc})") from exc
        return self._db

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        assert self._db is not None
        try:
            self._db.execute("COMMIT" if kind is None else "ROLLBACK")
        except sqlite3.Error as exc:
            if kind is None:
                raise StoreError(f"{self._store.path}: cannot write the map store ({exc})") from exc
