"""Compare the disk with what the map knows, and read, hash and extract what moved.

`scan` lists the files with their stat stamps (map.intake.walk: one stat each),
and reads only those whose stamp moved; of those, only the ones whose
content hash moved are extracted (map.intake.load: in a process pool when
many), and with a team store only those it holds no row for
(map.intake.shared). The stat stamp is taken before the read, so an edit
racing the read shows up as a moved stamp on the next scan.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from disk.stamps import FileStamp
from map.extraction.languages import language_for
from map.intake.configs import Read, read_configs
from map.intake.load import Loaded, Progress, load_many
from map.intake.shared import (
    SharedOutcome,
    SharedRows,
    accept,
    git_object_format,
    probe,
    publishable,
)
from map.intake.walk import (
    Listing,
    list_files,
    read_go_modules,
)
from map.linking.layout import Layout
from map.linking.references import References
from map.model import FileExtract

Known = Mapping[str, tuple[FileStamp, str]]


@dataclass(frozen=True)
class Scan:
    """The disk as found: `stamps` and `skipped` cover every listed file,
    `extracts` only those whose content is new or changed, each as the linker takes it
    in (map.linking.packed.for_linking: with `packed` and `references`)."""

    stamps: dict[str, tuple[FileStamp, str]]
    skipped: dict[str, tuple[FileStamp, str]]
    extracts: dict[str, FileExtract]
    skip_counts: dict[str, int]
    layout: Layout
    restamped: int
    """Files whose stamp moved but whose content did not."""
    listing_skips: dict[str, int]
    """The part of `skip_counts` decided by path alone (vendored, excluded, ...)."""
    listing: Listing | None = None
    """The last full listing, for the next scan to reuse (see `list_files`)."""
    packed: dict[str, bytes] = field(default_factory=dict)
    """Each of `extracts` packed as the linker keeps it (map.linking.packed)."""
    references: dict[str, References] = field(default_factory=dict)
    """The references of each of `extracts`, as columns (map.linking.references)."""
    configs: Read = field(default_factory=dict)
    """The TS/JS and Composer configuration files as read (map.intake.configs), for the
    next scan."""
    shared: SharedOutcome | None = None
    """What a team store gave (None: no store was asked; see map.intake.shared)."""


@dataclass(frozen=True)
class ScanOptions:
    """What to list and how to read it."""

    max_file_bytes: int
    exclude: tuple[str, ...]
    workers: int
    snapshot_dir: str
    shared: SharedRows | None = None
    """A team store asked for rows before anything is extracted (map.intake.shared)."""


def scan(
    root: Path,
    options: ScanOptions,
    stamps: Known,
    skipped: Known,
    progress: Progress | None = None,
    previous: Scan | None = None,
) -> Scan:
    """Compare the disk with the known (stamp, hash) and (stamp, skip reason) of each
    file; the `previous` scan's listing (same options) spares work that did not move."""
    listing = list_files(
        root,
        accept=lambda p: language_for(p) is not None,
        exclude=options.exclude,
        snapshot_dir=options.snapshot_dir,
        previous=None if previous is None else previous.listing,
    )
    modules = read_go_modules(root, listing.go_mods)
    configs = read_configs(root, listing.configs, previous.configs if previous else {})
    layout = Layout(
        modules,
        {path: facts for path, (_, facts) in configs.items() if facts["kind"] != "composer"},
        {path: facts for path, (_, facts) in configs.items() if facts["kind"] == "composer"},
    )
    found = Scan({}, {}, {}, {}, layout, 0, listing.skipped, listing, configs=configs)
    listed = ((p, listing.stamps[p]) for p in listing.files)  # stat-ed as listed, not again
    return _check(root, options, listed, stamps, skipped, found, progress)


def scan_known(
    root: Path,
    options: ScanOptions,
    paths: Collection[str],
    previous: Scan,
    progress: Progress | None = None,
) -> Scan:
    """Check only `paths`, all of them files the previous scan listed; the rest is kept."""
    found = Scan(
        {p: v for p, v in previous.stamps.items() if p not in paths},
        {p: v for p, v in previous.skipped.items() if p not in paths},
        {},
        {},
        previous.layout,
        0,
        previous.listing_skips,
        previous.listing,
        configs=previous.configs,
    )
    base = os.path.join(root, "")
    listed = [(path, FileStamp.of(base + path)) for path in sorted(paths)]
    return _check(root, options, listed, previous.stamps, previous.skipped, found, progress)


