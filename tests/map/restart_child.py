"""A map opened in a new process, as after a restart: the process (`python -m
tests.map.restart_child`), what it answers (pickled back to the test), and what
its store holds (tests/map/test_restart.py compares both with a full build's).

    python -m tests.map.restart_child ROOT STORE_DIR MODE [QUESTIONS_JSON]

STORE_DIR "" is the default (`.codeanchor/` under ROOT). MODE `state`: open the
map and answer `map_state`; `answers`: open it as a restarted server does
(`link_later`) and answer `Questions` before and after `load_graph`.
"""

from __future__ import annotations

import json
import os
import pickle
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from map.linking.link_rows import decode_links
from map.live.codemap import CodeMap, MapSettings
from map.store.store_rows import ROWS_VERSION
from tests.map.graph_state import graph_state
from tests.map.killsave import KILL_DEADLINE_S, REPO_ROOT

TIMED_KEYS = ("built_at", "duration_s", ROWS_VERSION)
"""The store's `meta` rows that say when, how fast and by which write it was written,
not what."""


@dataclass(frozen=True)
class Questions:
    """What a user asks the map: search patterns, file outlines, one-hop neighbours."""

    patterns: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    node_ids: tuple[str, ...] = ()


@dataclass(frozen=True)
class Answers:
    """A restarted map's answers (mode `answers`)."""

    lookups: dict[str, Any]
    """`lookups` before the graph loaded."""
    loaded_after_lookups: bool
    """Whether the graph was loaded once `lookups` were answered (not: they did not
    wait for it)."""
    uses: dict[tuple[str, str], Any]
    """`uses` before `load_graph` (they may load it themselves)."""
    loaded: tuple[dict[str, Any], dict[tuple[str, str], Any]]
    """`lookups` and `uses` after `load_graph`."""


def settings(store: Path | None) -> MapSettings:
    """The map's settings with its store in `store` (None: the default place)."""
    return MapSettings() if store is None else MapSettings(snapshot_dir=str(store))


def map_state(code_map: CodeMap) -> tuple[Any, ...]:
    """`graph_state` (nodes, edges, open uses) and every use's edge details (lines,
    confidence, candidates), as `edge_attrs` gives them."""
    details = {
        (source, target, kind): code_map.edge_attrs(source, target, kind)
        for source, target, kind in code_map.graph.edges(keys=True)
        if kind != "contains"
    }
    return graph_state(code_map), details


def lookups(code_map: CodeMap, questions: Questions) -> dict[str, Any]:
    """Search hits, outlines, and each node's details and whether it is there."""
    return {
        "search": {p: code_map.search(p) for p in questions.patterns},
        "outline": {
            p: code_map.outline(p) if code_map.has_node(p) else None for p in questions.paths
        },
        "nodes": {n: code_map.attrs(n) for n in questions.node_ids},
        "ids": {p: code_map.node_ids(p) for p in questions.paths},
    }


def uses(code_map: CodeMap, questions: Questions) -> dict[tuple[str, str], Any]:
    """Each node's one-hop neighbours, incoming and outgoing (None: no such node)."""
    return {
        (node_id, direction): code_map.neighbors(node_id, direction)
        if code_map.has_node(node_id)
        else None
        for node_id in questions.node_ids
        for direction in ("in", "out")
    }


def answers(root: Path, store: Path | None, questions: Questions) -> Answers:
    """Open the map as a restarted server does, and answer `questions` before and
    after its graph loads."""
    code_map = CodeMap.open(root, settings(store), link_later=True)
    looked = lookups(code_map, questions)
    loaded_after_lookups = code_map.graph_loaded
    used = uses(code_map, questions)
    assert code_map.load_graph()
    return Answers(
        looked,
        loaded_after_lookups,
        used,
        (lookups(code_map, questions), uses(code_map, questions)),
    )


def store_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table's rows of the store at `path`, sorted (read from a copy: the store
    stays as it was left), but for when it was written (`TIMED_KEYS`)."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / path.name
        for suffix in ("", "-wal"):
            if path.with_name(path.name + suffix).exists():
                shutil.copyfile(path.with_name(path.name + suffix), Path(f"{copy}{suffix}"))
        with sqlite3.connect(copy) as db:
            tables = [
                row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            ]
            rows = {table: sorted(db.execute(f'SELECT * FROM "{table}"')) for table in tables}
        db.close()
    rows["meta"] = [row for row in rows.get("meta", []) if row[0] not in TIMED_KEYS]
    rows["links"] = [
        (path, *_link_facts(blob), open_names) for path, blob, open_names in rows.get("links", [])
    ]
    return rows


def _link_facts(blob: bytes) -> tuple[tuple[Any, ...], frozenset[tuple[str, int]]]:
    """What a `links` row says: each reference's resolution, and the (name, reference)
    pairs consulted."""
    results, consulted = decode_links(blob, {})
    pairs = frozenset((name, i) for name in consulted.names() for i in consulted.indexes([name]))
    return tuple(results), pairs


def start(
    root: Path, store: Path | None, mode: str, questions: Questions | None = None
) -> Callable[[], Any]:
    """Start a new process that opens the map of `root` (see the module); the returned
    function waits for it and gives its answer."""
    args = [str(root), "" if store is None else str(store), mode]
    if questions is not None:
        args.append(json.dumps(asdict(questions)))
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.map.restart_child", *args],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(REPO_ROOT)},
    )

    def finish() -> Any:
        out, err = child.communicate(timeout=KILL_DEADLINE_S)
        assert child.returncode == 0, f"{mode} of {root} failed:\n{err.decode()}"
        return pickle.loads(out)

    return finish


def in_new_process(
    root: Path, store: Path | None, mode: str, questions: Questions | None = None
) -> Any:
    """`start` a new process and wait for its answer."""
    return start(root, store, mode, questions)()


def main(argv: list[str]) -> None:
    root, store_dir, mode = Path(argv[0]), argv[1], argv[2]
    store = Path(store_dir) if store_dir else None
    if mode == "state":
        result: Any = map_state(CodeMap.open(root, settings(store)))
    elif mode == "answers":
        found = json.loads(argv[3])
        result = answers(root, store, Questions(**{k: tuple(v) for k, v in found.items()}))
    else:
        raise SystemExit(f"unknown mode {mode!r}")
    sys.stdout.buffer.write(pickle.dumps(result))


if __name__ == "__main__":  # by its module name: what it pickles unpickles in the test
    from tests.map.restart_child import main as run

    run(sys.argv[1:])
