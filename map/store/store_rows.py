"""How the map's rows are laid out in SQLite, and turned into rows and back.

Tables: `meta` (schema, root, build time, Go modules, summary counts),
`files` (per file: stat stamp, content hash, its extract packed: map.extraction.snapshot),
`names` (per file: its search lines and its symbols' kinds and lines, see
map.graph.names; apart from the extracts, which would make reading them all slow),
`skipped`, `nodes` (every file and symbol with what outline and neighbours
show: kind, name, qualified name, lines, and the node that contains it: a
graph loads from `nodes` and `edges` alone) and `edges` (the resolved uses
with their lines, confidence and candidates), keyed by source and indexed
by target. A file's nodes and outgoing edges are the rows whose ID is the
path or starts with `path#`. What linking decided stays too: `links` (per
file: each reference's resolution and the names it consulted, see
map.linking.link_rows, and the names of the references it left open) and
`consulters` (which files consulted a name, indexed by name), so that a
new process restores the link instead of resolving again, and relinks an
offline edit from the store (map.store.store_link); `nodes` is indexed by name
for the same reason (the definitions of a name).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from disk.stamps import FileStamp
from map.extraction.snapshot import SCHEMA_VERSION
from map.linking.link_rows import LINKS_FORMAT

STORE_SCHEMA = f"8.{SCHEMA_VERSION}.{LINKS_FORMAT}"
"""This layout and the extract encoding it holds."""
EDGES_INDEX = "CREATE INDEX edges_target ON edges (target, confidence)"
"""Covers the edges into a node (a WITHOUT ROWID index holds the key too): one-hop
neighbours read from the store never look an edge up (a hub of 9,070 callers on mix:
28 -> 16 ms warm)."""
CONSULTERS_INDEX = "CREATE INDEX consulters_name ON consulters (name)"
ROWS_VERSION = "rows_version"
"""The meta key of a random ID that every write of files' rows sets anew (not a write of
stamps alone): whoever read the rows earlier tells by it whether the store still holds
them (map.store.graph_feed)."""
BULK_INDEXES = {"edges_target": EDGES_INDEX, "consulters_name": CONSULTERS_INDEX}
"""The indexes a bulk write builds after the rows, not row by row (see map.store.store_write)."""
TABLES = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE files (
    path TEXT PRIMARY KEY, hash TEXT NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, edges INTEGER NOT NULL,
    extract BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE names (
    path TEXT PRIMARY KEY, hash TEXT NOT NULL, names TEXT NOT NULL, details TEXT NOT NULL
);
CREATE TABLE skipped (
    path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, reason TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE nodes (
    id TEXT PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, qualname TEXT NOT NULL,
    path TEXT NOT NULL, first INTEGER, last INTEGER, parent TEXT
) WITHOUT ROWID;
CREATE TABLE edges (
    source TEXT NOT NULL, target TEXT NOT NULL, kind TEXT NOT NULL,
    lines BLOB NOT NULL, confidence REAL NOT NULL, candidates BLOB NOT NULL,
    PRIMARY KEY (source, target, kind)
) WITHOUT ROWID;
CREATE INDEX nodes_name ON nodes (name);
CREATE TABLE links (
    path TEXT PRIMARY KEY, links BLOB NOT NULL, open TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE consulters (
    path TEXT NOT NULL, name TEXT NOT NULL, PRIMARY KEY (path, name)
) WITHOUT ROWID;
{EDGES_INDEX};
{CONSULTERS_INDEX};
"""
NODE_COLUMNS = "id, kind, name, qualname, path, first, last"
EDGE_COLUMNS = "lines, confidence, candidates"


def stamp_row(stamp: FileStamp) -> tuple[int, int, int, int]:
    """A stat stamp as the four columns `size, mtime_ns, ctime_ns, inode`."""
    return (stamp.size, stamp.mtime_ns, stamp.ctime_ns, stamp.inode)


def node_row(node_id: str, attrs: Mapping[str, Any], parent: str | None) -> tuple[object, ...]:
    """A node's row from its graph attributes and the node that contains it."""
    name = str(attrs.get("name", attrs["path"]))
    lines = attrs.get("lines")
    first, last = lines if lines is not None else (None, None)
    return (
        node_id,
        attrs["kind"],
        name,
        str(attrs.get("qualname", name)),
        attrs["path"],
        first,
        last,
        parent,
    )


def node_of(row: tuple[Any, ...]) -> tuple[str, dict[str, Any]]:
    """(ID, attributes) from a row of NODE_COLUMNS."""
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


def open_text(names: Iterable[str]) -> str:
    """A file's open names (map.linking.unresolved) as its `links` row keeps them."""
    return "\n".join(sorted(names))


def open_of(text: str) -> frozenset[str]:
    """`open_text`'s names back."""
    return frozenset(text.split("\n")) if text else frozenset()


def edge_row(source: str, target: str, kind: str, attrs: Mapping[str, Any]) -> tuple[object, ...]:
    """An edge's row from its graph attributes."""
    return (
        source,
        target,
        kind,
        orjson.dumps(attrs["lines"]),
        attrs["confidence"],
        orjson.dumps(attrs["candidates"]),
    )


def edge_attrs(kind: str, lines: bytes, confidence: float, candidates: bytes) -> dict[str, Any]:
    """An edge's attributes from its EDGE_COLUMNS."""
    return {
        "kind": kind,
        "lines": tuple(orjson.loads(lines)),
        "confidence": confidence,
        "candidates": tuple(orjson.loads(candidates)),
    }
