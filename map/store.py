"""The map on disk: one SQLite database (WAL), written file by file.

Tables: `meta` (schema, root, build time, Go modules, summary counts),
`files` (per file: stat stamp, content hash and its extract as an orjson
blob), `skipped`, `nodes` (every file and symbol with what search, outline
and neighbours show: kind, name, qualified name, lines) and `edges` (the
resolved uses with their lines, confidence and candidates), keyed by source
and indexed by target. A file's nodes and outgoing edges are the rows whose
ID is the path or starts with `path#`, so an edit rewrites only its files'
rows, in one transaction: a killed write leaves the previous state.

A store that is not SQLite, has another schema, or was taken of another
root raises StoreError: the caller rebuilds and never trusts it. Under the
root the store never passes through a symlink (`store_file`).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import orjson

from disk.paths import resolve_in_root
from disk.stamps import FileStamp
from disk.statedir import STATE_DIR, state_file
from map.errors import SnapshotError
from map.gcpause import paused_gc
from map.model import FileExtract
from map.snapshot import SCHEMA_VERSION, decode_extract, encode_extract

STORE_NAME = "map.sqlite"
STORE_SCHEMA = f"1.{SCHEMA_VERSION}"
"""This layout and the extract encoding it holds."""
LEGACY_NAME = "map.json"
"""The snapshot of earlier versions: one orjson file, rewritten whole on every save."""
SIDE_FILES = ("-wal", "-shm", "-journal")
BUSY_TIMEOUT_MS = 10_000
_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE files (
    path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, edges INTEGER NOT NULL,
    extract BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE skipped (
    path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, reason TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE nodes (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, qualname TEXT NOT NULL,
    path TEXT NOT NULL, first INTEGER, last INTEGER,
    name_l TEXT NOT NULL, qual_l TEXT NOT NULL, id_l TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX nodes_name ON nodes (name_l);
CREATE TABLE edges (
    source TEXT NOT NULL, target TEXT NOT NULL, kind TEXT NOT NULL,
    lines BLOB NOT NULL, confidence REAL NOT NULL, candidates BLOB NOT NULL,
    PRIMARY KEY (source, target, kind)
) WITHOUT ROWID;
CREATE INDEX edges_target ON edges (target);
"""
_NODE_COLUMNS = "id, kind, name, qualname, path, first, last"

Stamps = dict[str, tuple[FileStamp, str]]


class StoreError(SnapshotError):
    """The store is unreadable, corrupt, of another schema or of another root."""


@dataclass
class State:
    """What the map knows without its graph: every file's stamp and the summary."""

    built_at: datetime
    duration_s: float
    stamps: Stamps = field(default_factory=dict)
    """path -> (stat stamp, content hash) of every file in the map."""
    skipped: Stamps = field(default_factory=dict)
    """path -> (stat stamp, reason) of every file left out."""
    go_modules: dict[str, str] = field(default_factory=dict)
    counts: dict[str, Any] = field(default_factory=dict)
    edge_counts: dict[str, int] = field(default_factory=dict)
    """path -> edges out of the file's nodes, `contains` included."""


@dataclass(frozen=True)
class FileRows:
    """One file as stored: its extract, its nodes' rows and its outgoing edges."""

    extract: FileExtract
    nodes: list[tuple[str, dict[str, Any]]]
    """(node ID, attributes) of the file and its symbols."""
    edges: list[tuple[str, str, str, dict[str, Any]]]
    """(source, target, kind, attributes) of every edge from the file's nodes."""


def store_file(root: Path, snapshot_dir: str, *, create: bool = False) -> Path:
    """The store's path for `root` with `snapshot_dir` (relative to the root, or
    absolute); `create` makes `.codeanchor` (ignored by git) when that is the folder.

    Raises OutsideRootError when a symlink would take a path under the root elsewhere:
    `.codeanchor`, the store or its side files as links, or a link on `snapshot_dir`.
    """
    directory = Path(snapshot_dir)
    if directory.is_absolute():
        return directory / STORE_NAME
    if directory == Path(STATE_DIR):
        for side in SIDE_FILES:
            state_file(root, STORE_NAME + side, create_dir=create)
        return state_file(root, STORE_NAME, create_dir=create)
    folder = resolve_in_root(root, directory, must_exist=False)
    for name in (STORE_NAME, *(STORE_NAME + side for side in SIDE_FILES)):
        resolve_in_root(root, directory / name, must_exist=False)
    return folder / STORE_NAME


