"""The stateful map of one repository: open, rebuild incrementally, save, ask.

`CodeMap.open` reads the map store (map.store) when it can be trusted,
checks every file against the disk (stat stamp first, content hash when the
stamp moved) and re-extracts only what changed; without a usable store it
builds from scratch. `rebuild` does the same check at any time, and `save`
writes only the files whose rows moved. Files flagged with `mark_stale` stay
stale until a rebuild that started after the flag.

Opened from a store with nothing changed, the graph is not loaded: search,
outline, status, node lookups and one-hop neighbours answer from the store;
ranking, paths, impact and any rebuild load it first (`load_graph` does it
ahead, e.g. in a background thread).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import networkx as nx

from disk.errors import OutsideRootError
from disk.stamps import FileStamp
from map.errors import MapError
from map.gcpause import paused_gc
from map.graph import MapGraph, node_rows, take_touched
from map.ingest import Scan
from map.languages import extraction_query, language_for
from map.linker import Linker
from map.model import FileExtract
from map.names import NameIndex
from map.packed import stored
from map.progress import BuildProgress, for_phase
from map.reader import MapReader
from map.recheck import recheck
from map.reports import BuildReport as BuildReport
from map.reports import Counts
from map.reports import MapSettings as MapSettings
from map.reports import MapStatus as MapStatus
from map.stale import StaleFlags, changed_among, changed_since, relative_path
from map.store import (
    STORE_NAME,
    FileRows,
    MapStore,
    Stamps,
    State,
    StoreError,
    remove_legacy,
    store_file,
)

log = logging.getLogger(__name__)

T = TypeVar("T")


class CodeMap(MapReader):
    """Symbols and edges of one repository, kept equal to the disk by rebuilds.

    Opened from a store with nothing changed, the graph is loaded only when
    first needed (`graph`, ranking, paths, impact, rebuilds) or asked for
    (`load_graph`): a warm start costs reading the file stamps and a stat per
    file, and lookups answer from the store meanwhile.
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
        self._counts: dict[str, Any] = {}
        self._stale = StaleFlags()
        self._last_duration = 0.0
        self._last_scan: Scan | None = None
        self._version = 0
        """Moves whenever the graph does (keys the cached ranks)."""
        self._ranked: tuple[int, list[str]] | None = None
        self._names = NameIndex()
        self._store: MapStore | None = None
        self._loaded = True
        """The graph holds the whole map (else the store does, and the graph is empty)."""
        self._load_lock = threading.Lock()
        self._broken = False
        """The store proved unusable while loading: the next `graph` rebuilds from scratch."""
        self._dirty: set[str] = set()
        """Files whose rows the store does not have as they are now."""
        self._unsaved: dict[str, FileExtract] = {}
        """Decoded extracts of the last rebuilds, kept only until `save` writes them
        (the linker keeps extracts packed: unpacking them again would cost a cold save
        as much as the scan's decode)."""
        self._edge_counts = Counts()
        self._saved: tuple[Stamps, Stamps] = ({}, {})
        """The stamps and skipped files as the store holds them."""
        self._touched: set[str] | None = None
        """The files whose stamp may differ from the store's (None: any), since the
        last save."""
        self._pending: dict[str, FileExtract | None] = {}
        """Files changed (None: removed) since the store was written, re-extracted but not
        linked yet: lookups answer from them, `_materialize` links them."""
        self._link_later = False
        """`rebuild` leaves an unloaded graph unloaded and records changes as pending."""
        self._queries_ready = False

    @classmethod
    def open(
        cls,
        root: Path,
        settings: MapSettings | None = None,
        progress: BuildProgress | None = None,
        *,
        refresh: bool = True,
        link_later: bool = False,
    ) -> CodeMap:
        """The map of `root`: from its store when valid (changed files re-extracted),
        else built from scratch. Saves when anything moved. `progress` hears how far
        each phase is: reading, linking, saving.

        With `refresh=False` a valid store is taken as it was built, without
        checking the disk (a one-shot reader that reports staleness itself).
        With `link_later`, files changed since the store was written are
        re-extracted and answer lookups at once (`unlinked_files` lists them);
        linking them waits for the graph (`load_graph`), and saving them for
        the first `save` after it.
        """
        if not root.is_dir():
            raise MapError(f"{root}: not a directory; pass the repository's root directory")
        codemap = cls(root, settings or MapSettings())
        try:
            path = store_file(codemap.root, codemap.settings.snapshot_dir)
            store = MapStore.open(path, str(codemap.root))
            state = store.state()
        except (StoreError, OutsideRootError) as exc:
            log.info("building the map of %s from scratch: %s", codemap.root, exc)
        else:
            codemap._adopt(store, state)
            if not refresh:
                return codemap
        codemap._link_later = link_later
        report = codemap.rebuild(progress)
        codemap._link_later = False
        if codemap._pending:
            return codemap
        if report.full or report.files_changed or report.files_removed or report.restamped:
            try:
                codemap.save(progress=progress)
            except (MapError, OutsideRootError) as exc:  # the map works without a store
                log.warning("%s", exc)
        return codemap

    @property
    def graph(self) -> MapGraph:
        """The networkx graph (loaded from the store on first use)."""
        if not self._materialize() or self._broken:
            self.rebuild()
        return self._linker.graph

    @property
    def graph_loaded(self) -> bool:
        """Whether the graph holds the map yet (else answers come from the store)."""
        return self._loaded

    def load_graph(self, progress: BuildProgress | None = None) -> bool:
        """Load the graph from the store now (seconds on a big repository: run it in a
        worker thread; `progress` hears the files linked); False when the store proved
        unusable (the next use rebuilds). The first load also compiles the extraction
        queries of the map's languages, which the first edit would otherwise wait
        for (~30 ms each)."""
        if not self._materialize(progress) or self._broken:
            return False
        if not self._queries_ready:
            self._queries_ready = True
            for language in {language_for(path) for path in self.files()}:
                if language is not None:
                    extraction_query(language)
        return True

    @property
    def snapshot_path(self) -> Path:
        """Where `save` writes (the map store)."""
        directory = Path(self.settings.snapshot_dir)
        return (directory if directory.is_absolute() else self.root / directory) / STORE_NAME

    def rebuild(
        self, progress: BuildProgress | None = None, paths: Iterable[str] | None = None
    ) -> BuildReport:
        """Check the files against the disk and bring the graph up to date.

        Every file is stat-checked (the last listing taken as it stands while no
        directory moved, see map.recheck), unless `paths` names the only files
        that may have changed (as a watcher knows): then only those are checked,
        provided the map already knows them all; a new path (or a first
        rebuild) still lists the whole tree.
        """
        started = time.monotonic()
        flagged_before = StaleFlags.now()
        scan_time = datetime.now(UTC)
        known = (self._stamps, self._skipped_files)
        found, targets, touched = recheck(
            self.root, self.settings, paths, self._last_scan, known, for_phase(progress, "reading")
        )
        maybe_gone = self._stamps if touched is None else touched
        removed = sorted(p for p in maybe_gone if p not in found.stamps and p in self._stamps)
        relinked = 0
        if self._link_later and not self._loaded and found.go_modules == self._go_modules:
            self._defer(found.extracts, removed)
        elif found.extracts or removed or found.go_modules != self._go_modules or self._broken:
            if not self._materialize():
                return self.rebuild(progress)
            self._broken = False
            files = {**found.extracts, **dict.fromkeys(removed)}
            linking = for_phase(progress, "linking")
            stats = self._linker.update(files, found.go_modules, found.packed, linking)
            self._unsaved = {p: e for p, e in {**self._unsaved, **files}.items() if e is not None}
            relinked = stats.files_relinked
            self._dirty |= stats.moved
            self._edge_counts.mark(stats.moved)
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
        if touched is None or self._touched is None:
            self._touched = None
        else:
            self._touched |= touched
        self._last_scan = replace(found, extracts={}, packed={})  # the listing, not the code
        self._stale.clear(started=flagged_before, checked=targets)
        self.built_at = scan_time
        self._last_duration = report.duration_s
        self.last_report = report
        return report

    def save(self, *, full: bool = False, progress: BuildProgress | None = None) -> None:
        """Write what moved since the last save to the store, in one transaction
        (`full`: every file's rows again; `progress` hears the files written). Raises
        MapError when the store cannot be written, OutsideRootError rather than write
        through a symlink under the root."""
        store = self._store
        try:
            if store is None:
                path = store_file(self.root, self.settings.snapshot_dir, create=True)
                remove_legacy(path.parent)
                store = MapStore.create(path, str(self.root))
                self._saved, full = ({}, {}), True
            if (full or self._pending) and (not self._materialize() or self._broken):
                self.rebuild()
            files = set(self._linker.extracts) if full else set(self._dirty)
            stamps, skipped = self._saved
            state = State(
                self.built_at,
                self._last_duration,
                dict(self._stamps),
                dict(self._skipped_files),
                dict(self._go_modules),
                self._summary(),
                dict(self._edge_counts.per_file),
            )
            touched = state.stamps.keys() if full or self._touched is None else self._touched
            moved = [p for p in touched if p in state.stamps and stamps.get(p) != state.stamps[p]]
            ever_skipped = state.skipped.keys() | skipped.keys()
            left_out = [p for p in ever_skipped if skipped.get(p) != state.skipped.get(p)]
            with paused_gc():  # a full save builds every file's rows
                saving = for_phase(progress, "saving")
                store.write(state, files, self._rows, moved, left_out, saving)
        except (OSError, StoreError) as exc:
            raise MapError(
                f"cannot write the map store {self.snapshot_path}: {exc}; "
                "make the directory writable or set MapSettings.snapshot_dir elsewhere"
            ) from exc
        self._store = store
        self._dirty -= files
        self._touched = set()
        self._unsaved = {}
        self._saved = (state.stamps, state.skipped)

    def mark_stale(self, paths: Iterable[str]) -> None:
        """Flag files as changed on disk since the last build (until the next one)."""
        self._stale.mark(r for path in paths if (r := relative_path(self.root, path)) is not None)

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
        return changed_since(self.root, path, self._stamps.get(path))

    def changed_files(self) -> list[str]:
        """The files the map holds that differ now on disk (see `changed_on_disk`)."""
        return changed_among(self.root, self._stamps)

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

    def _adopt(self, store: MapStore, state: State) -> None:
        """Take the map as the store holds it (the graph stays unloaded)."""
        self._store = store
        self._loaded = False
        self._stamps, self._skipped_files = dict(state.stamps), dict(state.skipped)
        self._go_modules, self._counts = dict(state.go_modules), dict(state.counts)
        self._skipped = dict(self._counts.get("skipped", {}))
        self._edge_counts = Counts(state.edge_counts)
        self._saved = (state.stamps, state.skipped)
        self.built_at = state.built_at
        self._last_duration = state.duration_s

    def _from_store(self, answer: Callable[[MapStore], T]) -> T | None:
        """`answer` from the store while the graph is not loaded; None when the graph
        must answer (loaded, no store, or the store just proved unusable)."""
        store = self._store
        if self._loaded or store is None:
            return None
        try:
            return answer(store)
        except StoreError as exc:
            self._forget_store(exc)
            return None

    def _materialize(self, progress: BuildProgress | None = None) -> bool:
        """Load the graph from the store; False when the store proved unusable (the
        map is then emptied, and the caller rebuilds from scratch)."""
        with self._load_lock:
            if self._loaded:
                return True
            store = self._store
            assert store is not None  # unloaded maps come from a store
            linker = Linker(nx.MultiDiGraph())
            try:
                linking = for_phase(progress, "linking")
                linker.apply_each(stored(store, self._saved[0]), self._go_modules, linking)
            except StoreError as exc:
                self._reset(exc)
                return False
            take_touched(linker.graph)  # the store holds them already
            self._link_pending(linker)
            self._linker = linker
            self._version += 1
            self._loaded = True
            self._pending = {}  # after the graph took them: readers never miss them
            return True

    def _defer(self, extracts: Mapping[str, FileExtract], removed: Iterable[str]) -> None:
        """Record changes for `_materialize` to link (see `open`'s `link_later`)."""
        self._pending.update(extracts)
        self._pending.update(dict.fromkeys(removed))
        if self._pending:
            self._version += 1

    def _link_pending(self, linker: Linker) -> None:
        """Link the pending changes into `linker` (loaded as the store holds the map):
        their files, and those whose edges they moved, are saved next time."""
        moved = linker.update(self._pending, self._go_modules).moved
        self._dirty |= moved
        self._edge_counts.mark(moved)

    def _forget_store(self, exc: StoreError) -> None:
        with self._load_lock:
            if not self._loaded:
                self._reset(exc)

    def _reset(self, exc: StoreError) -> None:
        """Drop an unusable store: the map is empty until rebuilt from scratch."""
        log.warning("rebuilding the map of %s from scratch: %s", self.root, exc)
        if self._store is not None:
            self._store.close()
        self._linker = Linker(nx.MultiDiGraph())
        self._version += 1
        self._stamps, self._skipped_files, self._go_modules = {}, {}, {}
        self._touched = None
        self._edge_counts = Counts()
        self._last_scan = None
        self._unsaved = {}
        self._pending = {}
        self._store = None
        self._loaded = True
        self._broken = True

    def _rows(self, path: str) -> FileRows | None:
        extract = self._unsaved.get(path) or self._linker.extracts.get(path)
        if extract is None:
            return None
        return FileRows(
            extract,
            node_rows(self._linker.graph, extract),
            self._linker.use_edges(path),
            self._linker.stored_blob(path),
        )

    def _extracts(self) -> Mapping[str, FileExtract]:
        if not self._materialize() or self._broken:
            self.rebuild()
        return self._linker.extracts

    def _edge_details(self, source: str, target: str, kind: str) -> dict[str, Any] | None:
        self._extracts()  # the graph loaded (or rebuilt) first
        return self._linker.edge_details(source, target, kind)

    def _summary(self) -> dict[str, Any]:
        """Symbols, edges, languages, skips per reason: from the graph, else the store."""
        if self._loaded:
            counts = self._edge_counts.summary(self._linker.graph, self._linker.scopes)
            self._counts = {**counts, "skipped": dict(self._skipped)}
        return self._counts