def _check(
    root: Path,
    options: ScanOptions,
    listed: Iterable[tuple[str, FileStamp | None]],
    stamps: Known,
    skipped: Known,
    found: Scan,
    progress: Progress | None,
) -> Scan:
    """Compare the stat stamps of `listed` (None: gone) with the known ones into `found`;
    read, hash and extract the files whose stamp moved."""
    to_load: list[tuple[str, str | None]] = []
    for path, stamp in listed:
        if stamp is None:
            continue
        known = stamps.get(path)
        if known is not None and known[0] == stamp:
            found.stamps[path] = known
            continue
        passed = skipped.get(path)
        if passed is not None and passed[0] == stamp:
            found.skipped[path] = passed
        else:
            to_load.append((path, known[1] if known is not None else None))
    restamped = 0
    shared = options.shared
    outcome = SharedOutcome() if shared is not None and to_load else None
    if shared is not None and outcome is not None:
        loads = _through_shared(root, options, shared, to_load, outcome, progress)
    else:
        cap, workers = options.max_file_bytes, options.workers
        loads = load_many(root, to_load, max_bytes=cap, workers=workers, progress=progress)
    for loaded in loads:
        if loaded.stamp is None:
            continue
        if loaded.skipped is not None:
            found.skipped[loaded.path] = (loaded.stamp, loaded.skipped)
        elif loaded.content_hash is not None:
            found.stamps[loaded.path] = (loaded.stamp, loaded.content_hash)
            if loaded.intake is not None and loaded.packed is not None:
                found.extracts[loaded.path], found.references[loaded.path] = loaded.intake
                found.packed[loaded.path] = loaded.packed
            else:
                restamped += 1
    counts = Counter(found.listing_skips) + Counter(r for _, r in found.skipped.values())
    return Scan(
        found.stamps,
        found.skipped,
        found.extracts,
        dict(counts),
        found.layout,
        restamped,
        found.listing_skips,
        found.listing,
        found.packed,
        found.references,
        found.configs,
        outcome,
    )


def _through_shared(
    root: Path,
    options: ScanOptions,
    shared: SharedRows,
    items: Sequence[tuple[str, str | None]],
    outcome: SharedOutcome,
    progress: Progress | None,
) -> Iterator[Loaded]:
    """Load `items` as `load_many` does, but read and hash them first and take from the
    team store the extracts it holds of those contents: only the rest is extracted here.
    Once exhausted, `outcome` says what the store gave and which extracts it may take."""
    sha256 = shared.publishing == "committed" and git_object_format(root) == "sha256"
    known = dict(items)
    probes = [probe(root, path, options.max_file_bytes, sha256) for path, _ in items]
    asked = {p.key for p in probes if p.key is not None and p.content_hash != known[p.path]}
    rows = shared.fetch(asked) if asked else {}
    misses: list[tuple[str, str | None]] = []
    for found in probes:
        key, digest = found.key, found.content_hash
        if key is None or digest == known[found.path]:  # gone, skipped or restamped
            yield Loaded(found.path, found.stamp, digest, None, found.skipped)
            continue
        row = rows.get(key)
        intake = None if row is None else accept(found.path, key, row)
        if intake is None:
            if row is not None:
                outcome.refused.append(found.path)
            misses.append((found.path, known[found.path]))
            continue
        outcome.fetched += 1
        yield Loaded(found.path, found.stamp, digest, intake, None, row)
    ready = len(items) - len(misses)

    def counted(done: int, total: int) -> None:
        if progress is not None:
            progress(ready + done, ready + total)

    made: dict[str, str] = {}
    workers, cap = options.workers, options.max_file_bytes
    for loaded in load_many(root, misses, max_bytes=cap, workers=workers, progress=counted):
        if loaded.intake is not None and loaded.content_hash is not None:
            made[loaded.path] = loaded.content_hash
        yield loaded
    outcome.extracted = len(made)
    outcome.publishable = publishable(probes, made, shared.publishing, root)