class MapStore:
    """One repository's map store; safe to use from several threads (a connection each)."""

    def __init__(self, path: Path, root: str) -> None:
        self.path = path
        self.root = root
        self._local = threading.local()

    @classmethod
    def open(cls, path: Path, root: str) -> MapStore:
        """The existing store at `path`; raises StoreError when it cannot be trusted."""
        if not path.is_file():
            raise StoreError(f"{path}: no map store yet")
        _check_size(path)
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
        """A new, empty store at `path`, replacing whatever was there."""
        discard(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        store = cls(path, root)
        try:
            store._connection().executescript(
                f"BEGIN; {_TABLES} INSERT INTO meta VALUES ('schema', '{STORE_SCHEMA}'); COMMIT;"
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
                go_modules=dict(orjson.loads(meta["go_modules"])),
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

    def extracts(self, stamps: Stamps) -> dict[str, FileExtract]:
        """Every file's extract, checked against `stamps` (the files the map holds)."""
        with paused_gc():  # one row at a time: never every blob in memory at once
            try:
                rows = self._connection().execute("SELECT path, extract FROM files")
                extracts = {path: self._decode(path, blob) for path, blob in rows}
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: unreadable or corrupt map store ({exc})") from exc
        wrong = [
            p for p, (_, h) in stamps.items() if p not in extracts or extracts[p].content_hash != h
        ]
        if wrong or len(extracts) != len(stamps):
            raise StoreError(f"{self.path}: files and stamps disagree (e.g. {wrong[:1]})")
        return extracts

    def extract(self, path: str) -> FileExtract | None:
        """One file's extract (None when the store does not hold it)."""
        rows = self._rows("SELECT extract FROM files WHERE path = ?", (path,))
        return self._decode(path, rows[0][0]) if rows else None

    def node(self, node_id: str) -> dict[str, Any] | None:
        """A node's row (kind, name, qualname, path, lines), or None."""
        rows = self._rows(f"SELECT {_NODE_COLUMNS} FROM nodes WHERE id = ?", (node_id,))
        return _node(rows[0])[1] if rows else None

    def node_ids(self, prefix: str) -> list[str]:
        """The IDs that start with `prefix`."""
        rows = self._rows(
            "SELECT id FROM nodes WHERE id >= ? AND id < ? ORDER BY id",
            (prefix, prefix + "\U0010ffff"),
        )
        return [row[0] for row in rows]

    def nodes(
        self, kinds: Iterable[str] | None = None, containing: str | None = None
    ) -> Iterator[tuple[str, dict[str, Any]]]:
        """(ID, attributes) of every node of `kinds`, narrowed to those whose lowercased
        name, qualified name or ID holds `containing` (when given)."""
        sql = f"SELECT {_NODE_COLUMNS} FROM nodes"
        clauses: list[str] = []
        params: list[str] = []
        if kinds is not None:
            wanted = sorted(set(kinds))
            clauses.append(f"kind IN ({', '.join('?' * len(wanted))})")
            params += wanted
        if containing is not None:
            clauses.append("(instr(name_l, ?) OR instr(qual_l, ?) OR instr(id_l, ?))")
            params += [containing] * 3
        if clauses:
            sql += " WHERE " + " AND ".join(clauses)
        return (_node(row) for row in self._rows(sql, params))

    def edges(self, node_id: str, incoming: bool) -> list[tuple[str, str, str, dict[str, Any]]]:
        """(source, target, kind, attributes) of the edges into or out of `node_id`."""
        column = "target" if incoming else "source"
        rows = self._rows(
            f"SELECT source, target, kind, lines, confidence, candidates FROM edges "
            f"WHERE {column} = ?",
            (node_id,),
        )
        return [(s, t, k, _edge_attrs(k, *rest)) for s, t, k, *rest in rows]

    def edge(self, source: str, target: str, kind: str) -> dict[str, Any] | None:
        """One edge's attributes, or None."""
        rows = self._rows(
            "SELECT lines, confidence, candidates FROM edges "
            "WHERE source = ? AND target = ? AND kind = ?",
            (source, target, kind),
        )
        return _edge_attrs(kind, *rows[0]) if rows else None

    def write(
        self,
        state: State,
        files: Mapping[str, FileRows | None],
        stamps_moved: Iterable[str],
        skipped_moved: Iterable[str],
    ) -> None:
        """In one transaction: replace the rows of `files` (None: gone), the stamps
        of `stamps_moved` and `skipped_moved`, and the summary."""
        with self._write() as db:
            for path, rows in files.items():
                for table, column in (("nodes", "id"), ("edges", "source")):
                    db.execute(f"DELETE FROM {table} WHERE {column} = ?", (path,))
                    db.execute(
                        f"DELETE FROM {table} WHERE {column} >= ? AND {column} < ?",
                        (path + "#", path + "$"),
                    )
                if rows is None:
                    db.execute("DELETE FROM files WHERE path = ?", (path,))
                    continue
                stamp, digest = state.stamps[path]
                db.execute(
                    "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        path,
                        digest,
                        *_stamp(stamp),
                        len(rows.edges) + len(rows.extract.symbols),  # `contains`: one each
                        orjson.dumps(encode_extract(rows.extract)),
                    ),
                )
                db.executemany(
                    "INSERT INTO nodes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [_node_row(node_id, attrs) for node_id, attrs in rows.nodes],
                )
                db.executemany(
                    "INSERT INTO edges VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (
                            s,
                            t,
                            k,
                            orjson.dumps(a["lines"]),
                            a["confidence"],
                            orjson.dumps(a["candidates"]),
                        )
                        for s, t, k, a in rows.edges
                    ],
                )
            for path in stamps_moved:
                if path in state.stamps and path not in files:
                    stamp, digest = state.stamps[path]
                    db.execute(
                        "UPDATE files SET hash = ?, size = ?, mtime_ns = ?, ctime_ns = ?, "
                        "inode = ? WHERE path = ?",
                        (digest, *_stamp(stamp), path),
                    )
            for path in skipped_moved:
                db.execute("DELETE FROM skipped WHERE path = ?", (path,))
                if path in state.skipped:
                    stamp, reason = state.skipped[path]
                    db.execute(
                        "INSERT INTO skipped VALUES (?, ?, ?, ?, ?, ?)",
                        (path, *_stamp(stamp), reason),
                    )
            db.executemany(
                "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                [
                    ("built_at", state.built_at.isoformat()),
                    ("duration_s", str(state.duration_s)),
                    ("go_modules", orjson.dumps(state.go_modules)),
                    ("counts", orjson.dumps(state.counts)),
                ],
            )

    def _connection(self) -> sqlite3.Connection:
        db: sqlite3.Connection | None = getattr(self._local, "db", None)
        if db is None:
            try:
                db = sqlite3.connect(
                    self.path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None
                )
                db.execute("PRAGMA journal_mode = WAL")
                db.execute("PRAGMA synchronous = NORMAL")
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path}: not a usable map store ({exc})") from exc
            self._local.db = db
        return db

    def _rows(self, sql: str, params: Iterable[object] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._connection().execute(sql, tuple(params)).fetchall()
        except sqlite3.Error as exc:
            raise StoreError(f"{self.path}: unreadable or corrupt map store ({exc})") from exc

    def _meta(self) -> dict[str, Any]:
        return {str(k): v for k, v in self._rows("SELECT key, value FROM meta")}

    def _decode(self, path: str, blob: bytes) -> FileExtract:
        try:
            return decode_extract(path, orjson.loads(blob))
        except (orjson.JSONDecodeError, KeyError, TypeError, ValueError, IndexError) as exc:
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


def _check_size(path: Path) -> None:
    """Raise StoreError when `path` is not SQLite, or is shorter than its header says
    (a truncated file would read as missing rows, not as an error)."""
    try:
        with path.open("rb") as stream:
            header = stream.read(100)
        size = path.stat().st_size
        wal = path.with_name(path.name + "-wal")
        pending = wal.stat().st_size if wal.exists() else 0
    except OSError as exc:
        raise StoreError(f"{path}: unreadable map store ({exc})") from exc
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
        raise StoreError(f"{path}: not an SQLite database")
    page_size = int.from_bytes(header[16:18], "big")
    pages = int.from_bytes(header[28:32], "big")
    counted = header[92:96] == header[24:28]  # the header's page count is current
    if counted and not pending and size < pages * (65536 if page_size == 1 else page_size):
        raise StoreError(f"{path}: truncated ({size} bytes, its header says {pages} pages)")


def remove_legacy(folder: Path) -> None:
    """Remove the single-file snapshot of earlier versions (and the temporary files of
    its killed saves) from `folder`: the store replaces it."""
    for entry in folder.glob(f"*{LEGACY_NAME}*"):
        if entry.name == LEGACY_NAME or (
            entry.name.startswith(f".{LEGACY_NAME}.") and entry.name.endswith(".tmp")
        ):
            entry.unlink(missing_ok=True)


def discard(path: Path) -> None:
    """Remove the store at `path` and its side files (a rebuild starts over)."""
    for name in (path.name, *(path.name + side for side in SIDE_FILES)):
        path.with_name(name).unlink(missing_ok=True)


def _stamp(stamp: FileStamp) -> tuple[int, int, int, int]:
    return (stamp.size, stamp.mtime_ns, stamp.ctime_ns, stamp.inode)


def _node_row(node_id: str, attrs: Mapping[str, Any]) -> tuple[object, ...]:
    name = str(attrs.get("name", attrs["path"]))
    qualname = str(attrs.get("qualname", name))
    lines = attrs.get("lines")
    first, last = lines if lines is not None else (None, None)
    return (
        node_id,
        attrs["kind"],
        name,
        qualname,
        attrs["path"],
        first,
        last,
        name.lower(),
        qualname.lower(),
        node_id.lower(),
    )


def _node(row: tuple[Any, ...]) -> tuple[str, dict[str, Any]]:
    node_id, kind, name, qualname, path, first, last = row
    if kind == "file":
        return node_id, {"kind": kind, "path": path}
    return node_id, {
        "kind": kind,
        "path": path,
        "name": name,
        "qualname": qualname,
        "lines": (first, last),
    }


def _edge_attrs(kind: str, lines: bytes, confidence: float, candidates: bytes) -> dict[str, Any]:
    return {
        "kind": kind,
        "lines": tuple(orjson.loads(lines)),
        "confidence": confidence,
        "candidates": tuple(orjson.loads(candidates)),
    }
