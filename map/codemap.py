"""The stateful map of one repository: open, rebuild incrementally, save, ask.

`CodeMap.open` loads the snapshot when it can be trusted, checks every file
against the disk (stat stamp first, content hash when the stamp moved) and
re-extracts only what changed; without a usable snapshot it builds from
scratch. `rebuild` does the same check at any time. Files flagged with
`mark_stale` stay stale until a rebuild that started after the flag.
"""

from __future__ import annotations

import difflib
import logging
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

import networkx as nx

from disk.stamps import FileStamp
from map import query, snapshot
from map.errors import SnapshotError, UnknownNodeError
from map.graph import MapGraph
from map.ingest import load_many
from map.languages import language_for
from map.linker import Change, Linker
from map.model import EdgeKind, FileExtract, Symbol
from map.walk import list_files

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
SUGGESTIONS = 5


@dataclass(frozen=True)
class MapSettings:
    """How the map reads a repository."""

    max_file_bytes: int = 1_000_000
    exclude: tuple[str, ...] = ()
    """Extra gitignore-style patterns to leave out."""
    workers: int = 0
    """Extraction processes when many files changed; 0 picks from the CPU count."""
    snapshot_dir: str = ".codeanchor"
    """Where the snapshot lives (relative to the root, or absolute)."""


@dataclass(frozen=True)
class BuildReport:
    """What one rebuild did. `files_changed` lists every re-extracted file (added ones too)."""

    files_total: int
    files_changed: list[str]
    files_removed: list[str]
    files_added: list[str]
    skipped: dict[str, int]
    duration_s: float
    full: bool
    files_relinked: int = 0


@dataclass(frozen=True)
class MapStatus:
    """The map at a glance."""

    files: int
    symbols: int
    edges: int
    languages: dict[str, int]
    stale_files: tuple[str, ...]
    last_build_s: float
    built_at: datetime
    skipped: dict[str, int] = field(default_factory=dict)


