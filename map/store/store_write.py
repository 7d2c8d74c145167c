"""What a save writes into the map store: each changed file's rows, the stamps that
moved, the summary, and a new version of the rows when any moved (map.store.mapstore runs it in one
transaction).

A write that replaces every file's rows (a cold build, a full save) goes in
key order with a larger page cache, and builds the edges' index by target
once at the end instead of row by row: a third of the time.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from secrets import token_hex
from typing import Any

import orjson

from disk.stamps import FileStamp
from map.extraction.snapshot import encode_extract, pack_lists
from map.graph.names import details_text, names_text
from map.linking.layout import Layout
from map.model import FileExtract
from map.progress import Progress, counted
from map.store.store_rows import (
    BULK_INDEXES,
    ROWS_VERSION,
    edge_row,
    node_row,
    open_text,
    stamp_row,
)

BULK_WRITE_FILES = 256
"""A write of this many files or more is a bulk write (see the module docstring; map.store.mapstore
also empties the write-ahead log after one)."""
BULK_CACHE_KIB = 8192
"""SQLite's page cache while a write replaces every file's rows (2 MB otherwise). The rows go
in key order with the edges' target index dropped, so they touch few pages at a time: 8 MB
saved sympy as fast as 32 MB (4.6-5.9 s against 4.8-5.6 s, alternating runs) and took 24 MB
less off the peak of a cold build (mix: 585 against 614 MB)."""

Stamps = dict[str, tuple[FileStamp, str]]


@dataclass
class State:
    """What the map knows without its graph: every file's stamp and the summary."""

    built_at: datetime
    duration_s: float
    stamps: Stamps = field(default_factory=dict)
    """path -> (stat stamp, content hash) of every file in the map."""
    skipped: Stamps = field(default_factory=dict)
    """path -> (stat stamp, reason) of every file left out."""
    layout: Layout = field(default_factory=Layout)
    counts: dict[str, Any] = field(default_factory=dict)
    edge_counts: dict[str, int] = field(default_factory=dict)
    """path -> edges out of the file's nodes, `contains` included."""


@dataclass(frozen=True)
class FileRows:
    """One file as stored: its extract, its nodes' rows and its outgoing edges."""

    extract: FileExtract
    nodes: list[tuple[str, dict[str, Any], str | None]]
    """(node ID, attributes, the node that contains it) of the file and its symbols."""
    edges: list[tuple[str, str, str, dict[str, Any]]]
    """(source, target, kind, attributes) of every edge from the file's nodes."""
    links: bytes
    """What linking decided for the file (map.linking.link_rows)."""
    consulted: Collection[str]
    """The names its references consulted (the `consulters` rows)."""
    open_names: Collection[str]
    """The names of its references linking left open (map.linking.unresolved)."""
    blob: bytes | None = None
    """The extract already packed as stored (map.extraction.snapshot.pack_lists), e.g. as the map
    keeps it: not encoded again."""


def write_rows(
    db: sqlite3.Connection,
    state: State,
    files: Collection[str],
    rows_of: Callable[[str], FileRows | None],
    stamps_moved: Iterable[str],
    skipped_moved: Iterable[str],
    *,
    fresh: bool = False,
    progress: Progress | None = None,
) -> None:
    """Inside the caller's transaction: replace the rows of `files` (`rows_of` gives each
    file's as it is written, never all at once; None: gone), the stamps of
    `stamps_moved` and `skipped_moved`, and the summary (`fresh`: a new store, with no
    rows to delete). `progress(done, total)` counts the files written."""
    whole = len(files) >= BULK_WRITE_FILES and _count(db, "files") <= len(files)
    if whole:
        for index in BULK_INDEXES:
            db.execute(f"DROP INDEX {index}")
    with _page_cache(db, BULK_CACHE_KIB if whole else 0):
        _write_files(db, state, files, rows_of, fresh=fresh, progress=progress)
    for path in stamps_moved:
        if path in state.stamps and path not in files:
            stamp, digest = state.stamps[path]
            db.execute(
                "UPDATE files SET hash = ?, size = ?, mtime_ns = ?, ctime_ns = ?, "
                "inode = ? WHERE path = ?",
                (digest, *stamp_row(stamp), path),
            )
    for path in skipped_moved:
        db.execute("DELETE FROM skipped WHERE path = ?", (path,))
        if path in state.skipped:
            stamp, reason = state.skipped[path]
            db.execute(
                "INSERT INTO skipped VALUES (?, ?, ?, ?, ?, ?)",
                (path, *stamp_row(stamp), reason),
            )
    if whole:
        for create in BULK_INDEXES.values():
            db.execute(create)
    if files:
        db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (ROWS_VERSION, token_hex(8)))
    db.executemany(
        "INSERT OR REPLACE INTO meta VALUES (?, ?)",
        [
            ("built_at", state.built_at.isoformat()),
            ("duration_s", str(state.duration_s)),
            ("layout", state.layout.dumps()),
            ("counts", orjson.dumps(state.counts)),
        ],
    )


