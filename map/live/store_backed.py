"""The map behind its store: answers from the store until the graph is loaded, the
graph loaded from it on demand, and what moved since the last save written back.

A map opened from a valid store takes the map as the store holds it
(`_adopt`) and leaves the graph unloaded: search, outline, status, node
lookups and one-hop neighbours answer from the store (map.live.reader). A load
(`load_graph`, e.g. in a background thread) takes the graph first, from the
store's nodes and edges alone (a server's read ahead in a helper process:
map.store.graph_feed): ranking, paths, impact and walks wait only for that
(`graph`); then the link (every file's extract, scope and resolutions),
which the store stands in for until it is in, open uses included
(map.store.link_stand_in); any rebuild waits for both (`_materialize`). A store
that proves unusable meanwhile is dropped and the map rebuilt from scratch
(`_reset`). `save` writes only the files whose rows moved. Keeping the map
equal to the disk (opening, rebuilding) is map.live.codemap's.
"""

from __future__ import annotations

import logging
import threading
from abc import abstractmethod
from collections.abc import Callable, Collection, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from disk.stamps import FileStamp
from map.errors import MapError
from map.extraction.languages import compile_queries
from map.gcpause import paused_gc
from map.give_way import GiveWay
from map.graph.mapgraph import MapGraph, new_graph
from map.intake.ingest import Scan
from map.linking.layout import Layout
from map.linking.unresolved import OpenUses, UnresolvedUse, UseTie
from map.live.reader import MapReader
from map.live.reports import BuildReport, Counts, MapSettings
from map.model import FileExtract
from map.progress import BuildProgress, for_phase
from map.store.graph_feed import GraphFeed, graph_rows
from map.store.link_stand_in import LinkStandIn
from map.store.link_store import StoredLinker
from map.store.mapstore import (
    STORE_NAME,
    FileRows,
    MapStore,
    Stamps,
    State,
    StoreError,
    remove_legacy,
    store_file,
)
from map.store.store_link import unsaved_changes
from map.store.store_write import moved_since
from map.store.stored import restore_stored

log = logging.getLogger(__name__)

T = TypeVar("T")
U = TypeVar("U")


