"""Which files a rebuild checks: only those a watcher names, when the map knows
them all (each stat-checked, hashed when its stamp moved); else the whole tree,
listed again from the previous listing (a stat per directory and per file; only
the directories that moved are read again, see map.intake.treewalk)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from map.gcpause import paused_gc
from map.intake.ingest import Known, Scan, ScanOptions, scan, scan_known
from map.intake.load import Progress
from map.intake.shared import SharedRows
from map.live.reports import MapSettings
from map.live.stale import relative_path


def rescan(
    root: Path,
    settings: MapSettings,
    paths: Iterable[str] | None,
    previous: Scan | None,
    known: tuple[Known, Known],
    progress: Progress | None = None,
    shared: SharedRows | None = None,
) -> tuple[Scan, set[str] | None]:
    """The disk compared with the `previous` scan, or with the `known` stamps and
    skipped files; and the files it checked (None: every file). `shared`: a team
    store asked before extracting (map.intake.shared)."""
    options = ScanOptions(
        settings.max_file_bytes, settings.exclude, settings.workers, settings.snapshot_dir, shared
    )
    targets = None if paths is None else {r for p in paths if (r := relative_path(root, p))}
    if (
        targets is not None
        and previous is not None
        and all(p in previous.stamps or p in previous.skipped for p in targets)
    ):
        return scan_known(root, options, targets, previous, progress), targets
    with paused_gc():  # a cold build unpickles every file's extract from the pool
        return scan(root, options, *known, progress, previous), None
