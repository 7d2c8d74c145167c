"""Random edits to real code (networkx's own sources; Go's text/template and the
packages beside it): incremental linking equals a fresh link."""

from __future__ import annotations

import random
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from map import UnresolvedUse
from map.extraction.extract import extract_file
from map.graph.mapgraph import MapGraph
from map.linking.layout import Layout
from map.linking.link_input import Change
from map.linking.linker import Linker
from map.model import FileExtract
from tests.map.graph_state import graph_state

STEPS = 16


@dataclass(frozen=True)
class Corpus:
    """Real sources to edit, and how edits find what to change in them."""

    root: Path
    folders: tuple[str, ...]
    suffix: str
    definition: bytes
    """A regex whose first non-empty group is a defined name."""
    import_line: bytes
    """What an import line starts with."""
    retype: tuple[bytes, bytes]
    """A regex and its replacement that change what a name is (a base, a type)."""
    layout: Layout


def _networkx() -> Corpus:
    root = Path(nx.__file__).parent.parent
    folders = ("classes", "algorithms/shortest_paths", "algorithms/traversal", "utils")
    return Corpus(
        root,
        ("networkx/__init__.py", *(f"networkx/{folder}" for folder in folders)),
        ".py",
        rb"^\s*def (\w+)|^\s*class (\w+)",
        b"from |import ",
        (rb"class (\w+)\((\w+)\)", rb"class \1(object)"),
        Layout(),
    )


def _go_text() -> Corpus:
    go = shutil.which("go")
    if go is None:
        pytest.skip("no Go toolchain (scripts/setup.sh installs golang-go)")
    goroot = subprocess.run([go, "env", "GOROOT"], capture_output=True, text=True, check=True)
    return Corpus(
        Path(goroot.stdout.strip()) / "src",
        ("text",),
        ".go",
        rb"^func (?:\([^)]*\) )?(\w+)|^type (\w+)",
        b'\t"',
        (rb"\((\w) \*?(\w+)\)", rb"(\1 *Other)"),  # a receiver or parameter retyped
        Layout({"": "std"}),
    )


CORPORA = {"python": _networkx, "go": _go_text}


def _sources(corpus: Corpus) -> dict[str, bytes]:
    found: dict[str, bytes] = {}
    for folder in corpus.folders:
        top = corpus.root / folder
        paths = [top] if top.is_file() else sorted(top.rglob(f"*{corpus.suffix}"))
        for path in paths:
            if "testdata" not in path.parts:
                found[path.relative_to(corpus.root).as_posix()] = path.read_bytes()
    return found


def _link(sources: dict[str, bytes], corpus: Corpus) -> tuple[MapGraph, Linker]:
    graph: MapGraph = nx.MultiDiGraph()
    linker = Linker(graph)
    linker.apply({p: (None, extract_file(p, s)) for p, s in sources.items()}, corpus.layout)
    return graph, linker


def _details(linker: Linker) -> dict[str, list[tuple[str, str, str, dict[str, Any]]]]:
    """Every file's uses and imports with their lines and candidates (the linker's)."""
    return {path: sorted(linker.use_edges(path)) for path in linker.extracts}


def _open(linker: Linker) -> tuple[dict[str, frozenset[str]], list[UnresolvedUse]]:
    """The names each file left open, and every open use (the linker's record)."""
    names = linker.open_uses.names()
    return names, linker.open_uses.named(frozenset().union(*names.values()))


def _mutate(
    rnd: random.Random, sources: dict[str, bytes], step: int, corpus: Corpus
) -> dict[str, bytes | None]:
    """One random change: path -> new bytes (None: deleted)."""
    path = rnd.choice(sorted(sources))
    kind = rnd.choice(["rename_def", "delete", "copy", "move", "drop_import", "retype"])
    text = sources[path]
    suffix = corpus.suffix
    if kind == "rename_def":
        names = [next(g for g in found if g) for found in re.findall(corpus.definition, text, re.M)]
        if names:
            name = rnd.choice(names)
            return {path: re.sub(rb"\b" + name + rb"\b", name + b"_x", text, count=1)}
    if kind == "retype":
        return {path: re.sub(*corpus.retype, text, count=1)}
    if kind == "delete":
        return {path: None}
    if kind == "copy":
        return {path.replace(suffix, f"_copy{step}{suffix}"): text}
    if kind == "move":
        return {path: None, path.replace(suffix, f"_moved{step}{suffix}"): text}
    lines = text.split(b"\n")
    imports = [i for i, line in enumerate(lines) if line.startswith(corpus.import_line)]
    if imports:
        del lines[rnd.choice(imports)]
    return {path: b"\n".join(lines)}


@pytest.mark.parametrize("language", sorted(CORPORA))
def test_random_edits_link_like_a_fresh_build(language: str) -> None:
    corpus = CORPORA[language]()
    rnd = random.Random(20261122)
    sources = _sources(corpus)
    graph, linker = _link(sources, corpus)
    for step in range(STEPS):
        edits = _mutate(rnd, sources, step, corpus)
        changes: dict[str, Change] = {}
        for path, data in edits.items():
            old: FileExtract | None = linker.extracts.get(path)
            if data is None:
                del sources[path]
                changes[path] = (old, None)
            else:
                sources[path] = data
                changes[path] = (old, extract_file(path, data))
        linker.apply(changes, corpus.layout)
        fresh, fresh_linker = _link(sources, corpus)
        assert graph_state(graph) == graph_state(fresh), (step, sorted(edits))
        assert _details(linker) == _details(fresh_linker), (step, sorted(edits))
        assert _open(linker) == _open(fresh_linker), (step, sorted(edits))