class CodeMap:
    """Symbols and edges of one repository, kept equal to the disk by rebuilds."""

    def __init__(self, root: Path, settings: MapSettings) -> None:
        self.root = root.resolve()
        self.settings = settings
        self.graph: MapGraph = nx.MultiDiGraph()
        self.built_at = datetime.fromtimestamp(0, UTC)
        self._linker = Linker(self.graph)
        self._files: dict[str, tuple[FileStamp, FileExtract]] = {}
        self._skipped_files: dict[str, tuple[FileStamp, str]] = {}
        self._skipped: dict[str, int] = {}
        self._stale: dict[str, int] = {}
        self._last_duration = 0.0
        self.last_report: BuildReport | None = None

    @classmethod
    def open(
        cls, root: Path, settings: MapSettings | None = None, progress: Progress | None = None
    ) -> CodeMap:
        """The map of `root`: from its snapshot when valid (changed files re-extracted),
        else built from scratch. Saves the snapshot when anything was rebuilt."""
        codemap = cls(root, settings or MapSettings())
        try:
            state = snapshot.load(codemap.snapshot_path, str(codemap.root))
        except SnapshotError as exc:
            log.info("building the map of %s from scratch: %s", codemap.root, exc)
            trusted = False
        else:
            codemap._files = dict(state.files)
            codemap._skipped_files = dict(state.skipped)
            codemap.built_at = state.built_at
            codemap._last_duration = state.duration_s
            trusted = True
        report = codemap.rebuild(progress)
        if not trusted or report.files_changed or report.files_removed:
            codemap.save()
        return codemap

    @property
    def snapshot_path(self) -> Path:
        """Where `save` writes."""
        directory = Path(self.settings.snapshot_dir)
        return (directory if directory.is_absolute() else self.root / directory) / (
            snapshot.SNAPSHOT_NAME
        )

    def rebuild(self, progress: Progress | None = None) -> BuildReport:
        """Check every file against the disk and bring the graph up to date."""
        started = time.monotonic()
        flagged_before = time.monotonic_ns()
        scan_time = datetime.now(UTC)
        listing = list_files(
            self.root,
            accept=lambda p: language_for(p) is not None,
            exclude=self.settings.exclude,
            snapshot_dir=self.settings.snapshot_dir,
        )
        files: dict[str, tuple[FileStamp, FileExtract]] = {}
        skipped: dict[str, tuple[FileStamp, str]] = {}
        to_load: list[tuple[str, str | None]] = []
        for path in listing.files:
            stamp = FileStamp.of(self.root / path)
            known = self._files.get(path)
            passed = self._skipped_files.get(path)
            if stamp is None:
                continue
            if known is not None and known[0] == stamp:
                files[path] = known
            elif passed is not None and passed[0] == stamp:
                skipped[path] = passed
            else:
                to_load.append((path, known[1].content_hash if known is not None else None))
        reextracted: list[str] = []
        for loaded in load_many(
            self.root,
            to_load,
            max_bytes=self.settings.max_file_bytes,
            workers=self.settings.workers,
            progress=progress,
        ):
            if loaded.stamp is None:
                continue
            if loaded.skipped is not None:
                skipped[loaded.path] = (loaded.stamp, loaded.skipped)
            elif loaded.extract is not None:
                files[loaded.path] = (loaded.stamp, loaded.extract)
                reextracted.append(loaded.path)
            else:
                files[loaded.path] = (loaded.stamp, self._files[loaded.path][1])
        stats = self._linker.apply(self._changes(files), self._go_modules(listing.go_mods))
        full = not self._files
        report = BuildReport(
            files_total=len(files),
            files_changed=sorted(reextracted),
            files_removed=sorted(p for p in self._files if p not in files),
            files_added=sorted(p for p in reextracted if p not in self._files),
            skipped=dict(Counter(listing.skipped) + Counter(r for _, r in skipped.values())),
            duration_s=time.monotonic() - started,
            full=full,
            files_relinked=stats.files_relinked,
        )
        self._files, self._skipped_files, self._skipped = files, skipped, report.skipped
        self._stale = {p: t for p, t in self._stale.items() if t > flagged_before}
        self.built_at = scan_time
        self._last_duration = report.duration_s
        self.last_report = report
        return report

    def save(self) -> None:
        """Write the snapshot (atomically)."""
        snapshot.save(
            self.snapshot_path,
            snapshot.SnapshotState(
                root=str(self.root),
                built_at=self.built_at,
                duration_s=self._last_duration,
                files=self._files,
                skipped=self._skipped_files,
            ),
        )

    def node(self, node_id: str) -> dict[str, Any]:
        """A node's attributes (plus its `id`); raises UnknownNodeError with suggestions."""
        if node_id not in self.graph:
            raise UnknownNodeError(node_id, self._suggestions(node_id))
        return {"id": node_id, **self.graph.nodes[node_id]}

    def extract_of(self, path: str) -> FileExtract | None:
        """What extraction learned about a file, or None when it is not in the map."""
        known = self._files.get(path)
        return known[1] if known is not None else None

    def symbols_in(self, path: str) -> list[Symbol]:
        """The symbols of a file, in file order ([] when it is not in the map)."""
        extract = self.extract_of(path)
        return list(extract.symbols) if extract is not None else []

    def mark_stale(self, paths: Iterable[str]) -> None:
        """Flag files as changed on disk since the last build (until the next one)."""
        now = time.monotonic_ns()
        for path in paths:
            relative = self._relative(path)
            if relative is not None:
                self._stale[relative] = now

    def stale_files(self) -> frozenset[str]:
        """Files changed on disk since `built_at`, as far as the map was told."""
        return frozenset(self._stale)

    def status(self) -> MapStatus:
        """Counts, languages, stale files and the last build."""
        languages = Counter(extract.language for _, extract in self._files.values())
        return MapStatus(
            files=len(self._files),
            symbols=self.graph.number_of_nodes() - len(self._files),
            edges=self.graph.number_of_edges(),
            languages=dict(sorted(languages.items())),
            stale_files=tuple(sorted(self._stale)),
            last_build_s=self._last_duration,
            built_at=self.built_at,
            skipped=dict(self._skipped),
        )

    def search(
        self, pattern: str, *, kinds: Iterable[str] | None = None, limit: int = 50
    ) -> list[query.Hit]:
        """Symbols (and files) by name, glob or regex; see `query.search`."""
        return query.search(self.graph, pattern, kinds=kinds, limit=limit)

    def outline(self, path: str) -> list[query.OutlineEntry]:
        """The symbols of a file, nested, in file order."""
        self._require(path)
        return query.outline(self.graph, path)

    def neighbors(
        self,
        node_id: str,
        direction: str = "out",
        kinds: Iterable[EdgeKind] | None = None,
        depth: int = 1,
    ) -> list[query.Neighbor]:
        """Nodes reached along edges of `kinds`, out (callees) or in (callers), to `depth`."""
        self._require(node_id)
        return query.neighbors(self.graph, node_id, direction, kinds, depth)

    def path(self, source: str, target: str) -> list[str]:
        """The shortest chain of node IDs from `source` to `target` ([] when none)."""
        self._require(source)
        self._require(target)
        return query.path(self.graph, source, target)

    def impact(self, node_id: str, depth: int | None = None) -> list[query.Neighbor]:
        """What depends on `node_id`, transitively."""
        self._require(node_id)
        return query.impact(self.graph, node_id, depth)

    def overview(self, token_budget: int = 1024) -> query.Overview:
        """The repo map: most central symbols first, within `token_budget`."""
        return query.overview(self.graph, token_budget)

    def _require(self, node_id: str) -> None:
        if node_id not in self.graph:
            raise UnknownNodeError(node_id, self._suggestions(node_id))

    def _suggestions(self, node_id: str) -> list[str]:
        path, _, qual = node_id.partition("#")
        if qual and path in self.graph:
            pool = [n for _, n, k in self.graph.out_edges(path, keys=True) if k == "contains"]
            pool += [s.node_id for s in self.symbols_in(path)]
        else:
            last = PurePosixPath(path).name
            pool = [p for p in self._files if PurePosixPath(p).name == last or not qual]
        return difflib.get_close_matches(node_id, sorted(set(pool)), n=SUGGESTIONS, cutoff=0.5)

    def _relative(self, path: str) -> str | None:
        pure = Path(path)
        if not pure.is_absolute():
            return PurePosixPath(path).as_posix()
        try:
            return PurePosixPath(pure.relative_to(self.root)).as_posix()
        except ValueError:
            return None

    def _changes(self, files: dict[str, tuple[FileStamp, FileExtract]]) -> dict[str, Change]:
        """What the linker must learn: files whose extract it does not hold yet, and gone ones."""
        linked = self._linker.extracts
        changes: dict[str, Change] = {}
        for path, (_, extract) in files.items():
            old = linked.get(path)
            if old is not extract:
                changes[path] = (old, extract)
        for path, old in linked.items():
            if path not in files:
                changes[path] = (old, None)
        return changes

    def _go_modules(self, go_mods: tuple[str, ...]) -> dict[str, str]:
        modules: dict[str, str] = {}
        for rel in go_mods:
            try:
                text = (self.root / rel).read_text("utf-8", errors="replace")
            except OSError:
                continue
            for line in text.splitlines():
                words = line.split()
                if len(words) >= 2 and words[0] == "module":
                    modules[str(PurePosixPath(rel).parent).removeprefix(".")] = words[1].strip('"')
                    break
        return modules