def _write_files(
    db: sqlite3.Connection,
    state: State,
    files: Collection[str],
    rows_of: Callable[[str], FileRows | None],
    *,
    fresh: bool = False,
    progress: Progress | None = None,
) -> None:
    """Replace the rows of `files` (None: gone), in key order (`fresh`: a new store,
    with no rows to delete)."""
    for path in counted(progress, sorted(files)):
        rows = rows_of(path)
        if not fresh:
            db.execute("DELETE FROM consulters WHERE path = ?", (path,))
        for table, column in () if fresh else (("nodes", "id"), ("edges", "source")):
            db.execute(f"DELETE FROM {table} WHERE {column} = ?", (path,))
            db.execute(
                f"DELETE FROM {table} WHERE {column} >= ? AND {column} < ?",
                (path + "#", path + "$"),
            )
        if rows is None:
            db.execute("DELETE FROM files WHERE path = ?", (path,))
            db.execute("DELETE FROM names WHERE path = ?", (path,))
            db.execute("DELETE FROM links WHERE path = ?", (path,))
            continue
        stamp, digest = state.stamps[path]
        db.execute(
            "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                path,
                digest,
                *stamp_row(stamp),
                len(rows.edges) + len(rows.extract.symbols),  # `contains`: one each
                rows.blob if rows.blob is not None else pack_lists(encode_extract(rows.extract)),
            ),
        )
        db.execute(
            "INSERT OR REPLACE INTO names VALUES (?, ?, ?, ?)",
            (path, digest, names_text(rows.extract), details_text(rows.extract)),
        )
        db.executemany(
            "INSERT INTO nodes VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [node_row(*node) for node in rows.nodes],
        )
        db.executemany(
            "INSERT INTO edges VALUES (?, ?, ?, ?, ?, ?)",
            [edge_row(*edge) for edge in rows.edges],
        )
        db.execute(
            "INSERT OR REPLACE INTO links VALUES (?, ?, ?)",
            (path, rows.links, open_text(rows.open_names)),
        )
        consulters = [(path, name) for name in sorted(rows.consulted)]
        db.executemany("INSERT INTO consulters VALUES (?, ?)", consulters)


def moved_since(
    saved: tuple[Stamps, Stamps], state: State, touched: Collection[str] | None
) -> tuple[list[str], list[str]]:
    """The files whose stamp moved since the last save (`saved`: the stamps and skipped
    files as the store holds them), among `touched` (None: any), and those whose skip did."""
    stamps, skipped = saved
    candidates = state.stamps.keys() if touched is None else touched
    moved = [p for p in candidates if p in state.stamps and stamps.get(p) != state.stamps[p]]
    ever_skipped = state.skipped.keys() | skipped.keys()
    left_out = [p for p in ever_skipped if skipped.get(p) != state.skipped.get(p)]
    return moved, left_out


def _count(db: sqlite3.Connection, table: str) -> int:
    count: int = db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
    return count


@contextmanager
def _page_cache(db: sqlite3.Connection, kib: int) -> Iterator[None]:
    """Run the body with a page cache of `kib` KiB (0: as it is), then restore it."""
    if not kib:
        yield
        return
    before = db.execute("PRAGMA cache_size").fetchone()[0]
    db.execute(f"PRAGMA cache_size = -{kib}")
    try:
        yield
    finally:
        db.execute(f"PRAGMA cache_size = {int(before)}")
