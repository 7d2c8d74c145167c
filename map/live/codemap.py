"""The stateful map of one repository: open, rebuild incrementally, save, ask.

`CodeMap.open` reads the map store (map.store.mapstore) when it can be trusted,
checks every file against the disk (stat stamp first, content hash when the
stamp moved) and re-extracts only what changed; without a usable store it
builds from scratch. `rebuild` does the same check at any time, and `save`
writes only the files whose rows moved. Files flagged with `mark_stale` stay
stale until a rebuild that started after the flag.

Opened from a store, the graph is not loaded: search, outline, status, node
lookups and one-hop neighbours answer from the store; ranking, paths and
impact load the graph first, any rebuild the link too (`load_graph` does
both ahead, e.g. in a background thread). Files changed since the store was
written are relinked against the store while the graph is not loaded
(map.store.store_link), or wait for it (`link_later`) when the change moves the
module layout. The map and its store (loading from it, saving to it):
map.live.store_backed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from disk.errors import OutsideRootError
from map.errors import MapError, TeamStoreError
from map.graph.names import NameIndex
from map.intake.ingest import Scan
from map.intake.shared import SharedOutcome
from map.intake.wire import unpacked
from map.live.recheck import recheck
from map.live.reports import BuildReport as BuildReport
from map.live.reports import MapSettings as MapSettings
from map.live.reports import MapStatus as MapStatus
from map.live.stale import StaleFlags, changed_among, changed_since, relative_path
from map.live.store_backed import StoreBackedMap
from map.progress import BuildProgress, for_phase
from map.store.graph_feed import GraphFeed
from map.store.mapstore import MapStore, StoreError, store_file
from map.store.store_link import relink_in_store
from map.store.team_snapshot import exact_commit, map_version, packed_store, restore

if TYPE_CHECKING:  # the PostgreSQL driver loads only with a team store
    from map.store.team_store import TeamStatus, TeamStore

log = logging.getLogger(__name__)


class CodeMap(StoreBackedMap):
    """Symbols and edges of one repository, kept equal to the disk by rebuilds.

    Opened from a store with nothing changed, the graph is loaded only when
    first needed (`graph`, ranking, paths, impact, rebuilds) or asked for
    (`load_graph`): a warm start costs reading the file stamps and a stat per
    file, and lookups answer from the store meanwhile.
    """

    def __init__(self, root: Path, settings: MapSettings) -> None:
        super().__init__(root, settings)
        self.last_report: BuildReport | None = None
        self._stale = StaleFlags()
        self._ranked: tuple[int, list[str]] | None = None
        self._names = NameIndex()
        self._link_later = False
        """`rebuild` leaves an unloaded graph unloaded and records changes as pending."""
        self.team: TeamStore | None = None
        """The team store asked before extracting, and told what was extracted here."""

    @classmethod
    def open(
        cls,
        root: Path,
        settings: MapSettings | None = None,
        progress: BuildProgress | None = None,
        *,
        refresh: bool = True,
        link_later: bool = False,
        read_graph_ahead: bool = False,
        team: TeamStore | None = None,
    ) -> CodeMap:
        """The map of `root`: from its store when valid (changed files re-extracted),
        else built from scratch. Saves when anything moved. `progress` hears how far
        each phase is: reading, linking, saving.

        With `refresh=False` a valid store is taken as it was built, without
        checking the disk (a one-shot reader that reports staleness itself).
        With `link_later`, files changed since the store was written are
        re-extracted and answer lookups at once (`unlinked_files` lists them);
        linking them waits for the graph (`load_graph`), and saving them for
        the first `save` after it. With `read_graph_ahead` (a server, which loads
        the graph soon after), a helper process reads the graph's rows from a
        valid store meanwhile (map.store.graph_feed). With a `team` store, files to
        extract are first asked for there, and what is extracted here is published
        (map.store.team_store); the link stays this checkout's, but a checkout with no
        store starts from the team's linked map of its commit or one near it, when
        there is one (map.store.team_snapshot).
        """
        if not root.is_dir():
            raise MapError(f"{root}: not a directory; pass the repository's root directory")
        codemap = cls(root, settings or MapSettings())
        codemap.team = team
        try:
            path = store_file(codemap.root, codemap.settings.snapshot_dir)
            if team is not None and not path.is_file():  # a new checkout: the team's map?
                store_file(codemap.root, codemap.settings.snapshot_dir, create=True)
                team.restored = restore(team, codemap.root, path, codemap._version_key())
            store = MapStore.open(path, str(codemap.root))
            feed = GraphFeed.start(store) if read_graph_ahead else None
            state = store.state()
        except (StoreError, OutsideRootError) as exc:
            log.info("building the map of %s from scratch: %s", codemap.root, exc)
        else:
            codemap._adopt(store, state)
            codemap._feed = feed
            if not refresh:
                return codemap
        codemap.refresh(progress, link_later=link_later)
        return codemap

    def refresh(self, progress: BuildProgress | None = None, *, link_later: bool = False) -> None:
        """Check every file against the disk and bring the map up to date, saving when
        anything moved (see `open`, which does it unless told not to: a server starts
        watching the disk between the two, so that no edit falls between the check and
        the watch)."""
        self._link_later = link_later
        stored_layout = self._layout
        report = self.rebuild(progress)
        self._link_later = False
        if self._pending:
            return
        moved = report.files_changed or report.files_removed or report.restamped
        if report.full or moved or self._layout != stored_layout:
            try:
                self.save(progress=progress)
            except (MapError, OutsideRootError) as exc:  # the map works without a store
                log.warning("%s", exc)

    @staticmethod
    def has_store(root: Path, settings: MapSettings | None = None) -> bool:
        """Whether `root` has a map store to open from (a file there; not opened)."""
        try:
            path = store_file(root.resolve(), (settings or MapSettings()).snapshot_dir)
        except OutsideRootError:
            return False
        return path.is_file()

    def rebuild(
        self, progress: BuildProgress | None = None, paths: Iterable[str] | None = None
    ) -> BuildReport:
        """Check the files against the disk and bring the graph up to date.

        Every file is stat-checked (the last listing taken as it stands while no
        directory moved, see map.live.recheck), unless `paths` names the only files
        that may have changed (as a watcher knows): then only those are checked,
        provided the map already knows them all; a new path (or a first
        rebuild) still lists the whole tree.
        """
        started = time.monotonic()
        flagged_before = StaleFlags.now()
        scan_time = datetime.now(UTC)
        known = (self._stamps, self._skipped_files)
        reading = for_phase(progress, "reading")
        found, targets, touched = recheck(
            self.root, self.settings, paths, self._last_scan, known, reading, self.team
        )
        if self.team is not None and found.shared is not None:
            _share(self.team, found.shared, found.packed)
        maybe_gone = self._stamps if touched is None else touched
        removed = sorted(p for p in maybe_gone if p not in found.stamps and p in self._stamps)
        relinked = 0
        in_store = None
        if found.extracts and not removed and not self._pending and not self._broken:
            in_store = self._relink_stored(found)
            if self._store_failed():  # the map was emptied: build it from scratch
                return self.rebuild(progress)
        if in_store is not None:
            relinked = in_store
        elif self._link_later and not self._loaded and found.layout == self._layout:
            self._defer(found, removed)
        elif found.extracts or removed or found.layout != self._layout or self._broken:
            if not self._materialize():
                return self.rebuild(progress)
            self._broken = False
            files = {**found.extracts, **dict.fromkeys(removed)}
            linking = for_phase(progress, "linking")
            intake = (found.layout, found.packed, linking, found.references)
            stats = self._linker.update(files, *intake)
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
        self._skipped, self._layout = found.skip_counts, found.layout
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

    def publish_snapshot(self) -> str:
        """Put this map, linked and saved, in the team store as the map of the checkout's
        HEAD commit (map.store.team_snapshot); returns the commit. Raises TeamStoreError
        without a team store, when the checkout is not exactly its HEAD commit, or when
        the store refuses it."""
        if self.team is None:
            raise TeamStoreError("no team store to publish the map to (--store)")
        commit = exact_commit(self.root)
        if commit is None:
            raise TeamStoreError(
                f"{self.root}: a map is published only of a checkout that is exactly its "
                "HEAD commit (modified, staged or untracked files here)",
                "commit or clean them first, e.g. publish from CI",
            )
        self.save()
        if self._store is None:
            raise TeamStoreError(f"{self.root}: the map could not be saved, so not published")
        self.team.put_snapshot(commit, self._version_key(), packed_store(self._store.path))
        return commit

    def _version_key(self) -> str:
        return map_version(self.settings.max_file_bytes, self.settings.exclude)

    def team_status(self) -> TeamStatus | None:
        """The team store as this process used it (None: the map has none)."""
        return None if self.team is None else self.team.status()

    def _defer(self, found: Scan, removed: Iterable[str]) -> None:
        """Record changes for `_materialize` to link (see `open`'s `link_later`), their
        extracts whole: lookups answer from them meanwhile."""
        self._pending.update((p, unpacked(p, found.packed[p])) for p in found.extracts)
        self._pending.update(dict.fromkeys(removed))
        if self._pending:
            self._version += 1

    def _relink_stored(self, found: Scan) -> int | None:
        """Link changed files against the store, the graph left unloaded
        (map.store.store_link): their rows, and those of every file whose nodes, edges or
        resolutions moved, wait for `save`. The files relinked whole; None when the
        edit moves the layout or the store proved unusable (the caller then links in
        the loaded graph)."""
        store = self._store
        if store is None or self._loaded or found.layout != self._layout:
            return None
        self._stand_in.forget()  # what it read of the store moves with the next save
        try:
            relinked = relink_in_store(store, self._stamps.keys(), found)
        except StoreError as exc:
            self._forget_store(exc)
            return None
        if relinked is None:
            return None
        per_file = self._edge_counts.per_file
        for path, rows in relinked.rows.items():
            if rows is not None:
                per_file[path] = len(rows.edges) + len(rows.extract.symbols)  # `contains` too
        self._counts["symbols"] = int(self._counts.get("symbols", 0)) + relinked.symbols_added
        self._counts["edges"] = sum(per_file.values())
        self._relinked_rows.update(relinked.rows)
        self._dirty |= relinked.rows.keys()
        self._version += 1
        return relinked.stats.files_relinked

    def _store_failed(self) -> bool:
        """Whether the store proved unusable (the map was emptied: rebuild it whole)."""
        return self._broken

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
        with self._give_way.answering():  # a stat each: a load must not hold every one up
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


def _share(team: TeamStore, outcome: SharedOutcome, packed: Mapping[str, bytes]) -> None:
    """Tell the team store what a scan took from it, and give it what was extracted
    here that it may take (`outcome.publishable`: committed content, unless told
    otherwise), packed as it was extracted."""
    team.record(outcome)
    team.publish({key: packed[p] for p, key in outcome.publishable.items() if p in packed})
