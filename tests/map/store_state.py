"""A map store's rows, read with sqlite3 as they are on disk, and compared with another
store's (a from-scratch build's)."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import orjson

from map.linking.link_rows import decode_links
from map.linking.resolution import Resolution

ROW_TABLES = {
    "files": "path",
    "names": "path",
    "skipped": "path",
    "nodes": "id",
    "edges": "source, target, kind",
}
"""The tables compared row for row, and their keys."""


def _read(path: Path, *statements: str) -> list[list[tuple[Any, ...]]]:
    with closing(sqlite3.connect(path)) as db:
        return [db.execute(statement).fetchall() for statement in statements]


def table_rows(path: Path) -> dict[str, Any]:
    """Every row of each of ROW_TABLES in key order, and the summary counts and Go
    modules (meta): what lookups read before the graph is loaded."""
    tables = [f"SELECT * FROM {table} ORDER BY {key}" for table, key in ROW_TABLES.items()]
    *rows, meta = _read(path, *tables, "SELECT key, value FROM meta")
    found: dict[str, Any] = dict(zip(ROW_TABLES, rows, strict=True))
    summary = dict(meta)
    found["summary"] = (orjson.loads(summary["counts"]), orjson.loads(summary["layout"]))
    return found


def link_state(path: Path) -> tuple[dict[str, list[Resolution | None]], set[Any], set[Any]]:
    """Each file's resolutions by reference index; (path, name, reference index) of
    which reference consulted which name (the `links` rows); (path, name) of the
    `consulters` table."""
    links, consulters = _read(
        path, "SELECT path, links FROM links", "SELECT path, name FROM consulters"
    )
    resolutions: dict[str, list[Resolution | None]] = {}
    consulted: set[tuple[str, str, int]] = set()
    for file, blob in links:
        resolutions[file], deps = decode_links(blob, {})
        consulted |= {(file, name, i) for name in deps.names() for i in deps.indexes([name])}
    return resolutions, consulted, set(consulters)


def assert_same_rows(got: Path, built: Path, where: str) -> None:
    """The store at `got` answers lookups as the from-scratch store at `built` does
    (see `table_rows`)."""
    have, want = table_rows(got), table_rows(built)
    for table in [*ROW_TABLES, "summary"]:
        assert have[table] == want[table], f"{where}: the {table} rows"


def assert_same_store(got: Path, built: Path, where: str) -> None:
    """The store at `got` holds what the from-scratch store at `built` does.

    Its rows are the same (`assert_same_rows`), and every reference's
    resolution. What each reference consulted may be more than a fresh link's:
    a partial relink re-resolves some references of a file and adds the names
    they consulted now to those the file's table held
    (map.linking.consulted.Consulted.add keeps the old pairs), so such a file is
    relinked more often than needed later, never less. So what must hold is
    that nothing a fresh link consulted is missing, in the `links` rows and in
    the `consulters` table."""
    assert_same_rows(got, built, where)
    (have, have_consulted, have_consulters) = link_state(got)
    (want, want_consulted, want_consulters) = link_state(built)
    assert have == want, f"{where}: the resolutions"
    missing = sorted(want_consulted - have_consulted)
    assert not missing, f"{where}: consulted names missing {missing[:10]}"
    gone = sorted(want_consulters - have_consulters)
    assert not gone, f"{where}: consulters missing {gone[:10]}"
