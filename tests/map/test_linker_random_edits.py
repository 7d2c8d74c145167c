"""Random edits to real code (networkx's own sources): incremental linking equals a fresh link."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import networkx as nx

from map import UnresolvedUse
from map.extract import extract_file
from map.graph import MapGraph
from map.linker import Change, Linker
from map.model import FileExtract
from tests.map.graph_state import graph_state

PACKAGE = Path(nx.__file__).parent
CORPUS = ("classes", "algorithms/shortest_paths", "algorithms/traversal", "utils")
STEPS = 16


def _sources() -> dict[str, bytes]:
    found = {"networkx/__init__.py": (PACKAGE / "__init__.py").read_bytes()}
    for folder in CORPUS:
        for path in sorted((PACKAGE / folder).glob("*.py")):
            found[f"networkx/{folder}/{path.name}"] = path.read_bytes()
    return found


def _link(sources: dict[str, bytes]) -> tuple[MapGraph, Linker]:
    graph: MapGraph = nx.MultiDiGraph()
    linker = Linker(graph)
    linker.apply({p: (None, extract_file(p, s)) for p, s in sources.items()}, {})
    return graph, linker


def _details(linker: Linker) -> dict[str, list[tuple[str, str, str, dict[str, Any]]]]:
    """Every file's uses and imports with their lines and candidates (the linker's)."""
    return {path: sorted(linker.use_edges(path)) for path in linker.extracts}


def _open(linker: Linker) -> tuple[dict[str, frozenset[str]], list[UnresolvedUse]]:
    """The names each file left open, and every open use (the linker's record)."""
    names = linker.open_uses.names()
    return names, linker.open_uses.named(frozenset().union(*names.values()))


def _mutate(rnd: random.Random, sources: dict[str, bytes], step: int) -> dict[str, bytes | None]:
    """One random change: path -> new bytes (None: deleted)."""
    path = rnd.choice(sorted(sources))
    kind = rnd.choice(["rename_def", "delete", "copy", "move", "drop_import", "rename_base"])
    text = sources[path]
    if kind == "rename_def":
        names = [a or b for a, b in re.findall(rb"^\s*def (\w+)|^\s*class (\w+)", text, re.M)]
        if names:
            name = rnd.choice(names)
            return {path: re.sub(rb"\b" + name + rb"\b", name + b"_x", text, count=1)}
    if kind == "rename_base":
        return {path: re.sub(rb"class (\w+)\((\w+)\)", rb"class \1(object)", text, count=1)}
    if kind == "delete":
        return {path: None}
    if kind == "copy":
        return {path.replace(".py", f"_copy{step}.py"): text}
    if kind == "move":
        return {path: None, path.replace(".py", f"_moved{step}.py"): text}
    lines = text.split(b"\n")
    imports = [i for i, line in enumerate(lines) if line.startswith((b"from ", b"import "))]
    if imports:
        del lines[rnd.choice(imports)]
    return {path: b"\n".join(lines)}


def test_random_edits_link_like_a_fresh_build() -> None:
    rnd = random.Random(20261122)
    sources = _sources()
    graph, linker = _link(sources)
    for step in range(STEPS):
        edits = _mutate(rnd, sources, step)
        changes: dict[str, Change] = {}
        for path, data in edits.items():
            old: FileExtract | None = linker.extracts.get(path)
            if data is None:
                del sources[path]
                changes[path] = (old, None)
            else:
                sources[path] = data
                changes[path] = (old, extract_file(path, data))
        linker.apply(changes, {})
        fresh, fresh_linker = _link(sources)
        assert graph_state(graph) == graph_state(fresh), (step, sorted(edits))
        assert _details(linker) == _details(fresh_linker), (step, sorted(edits))
        assert _open(linker) == _open(fresh_linker), (step, sorted(edits))
