"""`team`: the map shared by a team through a real PostgreSQL server (docs/team-store.md),
side by side with a cold local build in the same run.

The corpus is committed to a git repository (untimed), and a throwaway PostgreSQL
server is started as the tests start one (tests/pgserver.py). Then fresh `codeanchor
map build --root CLONE --json` processes are timed from start to exit, each in its own
clone:

    cold local build      a clone, no store: the baseline
    first clone           --store, the store empty: extracts everything, publishes it
    second clone          --store, at another path, the store's rows filled by the
                          first (no linked map yet): extracts nothing, links
    CI: map publish       `map publish` in the first clone: its linked map, as the
                          map of its commit
    clone at that commit  --store, a third path: starts from the linked map
    a clone one commit later
                          CHANGED files edited and committed in the origin, cloned
                          again: starts from the parent's linked map, extracts only
                          those files (the run fails otherwise) and relinks

and the store's size (the rows' table with its index, the rows' bytes, the linked
map) per MB of source. The maps of the second clone and of the clone at the
published commit must equal the local build's (nodes with their attributes, edges
with theirs, open uses; compared untimed): the run fails otherwise.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import psycopg

from map import CodeMap
from map.store.team_store import SNAPSHOTS, TABLE
from mapbench.build import PROBE
from mapbench.procs import Exited, codeanchor, run_to_exit
from tests.gitrepo import commit_all, git
from tests.map.graph_state import graph_state
from tests.pgserver import running_postgres

COLD = "cold local build: fresh `map build`, no store"
FIRST = "team store: first clone, store empty (extract all, publish)"
SECOND = "team store: second clone at another path, rows filled, no linked map"
PUBLISH = "team store: CI's `map publish` of the first clone (linked map)"
LINKED = "team store: a clone at the published commit (linked map)"
LATER = "team store: a clone one commit later (parent's linked map)"
CHANGED = 3
"""Files edited in the commit the last clone is one later by."""


def team(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    """Every build of the module docstring, in clones of `root` under a scratch folder."""
    scratch = root.parent / f"{root.name}-team-{args['seq']}"
    shutil.rmtree(scratch, ignore_errors=True)
    origin = scratch / "origin"
    shutil.copytree(root, origin, ignore=shutil.ignore_patterns(".codeanchor"))
    commit_all(origin, "corpus")
    timings: dict[str, float] = {}
    notes: dict[str, list[str]] = {}
    peaks: list[float] = []
    try:
        with running_postgres() as server:
            dsn = server.create_database("bench")
            local = _clone(origin, scratch / "local")
            cold, cold_data = _build(local)
            _record(timings, notes, peaks, COLD, cold, cold_data)
            first, data = _build(_clone(origin, scratch / "a" / "repo"), dsn)
            _record(timings, notes, peaks, FIRST, first, data)
            second_root = _clone(origin, scratch / "elsewhere" / "deeper" / "checkout")
            second, data = _build(second_root, dsn)
            _record(timings, notes, peaks, SECOND, second, data)
            notes[SECOND].append(f"{second.seconds / cold.seconds:.0%} of the cold local build")
            published, data = _build(scratch / "a" / "repo", dsn, "publish")
            _record(timings, notes, peaks, PUBLISH, published, data)
            notes[PUBLISH].append(_store_size(dsn, float(args["megabytes"])))
            linked_root = _clone(origin, scratch / "third" / "checkout")
            linked, data = _build(linked_root, dsn)
            if data["teamStore"]["snapshot"] is None:
                raise RuntimeError("a clone at the published commit did not take its linked map")
            _record(timings, notes, peaks, LINKED, linked, data)
            notes[LINKED].append(f"{linked.seconds / cold.seconds:.0%} of the cold local build")
            edited = _commit_edits(origin, _edited(origin, [str(args["file"]), *args["others"]]))
            later, data = _build(_clone(origin, scratch / "c" / "repo"), dsn)
            if data["teamStore"]["extracted"] != len(edited):
                raise RuntimeError(
                    f"a clone one commit later extracted {data['teamStore']['extracted']} "
                    f"files, not the {len(edited)} the commit changed"
                )
            _record(timings, notes, peaks, LATER, later, data)
            notes[LATER].append(f"{later.seconds / cold.seconds:.0%} of the cold local build")
            # compared last: a map loaded here would count in the RSS of every process
            # started after it (a child's peak includes the pages it shares at its fork)
            notes[SECOND].append(_same_map(second_root, local))
            notes[LINKED].append(_same_map(linked_root, local))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return {
        "timings": timings,
        "rss_of": "`map build` process",
        "process_rss_mb": max(peaks),
        "notes": notes,
    }


def _clone(origin: Path, where: Path) -> Path:
    where.parent.mkdir(parents=True, exist_ok=True)
    git(origin, "clone", "-q", str(origin), str(where))
    return where


def _build(
    root: Path, dsn: str | None = None, action: str = "build"
) -> tuple[Exited, dict[str, Any]]:
    """A fresh `map build` (or `action`) of `root`, with the team store at `dsn`, to its exit."""
    store = [] if dsn is None else ["--store", dsn]
    done = run_to_exit(codeanchor("map", action, "--root", str(root), "--json", *store))
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or ["no output"]
        raise RuntimeError(f"map build exited {done.returncode}: {last[0]}")
    data: dict[str, Any] = json.loads(done.stdout)["data"]
    return done, data


def _record(
    timings: dict[str, float],
    notes: dict[str, list[str]],
    peaks: list[float],
    label: str,
    done: Exited,
    data: dict[str, Any],
) -> None:
    timings[label] = done.seconds
    peaks.append(done.peak_mb)
    said = [f"{data['symbols']} symbols, {data['edges']} edges", f"RSS {done.peak_mb:.0f} MB"]
    shared = data["teamStore"]
    if shared["inUse"]:
        said.append(
            f"{shared['fetched']} files taken, {shared['extracted']} extracted, "
            f"{shared['published']} published, {shared['refused']} refused"
            + (f", from the linked map of {shared['snapshot'][:10]}" if shared["snapshot"] else "")
        )
    notes[label] = said


def _same_map(built: Path, local: Path) -> str:
    """Whether two maps hold the same nodes, edges and open uses (raises when not)."""
    digests = [_digest(CodeMap.open(root, refresh=False)) for root in (built, local)]
    if digests[0] != digests[1]:
        raise RuntimeError("the second clone's map differs from the cold local build's")
    return "same map as the local build (nodes, edges, open uses)"


def _digest(code_map: CodeMap) -> str:
    return hashlib.blake2b(repr(graph_state(code_map)).encode(), digest_size=16).hexdigest()


def _store_size(dsn: str, megabytes: float) -> str:
    with psycopg.connect(dsn) as conn:
        found = conn.execute(
            f"SELECT pg_total_relation_size('{TABLE}'), coalesce(sum(octet_length(extract)), 0), "
            f"count(*), (SELECT coalesce(sum(octet_length(store)), 0) FROM {SNAPSHOTS}) "
            f"FROM {TABLE}"
        ).fetchone()
    table, rows_bytes, rows, linked = found if found else (0, 0, 0, 0)
    return (
        f"rows table {table / 1e6:.1f} MB ({table / 1e6 / megabytes:.2f} MB per MB of source; "
        f"rows {rows_bytes / 1e6:.1f} MB, {rows} rows); linked map of a commit "
        f"{linked / 1e6:.1f} MB ({linked / 1e6 / megabytes:.2f} MB per MB)"
    )


def _commit_edits(origin: Path, files: list[str]) -> list[str]:
    """Append a function to each of `files` in `origin` and commit."""
    for seq, rel in enumerate(files):
        path = origin / rel
        path.write_bytes(path.read_bytes() + PROBE.format(seq=seq).encode())
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "a few edits")
    return files


def _edited(origin: Path, named: list[str]) -> list[str]:
    """The files the later commit edits: those named, then the first other Python files."""
    named = list(dict.fromkeys(named))
    others = (rel for rel in git(origin, "ls-files", "*.py").split() if rel not in named)
    while len(named) < CHANGED:
        named.append(next(others))
    return named[:CHANGED]
