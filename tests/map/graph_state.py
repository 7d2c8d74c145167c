"""Helpers for map tests: a copy of the fixture repo, git in it, a comparable graph state."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Any

from map import UnresolvedUse
from map.graph.mapgraph import MapGraph
from map.live.codemap import CodeMap, MapSettings
from tests.gitrepo import git as git  # the map tests' git: one helper for every test

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "map_repo"


def copy_repo(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/map_repo under tmp_path."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    return root


def age(root: Path) -> None:
    """Date every directory under `root` an hour back: settled, as a walk trusts them."""
    old = time.time_ns() - 3600 * 10**9
    for directory in [root, *(p for p in root.rglob("*") if p.is_dir())]:
        os.utime(directory, ns=(old, old))


def graph_state(of: CodeMap | MapGraph) -> tuple[Any, ...]:
    """Every node with its attributes and every edge with its attributes, comparable
    (of a map, or of a bare graph the linker built); of a map, also every use linking
    left open (`open_uses`)."""
    graph = of.graph if isinstance(of, CodeMap) else of
    nodes = {node: dict(data) for node, data in graph.nodes(data=True)}
    edges = sorted(
        (u, v, k, sorted(data.items())) for u, v, k, data in graph.edges(keys=True, data=True)
    )
    if isinstance(of, CodeMap):
        return nodes, edges, open_uses(of)
    return nodes, edges


def open_uses(code_map: CodeMap) -> list[UnresolvedUse]:
    """Every use of the map linking left open (to nothing of ours, or a guess)."""
    names = {
        ref.name
        for path in code_map.files()
        if (extract := code_map.extract_of(path)) is not None
        for ref in extract.references
    }
    found = code_map.unresolved_named(names)
    assert found is not None, "the open uses were not weighed"
    return found


def fresh(root: Path, tmp_path: Path) -> CodeMap:
    """A from-scratch map of `root` (its snapshot kept apart)."""
    snapshots = tmp_path / "fresh-snapshots"
    shutil.rmtree(snapshots, ignore_errors=True)
    return CodeMap.open(root, MapSettings(snapshot_dir=str(snapshots)))
