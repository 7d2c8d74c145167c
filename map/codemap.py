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
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

import networkx as nx

from disk.errors import OutsideRootError
from disk.stamps import FileStamp, content_hash
from disk.statedir import STATE_DIR
from map import query, snapshot
from map.errors import MapError, SnapshotError, UnknownNodeError
from map.graph import MapGraph
from map.ingest import Scan, ScanOptions, scan, scan_known
from map.linker import Change, Linker
from map.model import EdgeKind, FileExtract, Symbol
from map.stale import StaleFlags

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
    snapshot_dir: str = STATE_DIR
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
    restamped: int = 0
    """Files whose stat stamp moved but whose content did not (hashed, not re-extracted)."""


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
    """Symbols and edges of one repository, kept equal to the disk by rebuilds.

    Opened from a snapshot with nothing changed, the graph is loaded only
    when first asked for (`graph`, lookups, queries): a warm start costs a
    directory listing and a stat per file.
    """

    def __init__(self, root: Path, settings: MapSettings) -> None:
        self.root = root.resolve()
        self.settings = settings
        self.built_at = datetime.fromtimestamp(0, UTC)
        self.last_report: BuildReport | None = None
        self._linker = Linker(nx.MultiDiGraph())
        self._stamps: dict[str, tuple[FileStamp, str]] = {}
        self._skipped_files: dict[str, tuple[FileStamp, str]] = {}
        self._skipped: dict[str, int] = {}
        self._go_modules: dict[str, str] = {}
        self._pending: snapshot.Header | None = None
        self._counts: dict[str, Any] = {}
        self._stale = StaleFlags()
        self._last_duration = 0.0
        self._last_scan: Scan | None = None
        self._version = 0
        """Moves whenever the graph does (keys the cached ranks)."""
        self._ranks: tuple[int, dict[str, float]] | None = None

    @classmethod
    def open(
        cls,
        root: Path,
        settings: MapSettings | None = None,
        progress: Progress | None = None,
        *,
        refresh: bool = True,
    ) -> CodeMap:
        """The map of `root`: from its snapshot when valid (changed files re-extracted),
        else built from scratch. Saves the snapshot when anything moved.

        With `refresh=False` a valid snapshot is taken as it was built, without
        checking the disk (a one-shot reader that reports staleness itself).
        """
        if not root.is_dir():
            raise MapError(f"{root}: not a directory; pass the repository's root directory")
        codemap = cls(root, settings or MapSettings())
        try:
            path = snapshot.snapshot_file(codemap.root, codemap.settings.snapshot_dir)
            snapshot.remove_leftovers(path)
            header = snapshot.load_header(path, str(codemap.root))
        except (SnapshotError, OutsideRootError) as exc:
            log.info("building the map of %s from scratch: %s", codemap.root, exc)
        else:
            codemap._pending = header
            codemap._stamps = dict(header.stamps)
            codemap._skipped_files = dict(header.skipped)
            codemap._go_modules = dict(header.go_modules)
            codemap._counts = dict(header.counts)
            codemap.built_at = header.built_at
            codemap._last_duration = header.duration_s
            if not refresh:
                return codemap
        report = codemap.rebuild(progress)
        if report.full or report.files_changed or report.files_removed or report.restamped:
            try:
                codemap.save()
            except (MapError, OutsideRootError) as exc:  # the map works without a snapshot
                log.warning("%s", exc)
        return codemap

    @property
    def graph(self) -> MapGraph:
        """The networkx graph (loaded from the snapshot on first use)."""
        if not self._materialize():
            self.rebuild()
        return self._linker.graph

    @property
    def snapshot_path(self) -> Path:
        """Where `save` writes."""
        directory = Path(self.settings.snapshot_dir)
        return (directory if directory.is_absolute() else self.root / directory) / (
            snapshot.SNAPSHOT_NAME
        )

    def rebuild(
        self, progress: Progress | None = None, paths: Iterable[str] | None = None
    ) -> BuildReport:
        """Check the files against the disk and bring the graph up to date.

        Every file is listed and stat-checked, unless `paths` names the only
        files that may have changed (as a watcher knows): then only those are
        checked, provided the map already knows them all; a new path (or a
        first rebuild) still lists the whole tree.
        """
        started = time.monotonic()
        flagged_before = StaleFlags.now()
        scan_time = datetime.now(UTC)
        options = ScanOptions(
            self.settings.max_file_bytes,
            self.settings.exclude,
            self.settings.workers,
            self.settings.snapshot_dir,
        )
        targets = None if paths is None else {r for p in paths if (r := self._relative(p))}
        previous = self._last_scan
        if (
            targets is not None
            and previous is not None
            and all(p in previous.stamps or p in previous.skipped for p in targets)
        ):
            found = scan_known(self.root, options, targets, previous, progress)
        else:
            targets = None
            found = scan(self.root, options, self._stamps, self._skipped_files, progress)
        removed = sorted(p for p in self._stamps if p not in found.stamps)
        relinked = 0
        if found.extracts or removed or found.go_modules != self._go_modules:
            if not self._materialize():
                return self.rebuild(progress)
            linked = self._linker.extracts
            changes: dict[str, Change] = {p: (linked.get(p), e) for p, e in found.extracts.items()}
            changes.update((p, (linked[p], None)) for p in removed)
            relinked = self._linker.apply(changes, found.go_modules).files_relinked
            self._version += 1
        report = BuildReport(
            files_total=len(found.stamps),
            files_changed=sorted(found.extracts),
            files_removed=removed,
            files_added=sorted(p for p in found.extracts if p not in self._stamps),
            skipped=found.skip_counts,
            duration_s=time.monotonic() - started,
            full=not self._stamps,
            files_relinked=relinked,
            restamped=found.restamped,
        )
        self._stamps, self._skipped_files = found.stamps, found.skipped
        self._skipped, self._go_modules = found.skip_counts, found.go_modules
        self._last_scan = found
        self._stale.clear(started=flagged_before, checked=targets)
        self.built_at = scan_time
        self._last_duration = report.duration_s
        self.last_report = report
        return report

    def save(self) -> None:
        """Write the snapshot (atomically); raises OutsideRootError rather than write
        through a symlink under the root (see `snapshot.snapshot_file`)."""
        header = snapshot.Header(
            root=str(self.root),
            built_at=self.built_at,
            duration_s=self._last_duration,
            stamps=self._stamps,
            skipped=self._skipped_files,
            go_modules=self._go_modules,
            counts=self._summary(),
        )
        payload: dict[str, FileExtract] | bytes
        if self._pending is not None:
            try:
                payload = snapshot.read_raw_payload(self.snapshot_path, self._pending.token)
            except SnapshotError:
                payload = dict(self._extracts())
        else:
            payload = dict(self._linker.extracts)
        try:
            path = snapshot.snapshot_file(self.root, self.settings.snapshot_dir, create=True)
            snapshot.save(path, header, payload)
        except OSError as exc:
            raise MapError(
                f"cannot write the map snapshot {self.snapshot_path}: {exc}; "
                "make the directory writable or set MapSettings.snapshot_dir elsewhere"
            ) from exc
        if self._pending is not None:
            self._pending.token = header.token

    def node(self, node_id: str) -> dict[str, Any]:
        """A node's attributes (plus its `id`); raises UnknownNodeError with suggestions."""
        self._require(node_id)
        return {"id": node_id, **self.graph.nodes[node_id]}

    def extract_of(self, path: str) -> FileExtract | None:
        """What extraction learned about a file, or None when it is not in the map."""
        return self._extracts().get(path)

    def symbols_in(self, path: str) -> list[Symbol]:
        """The symbols of a file, in file order ([] when it is not in the map)."""
        extract = self.extract_of(path)
        return list(extract.symbols) if extract is not None else []

    def mark_stale(self, paths: Iterable[str]) -> None:
        """Flag files as changed on disk since the last build (until the next one)."""
        self._stale.mark(r for path in paths if (r := self._relative(path)) is not None)

    def files(self) -> frozenset[str]:
        """The files the map holds as of the last build (without loading the graph).

        Safe to call while a rebuild runs in another thread: it sees the files
        before or after that rebuild, never a mix.
        """
        return frozenset(self._stamps)

    def stale_files(self) -> frozenset[str]:
        """Files changed on disk since `built_at`, as far as the map was told."""
        return self._stale.paths()

    def changed_on_disk(self, path: str) -> bool:
        """Whether `path` differs now from what the map was built from: a file the
        map holds that moved or vanished, or a new one. The stat stamp decides when
        it is unchanged; otherwise the content hash does (no extraction)."""
        recorded = self._stamps.get(path)
        absolute = self.root / path
        stamp = FileStamp.of(absolute)
        if recorded is None or stamp is None:
            return (recorded is None) != (stamp is None)
        if stamp == recorded[0]:
            return False
        try:
            return content_hash(absolute.read_bytes()) != recorded[1]
        except OSError:
            return True

    def status(self) -> MapStatus:
        """Counts, languages, stale files and the last build."""
        counts = self._summary()
        return MapStatus(
            files=len(self._stamps),
            symbols=int(counts.get("symbols", 0)),
            edges=int(counts.get("edges", 0)),
            languages=dict(counts.get("languages", {})),
            stale_files=tuple(sorted(self.stale_files())),
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

    def path(self, source: str, target: str, kinds: Iterable[EdgeKind] | None = None) -> list[str]:
        """The shortest chain of uses from `source` to `target` ([] when none)."""
        self._require(source)
        self._require(target)
        return query.path(self.graph, source, target, kinds)

    def impact(self, node_id: str, depth: int | None = None) -> list[query.Neighbor]:
        """What depends on `node_id`, transitively."""
        self._require(node_id)
        return query.impact(self.graph, node_id, depth)

    def overview(self, token_budget: int = 1024) -> query.Overview:
        """The repo map: most central symbols first, within `token_budget`."""
        graph = self.graph
        if self._ranks is None or self._ranks[0] != self._version:
            self._ranks = (self._version, query.rank(graph))
        return query.overview(graph, token_budget, self._ranks[1])

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
            pool = [p for p in self._stamps if PurePosixPath(p).name == last or not qual]
        return difflib.get_close_matches(node_id, sorted(set(pool)), n=SUGGESTIONS, cutoff=0.5)

    def _relative(self, path: str) -> str | None:
        pure = Path(path)
        if not pure.is_absolute():
            return PurePosixPath(path).as_posix()
        try:
            return PurePosixPath(pure.relative_to(self.root)).as_posix()
        except ValueError:
            return None

    def _materialize(self) -> bool:
        """Load the graph from the pending snapshot; False when it proved unusable
        (the map is then emptied, and the caller rebuilds from scratch)."""
        pending = self._pending
        if pending is None:
            return True
        self._pending = None
        try:
            extracts = snapshot.load_payload(self.snapshot_path, pending)
        except SnapshotError as exc:
            log.warning("rebuilding the map of %s from scratch: %s", self.root, exc)
            self._linker = Linker(nx.MultiDiGraph())
            self._version += 1
            self._stamps, self._skipped_files, self._go_modules = {}, {}, {}
            self._last_scan = None
            return False
        self._linker.apply({p: (None, e) for p, e in extracts.items()}, pending.go_modules)
        self._version += 1
        return True

    def _extracts(self) -> Mapping[str, FileExtract]:
        if not self._materialize():
            self.rebuild()
        return self._linker.extracts

    def _summary(self) -> dict[str, Any]:
        """Symbols, edges and languages: from the graph once loaded, else from the snapshot."""
        if self._pending is not None:
            return self._counts
        graph = self._linker.graph
        languages = Counter(e.language for e in self._linker.extracts.values())
        self._counts = {
            "symbols": graph.number_of_nodes() - len(self._linker.extracts),
            "edges": graph.number_of_edges(),
            "languages": dict(sorted(languages.items())),
        }
        return self._counts
