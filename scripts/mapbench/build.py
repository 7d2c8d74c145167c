"""The map benchmark's in-process measures: the floors, the cold build and an edit.

Each takes the corpus root and the parent's arguments and returns its figures
(`seconds` and what else it saw); scripts/mapbench/runner.py runs each in a
fresh child process, so the peak RSS it reports is that measure's own.
"""

from __future__ import annotations

import gc
import multiprocessing
import shutil
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tree_sitter import Parser, QueryCursor, Tree

from disk.stamps import content_hash
from map import BuildPhase
from map.extraction.extract import extract_lists
from map.extraction.languages import extraction_query, grammar, language_for
from map.intake.load import CHUNK_FILES, POOL_THRESHOLD
from map.intake.walk import list_files
from map.live.codemap import CodeMap, MapSettings
from mapbench.corpora import accepted

UPDATES = frozenset({"update-median", "update-largest", "update-scan"})
FULL_TREE = frozenset({"floor-read", "floor-parse", "floor-query", "extract-only", "cold"})
"""The measures that work on every file (so a cost per MB means something)."""
PROBE = "\n\ndef _codeanchor_bench_probe_{seq}():\n    return {seq}\n"
"""The function an edit appends to a file (`seq` tells the edits apart)."""


@contextmanager
def _as_map_worker() -> Iterator[None]:
    """Run a chunk as the map's pool workers do (map.intake.load): what was there before is
    frozen out of the collector's view, no automatic collection, one at the end."""
    gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        gc.collect()
        gc.enable()


def _parse_chunk(root: str, rels: list[str]) -> int:
    """Parse each file with its grammar (no queries); the count of top-level nodes."""
    return sum(tree.root_node.child_count for _, tree in _parsed(root, rels))


def _query_chunk(root: str, rels: list[str]) -> int:
    """Parse each file and run its language's extraction query (the matching, in C,
    and the nodes it hands back), with nothing done with the matches; their count."""
    with _as_map_worker():
        return sum(
            len(QueryCursor(extraction_query(language)).matches(tree.root_node))
            for language, tree in _parsed(root, rels)
        )


def _parsed(root: str, rels: list[str]) -> Iterator[tuple[str, Tree]]:
    """(language, tree) of each file the map has a language for."""
    parsers: dict[str, Parser] = {}
    for rel in rels:
        language = language_for(rel)
        if language is not None:
            parser = parsers.setdefault(language, Parser(grammar(language)))
            yield language, parser.parse((Path(root) / rel).read_bytes())


def floor_read(root: Path, _args: dict[str, Any]) -> dict[str, Any]:
    started = time.perf_counter()
    rels = list_files(root, accept=accepted).files
    for rel in rels:
        content_hash((root / rel).read_bytes())
    return {"seconds": time.perf_counter() - started}


def _extract_chunk(root: str, rels: list[str]) -> int:
    """Extract each file as the map's pool workers do (the store's lists, never the
    extract's objects); the count of symbols found."""
    with _as_map_worker():
        return sum(len(extract_lists(rel, (Path(root) / rel).read_bytes())[2]) for rel in rels)


def _in_pool(root: Path, workers: int, task: Callable[[str, list[str]], int]) -> dict[str, Any]:
    """List the files, then run `task` over them as the map's loader would; timed.

    Same settings as `map.intake.load.load_many`: in this process up to its pool
    threshold, else `workers` forkserver processes fed chunks of its size.
    """
    started = time.perf_counter()
    rels = list(list_files(root, accept=accepted).files)
    if len(rels) <= POOL_THRESHOLD or workers <= 1:
        task(str(root), rels)
    else:
        chunks = [rels[index : index + CHUNK_FILES] for index in range(0, len(rels), CHUNK_FILES)]
        context = multiprocessing.get_context("forkserver")
        with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
            sum(pool.map(task, [str(root)] * len(chunks), chunks))
    return {"seconds": time.perf_counter() - started}


def floor_parse(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    return _in_pool(root, int(args["workers"]), _parse_chunk)


def floor_query(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    return _in_pool(root, int(args["workers"]), _query_chunk)


def extract_only(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    return _in_pool(root, int(args["workers"]), _extract_chunk)


def _settings(args: dict[str, Any]) -> MapSettings:
    return MapSettings(workers=int(args["workers"]))


class GcTimer:
    """Sums the pauses of the cyclic garbage collector inside a `with` block."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._started = 0.0

    def __enter__(self) -> GcTimer:
        gc.callbacks.append(self._on_gc)
        return self

    def __exit__(self, *exc_info: object) -> None:
        gc.callbacks.remove(self._on_gc)

    def _on_gc(self, phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds += time.perf_counter() - self._started


def cold(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    """No map store: `open` builds everything and saves.

    Also split into its phases, as the build's progress reports them: the scan
    (list, read, extract in the pool) ends with the last `reading` report, the
    link with the first `saving` one, and the rest is the save.
    """
    shutil.rmtree(root / ".codeanchor", ignore_errors=True)
    scanned = [0.0]
    saving: list[float] = []

    def progress(phase: BuildPhase, _done: int, _total: int) -> None:
        if phase == "reading":
            scanned[0] = time.perf_counter()
        elif phase == "saving" and not saving:
            saving.append(time.perf_counter())

    with GcTimer() as collector:
        started = time.perf_counter()
        codemap = CodeMap.open(root, _settings(args), progress)
        ended = time.perf_counter()
    status = codemap.status()
    linked = saving[0] if saving else ended
    scan_end = scanned[0] or linked
    return {
        "seconds": ended - started,
        "gc_seconds": collector.seconds,
        "phases": {"scan": scan_end - started, "link": linked - scan_end, "save": ended - linked},
        "symbols": status.symbols,
        "edges": status.edges,
    }


def update(root: Path, args: dict[str, Any]) -> dict[str, Any]:
    """Append a function to one file, then time the rebuild that takes it in and
    the save that persists it (what a watcher runs after an edit).

    The graph is loaded first (untimed), as in a server that has been answering.
    """
    path = root / str(args["file"])
    original = path.read_bytes()
    codemap = CodeMap.open(root, _settings(args))
    nodes = codemap.graph.number_of_nodes()  # a running server has its graph loaded already
    try:
        path.write_bytes(original + PROBE.format(seq=args["seq"]).encode())
        with GcTimer() as collector:
            started = time.perf_counter()
            report = codemap.rebuild(paths=[args["file"]]) if args["told"] else codemap.rebuild()
            codemap.save()
            seconds = time.perf_counter() - started
    finally:
        path.write_bytes(original)
        codemap.rebuild(paths=[args["file"]])  # untimed: leave the store as the disk is
        codemap.save()
    if report.files_changed != [args["file"]]:
        raise RuntimeError(f"expected one re-extracted file, got {report.files_changed[:5]}")
    return {
        "seconds": seconds,
        "gc_seconds": collector.seconds,
        "files_relinked": report.files_relinked,
        "nodes": nodes,
    }


IN_PROCESS: dict[str, Callable[[Path, dict[str, Any]], dict[str, Any]]] = {
    "floor-read": floor_read,
    "floor-parse": floor_parse,
    "floor-query": floor_query,
    "extract-only": extract_only,
    "cold": cold,
    "update-median": update,
    "update-largest": update,
    "update-scan": update,
}
"""Each in-process measure by name."""
