"""What a rebuild finds on disk, and how much of it may have moved.

A whole check takes the last scan's listing as it stands when no directory
moved since (map.intake.walk.moved_since: a stat per directory and per file) and
reads only the files whose stamp moved; otherwise, or when a watcher names
the files, map.live.rescan decides (the whole tree listed again, or those files).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from map.intake.ingest import Known, Scan
from map.intake.load import Progress
from map.intake.shared import SharedRows
from map.intake.walk import moved_since
from map.live.reports import MapSettings
from map.live.rescan import rescan


def recheck(
    root: Path,
    settings: MapSettings,
    paths: Iterable[str] | None,
    last: Scan | None,
    known: tuple[Known, Known],
    progress: Progress | None = None,
    shared: SharedRows | None = None,
) -> tuple[Scan, set[str] | None, set[str] | None]:
    """The disk compared with the `last` scan (or the `known` stamps and skipped
    files), the files checked (None: all), and those whose stamp or content may
    have moved (None: any), for the caller to look no further. `shared`: a team
    store asked before extracting (map.intake.shared)."""
    if paths is None and last is not None and last.listing is not None:
        configs = {path: stamp for path, (stamp, _) in last.configs.items()}
        moved = moved_since(root, last.listing, *known, configs)
        if moved == []:
            return replace(last, restamped=0), None, set()
        if moved is not None:
            found, touched = rescan(root, settings, moved, last, known, progress, shared)
            return found, None, touched
    found, targets = rescan(root, settings, paths, last, known, progress, shared)
    return found, targets, targets