class StoreBackedMap(MapReader):
    """A map whose graph its store stands in for until loaded, and which saves what
    moved; `CodeMap` (map.live.codemap) keeps it equal to the disk."""

    def __init__(self, root: Path, settings: MapSettings) -> None:
        self.root = root.resolve()
        self.settings = settings
        self.built_at = datetime.fromtimestamp(0, UTC)
        self._linker_made: StoredLinker | None = None
        """The linker and its graph, made on first use (see `_linker`)."""
        self._stamps: dict[str, tuple[FileStamp, str]] = {}
        self._skipped_files: dict[str, tuple[FileStamp, str]] = {}
        self._skipped: dict[str, int] = {}
        self._layout = Layout()
        self._counts: dict[str, Any] = {}
        self._last_duration = 0.0
        self._last_scan: Scan | None = None
        self._version = 0
        """Moves whenever the graph does (keys the cached ranks)."""
        self._store: MapStore | None = None
        self._loaded = True
        """The graph holds the whole map (else the store does, and the graph is empty)."""
        self._linked = True
        """The linker holds the whole link (else the store stands in for it)."""
        self._load_lock, self._link_lock = threading.Lock(), threading.Lock()
        self._stand_in = LinkStandIn()
        """The open uses as the store holds them, while the link is not in."""
        self._give_way = GiveWay()
        """A graph loading in a worker thread steps aside while answers from the store run."""
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
        """The files whose stamp may differ from the store's since the last save (None: any)."""
        self._pending: dict[str, FileExtract | None] = {}
        """Files changed (None: removed) since the store was written, re-extracted but not
        linked yet: lookups answer from them, `_materialize` links them."""
        self._queries_ready = False
        self._relinked_rows: dict[str, FileRows | None] = {}
        """The rows of the files an edit relinked in the store (`_relink_stored`), kept
        only until `save` writes them."""
        self._feed: GraphFeed | None = None
        """A helper reading the graph's rows ahead (map.store.graph_feed), until loaded."""

    @property
    def _linker(self) -> StoredLinker:
        """The linker and its graph: an empty one until a build or a load replaces it.
        Made when first asked for, so that a map that answers from its store and
        finds nothing changed never makes a graph (nor imports networkx). Two threads
        asking at once before any build could each make one: both are empty."""
        if self._linker_made is None:
            self._linker_made = StoredLinker(new_graph())
        return self._linker_made

    @_linker.setter
    def _linker(self, linker: StoredLinker) -> None:
        self._linker_made = linker

    @abstractmethod
    def rebuild(
        self, progress: BuildProgress | None = None, paths: Iterable[str] | None = None
    ) -> BuildReport:
        """Check the files against the disk and bring the graph up to date."""

    @property
    def graph(self) -> MapGraph:
        """The networkx graph (loaded from the store on first use, without the link)."""
        if not self._take_graph() or self._broken:
            self.rebuild()
        return self._linker.graph

    @property
    def graph_loaded(self) -> bool:
        """Whether the graph holds the map yet (else answers come from the store)."""
        return self._loaded

    def load_graph(self, progress: BuildProgress | None = None, *, link: bool = True) -> bool:
        """Load the graph from the store now, then (`link`) the link, which any rebuild
        needs (seconds on a big repository: run it in a worker thread; `progress`
        hears the files linked); False when the store proved unusable (the next use
        rebuilds). The first load also compiles the extraction queries of the map's
        languages, which the first edit would otherwise wait for (~30 ms each)."""
        if not link:
            return self._take_graph(progress) and not self._broken
        if not self._materialize(progress) or self._broken:
            return False
        if not self._queries_ready:
            self._queries_ready = True
            compile_queries(frozenset(self._stamps))
        return True

    @property
    def snapshot_path(self) -> Path:
        """Where `save` writes (the map store)."""
        directory = Path(self.settings.snapshot_dir)
        return (directory if directory.is_absolute() else self.root / directory) / STORE_NAME

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
            state = State(
                self.built_at,
                self._last_duration,
                dict(self._stamps),
                dict(self._skipped_files),
                self._layout,
                self._summary(),
                dict(self._edge_counts.per_file),
            )
            moved, left_out = moved_since(self._saved, state, None if full else self._touched)
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
        self._unsaved, self._relinked_rows = {}, {}
        self._saved = (state.stamps, state.skipped)
        if files and self._feed is not None:  # the rows it reads are not the store's now
            self._feed = self._feed.restarted(store)

    def _adopt(self, store: MapStore, state: State) -> None:
        """Take the map as the store holds it (the graph stays unloaded)."""
        self._store = store
        self._loaded = self._linked = False
        self._stamps, self._skipped_files = dict(state.stamps), dict(state.skipped)
        self._layout, self._counts = state.layout, dict(state.counts)
        self._skipped = dict(self._counts.get("skipped", {}))
        self._edge_counts = Counts(state.edge_counts)
        self._saved = (state.stamps, state.skipped)
        self.built_at = state.built_at
        self._last_duration = state.duration_s

    def _from_store(self, answer: Callable[[MapStore], T]) -> T | None:
        """`answer` from the store while the link is not loaded; None when the loaded
        map must answer (linked, no store, files relinked in the store that no save
        has written yet, or the store just proved unusable)."""
        store = self._store
        if self._linked or store is None or self._relinked_rows:
            return None
        try:
            with self._give_way.answering():
                return answer(store)
        except StoreError as exc:
            self._forget_store(exc)
            return None

    def _materialize(self, progress: BuildProgress | None = None) -> bool:
        """Load the graph and the link from the store; False when the store proved
        unusable (the map is then emptied, and the caller rebuilds from scratch)."""
        return self._take_graph(progress) and self._take_link(progress)

    def _take_graph(self, progress: BuildProgress | None = None) -> bool:
        """Load the graph from the store's nodes and edges, or from their rows read ahead
        (map.store.graph_feed), with the link too when changes wait to be linked (the store
        does not have them); False when the store proved unusable."""
        with self._load_lock:
            if self._loaded:
                return True
            if self._relinked_rows:  # relinked in the store, not written to it yet
                self._pending.update(unsaved_changes(self._relinked_rows))
                self._relinked_rows = {}
            store = self._store
            assert store is not None  # unloaded maps come from a store
            linker = StoredLinker(new_graph())

            def load() -> None:
                feed, self._feed, pause = self._feed, None, self._give_way.pause
                linker.restore_graph(*graph_rows(store, feed, pause), pause)
                if self._pending:
                    self._restore_link(linker, progress)
                    self._link_pending(linker)

            if not self._loaded_from(store, load):
                return False
            self._linker = linker
            self._version += 1
            self._loaded = True
            if self._pending:
                self._linked = True
                self._pending = {}  # after the graph took them: readers never miss them
            return True

    def _take_link(self, progress: BuildProgress | None = None) -> bool:
        """Load the link into the loaded graph's linker (see `_take_graph`); False
        when the store proved unusable."""
        with self._link_lock:
            if self._linked:
                return True
            store = self._store
            assert store is not None
            if not self._loaded_from(store, lambda: self._restore_link(self._linker, progress)):
                return False
            self._linked = True
            self._stand_in.forget()
            return True

    def _loaded_from(self, store: MapStore, load: Callable[[], None]) -> bool:
        """Run `load` (a load from `store`); False when the store proved unusable (the
        map is then emptied: see `_reset`)."""
        try:
            load()
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            self._reset(StoreError(f"{store.path}: malformed rows ({exc!r})"))
            return False
        except StoreError as exc:
            self._reset(exc)
            return False
        return True

    def _restore_link(self, linker: StoredLinker, progress: BuildProgress | None) -> None:
        assert self._store is not None
        pause = self._give_way.pause
        restore_stored(linker, self._store, self._saved[0], self._layout, progress, pause)

    def _link_pending(self, linker: StoredLinker) -> None:
        """Link the pending changes into `linker` (loaded as the store holds the map):
        their files, and those whose edges they moved, are saved next time."""
        moved = linker.update(self._pending, self._layout).moved
        self._dirty |= moved
        self._edge_counts.mark(moved)

    def _forget_store(self, exc: StoreError) -> None:
        with self._load_lock:
            if not self._linked:
                self._reset(exc)

    def _reset(self, exc: StoreError) -> None:
        """Drop an unusable store: the map is empty until rebuilt from scratch."""
        log.warning("rebuilding the map of %s from scratch: %s", self.root, exc)
        if self._store is not None:
            self._store.close()
        self._linker = StoredLinker(new_graph())
        self._version += 1
        self._stamps, self._skipped_files, self._layout = {}, {}, Layout()
        self._touched = None
        self._edge_counts = Counts()
        self._last_scan = None
        self._unsaved = {}
        self._relinked_rows = {}
        self._pending = {}
        self._store, self._feed = None, None
        self._stand_in.forget()
        self._loaded = self._linked = True
        self._broken = True

    def _rows(self, path: str) -> FileRows | None:
        if path in self._relinked_rows:
            return self._relinked_rows[path]
        return self._linker.rows(path, self._unsaved.get(path))

    def _extracts(self) -> Mapping[str, FileExtract]:
        if not self._materialize() or self._broken:
            self.rebuild()
        return self._linker.extracts

    @property
    def link_loaded(self) -> bool:
        """Whether the link is loaded (else open uses are read from the store, for
        answers that need a few files': map.store.link_stand_in)."""
        return self._linked

    def unresolved_named(self, names: Collection[str]) -> list[UnresolvedUse] | None:
        """Every use of one of `names` that linking left open: resolved to nothing of
        ours, or only to a guess by name (map.linking.unresolved), by path and line. None
        while the link loads in a worker thread when they lie in more files than
        are read from the store meanwhile (map.store.link_stand_in)."""
        return self._open_uses(lambda uses: uses.holding(names), lambda uses: uses.named(names))

    def unresolved_within(self, node_ids: Collection[str]) -> list[UnresolvedUse] | None:
        """The uses directly inside the symbols `node_ids` that resolved to nothing of
        ours (library calls, unknown receivers), by path and line. None while the
        link loads in a worker thread when they lie in more files than are read
        from the store meanwhile."""
        files = {node_id.partition("#")[0] for node_id in node_ids}
        return self._open_uses(lambda _: files, lambda uses: uses.within(node_ids))

    def ties(self, path: str, name: str) -> list[UseTie] | None:
        """What linking tied each use of `name` in file `path` to (map.linking.unresolved's
        `UseTie`), in reference order; None as for `unresolved_named`."""
        return self._open_uses(lambda _: (path,), lambda uses: uses.ties(path, name))

    def _open_uses(
        self,
        files: Callable[[OpenUses], Collection[str]],
        answer: Callable[[OpenUses], list[U]],
    ) -> list[U] | None:
        """`answer` from the open uses: the linker's; while the link is not in (and no
        change waits to be linked), the store's when it reads few `files`, else None
        if a load (in a worker thread) is bringing the link in, else the link is
        loaded first (a one-shot process)."""
        if not self._pending:
            paths, layout = self._stamps.keys(), self._layout
            stored = self._from_store(
                lambda store: (self._stand_in.answer(store, paths, layout, files, answer),)
            )
            if stored is not None and (stored[0] is not None or self._link_lock.locked()):
                return stored[0]
        self._extracts()
        return answer(self._linker.open_uses)

    def _edge_details(self, source: str, target: str, kind: str) -> dict[str, Any] | None:
        self._extracts()  # the graph loaded (or rebuilt) first
        return self._linker.edge_details(source, target, kind)

    def _summary(self) -> dict[str, Any]:
        """Symbols, edges, languages, skips per reason: from the graph, else the store."""
        if self._linked:
            counts = self._edge_counts.summary(self._linker.graph, self._linker.scopes)
            self._counts = {**counts, "skipped": dict(self._skipped)}
        return self._counts
