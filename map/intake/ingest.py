"""Compare the disk with what the map knows, and read, hash and extract what moved.

`scan` lists the files with their stat stamps (map.intake.walk: one stat each),
and reads only those whose stamp moved; of those, only the ones whose
content hash moved are extracted (in a process pool when many), and with a
team store only those it holds no row for (map.intake.shared). The stat
stamp is taken before the read, so an edit racing the read shows up as a
moved stamp on the next scan.

Pool workers die with the process that started the pool, however it ends
(even `kill -9`): each watches it from a thread (`_watch_parent`). Their own
parent is multiprocessing's forkserver, which a killed build leaves behind
alive as long as any worker lives, so nothing else would ever end them.
"""

from __future__ import annotations

import gc
import logging
import os
import select
import threading
import time
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from disk.stamps import FileStamp, content_hash
from map.extraction.extract import extract_lists
from map.extraction.languages import language_for
from map.extraction.snapshot import unpack_lists
from map.intake.configs import Read, read_configs
from map.intake.shared import (
    SharedOutcome,
    SharedRows,
    accept,
    git_object_format,
    probe,
    publishable,
)
from map.intake.walk import (
    SKIP_TOO_LARGE,
    SKIP_UNREADABLE,
    Listing,
    content_skip_reason,
    list_files,
    read_go_modules,
)
from map.intake.wire import Sent, dumps, loads, sent, stamp_of
from map.linking.layout import Layout
from map.linking.packed import for_linking
from map.linking.references import References
from map.model import FileExtract

POOL_THRESHOLD = 50
"""More files to read than this go to a process pool."""
CHUNK_FILES = 16
PARENT_POLL_S = 0.5
"""How often a worker checks on its parent where pidfds are missing (not Linux)."""
SKIP_EXTRACT_FAILED = "extract_failed"

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]
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
    """The TS/JS configuration files as read (map.intake.configs), for the next scan."""
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
    layout = Layout(modules, {path: facts for path, (_, facts) in configs.items()})
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


@dataclass(frozen=True, slots=True)
class Loaded:
    """One file read from disk.

    `stamp` None: the file is gone. `intake` None with a `content_hash`:
    content unchanged. `skipped`: why the file stays out of the map.
    """

    path: str
    stamp: FileStamp | None
    content_hash: str | None = None
    intake: tuple[FileExtract, References] | None = None
    """The new extract as the linker takes it in (map.linking.packed.for_linking)."""
    skipped: str | None = None
    packed: bytes | None = None
    """The new extract packed as the linker keeps it (map.intake.wire)."""


def load_one(root: str, path: str, known_hash: str | None, max_bytes: int) -> Sent:
    """Stat, read, hash and (when the hash moved) extract one file, as it crosses the
    pool (map.intake.wire): the extract as the store's compact lists, packed, never as objects."""
    full = Path(root, path)
    stamp = FileStamp.of(full)
    if stamp is None:
        return sent(path, None, None, None, None)
    if stamp.size > max_bytes:
        return sent(path, stamp, None, None, SKIP_TOO_LARGE)
    try:
        data = full.read_bytes()
    except OSError:
        return sent(path, stamp, None, None, SKIP_UNREADABLE)
    reason = content_skip_reason(data, path=path)
    if reason is not None:
        return sent(path, stamp, None, None, reason)
    digest = content_hash(data)
    if digest == known_hash:
        return sent(path, stamp, digest, None, None)
    try:
        lists = extract_lists(path, data)
    except Exception:  # one bad file must never stop the build; it is counted instead
        log.warning("extraction of %s failed; the file is left out of the map", path, exc_info=True)
        return sent(path, stamp, None, None, SKIP_EXTRACT_FAILED)
    return sent(path, stamp, digest, lists, None)


def _received(item: Sent) -> Loaded:
    """One file as `load_one` sent it, its extract decoded for the linker."""
    path, stamp, digest, blob, skipped = item
    intake = None if blob is None else for_linking(path, unpack_lists(blob))
    return Loaded(path, stamp_of(stamp), digest, intake, skipped, blob)


def _watch_parent(parent: int) -> None:
    """Pool worker initializer: exit the moment process `parent` is gone."""
    try:
        handle = os.pidfd_open(parent)
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):  # no pidfds here: poll instead
        handle = -1

    def watch() -> None:
        if handle >= 0:
            select.select([handle], [], [])  # a pidfd turns readable when its process ends
        else:
            while _alive(parent):
                time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _load_chunk(root: str, items: Sequence[tuple[str, str | None]], max_bytes: int) -> bytes:
    """Pool task: load `items`, packed for the trip back (map.intake.wire); then collect
    whatever cycles the chunk left (automatic collection is off in workers)."""
    packed = dumps([load_one(root, path, known, max_bytes) for path, known in items])
    gc.collect()
    return packed


def _start_worker(parent: int) -> None:
    """Pool worker initializer: die with `parent`; no automatic collections.

    Extraction makes many short-lived objects and almost no cycles, which
    reference counting frees; automatic passes cost a tenth of the extraction
    time. Each chunk ends with one collection instead, over little: the
    imported modules are frozen out of the collector's view first.
    """
    gc.disable()
    gc.freeze()
    _watch_parent(parent)


def load_many(
    root: Path,
    items: Sequence[tuple[str, str | None]],
    *,
    max_bytes: int,
    workers: int,
    progress: Progress | None = None,
) -> Iterator[Loaded]:
    """Load every (path, known hash) in `items`; a pool runs when there are many."""
    total = len(items)
    count = workers or min(os.cpu_count() or 1, 4)
    if total <= POOL_THRESHOLD or count <= 1:
        for done, (path, known) in enumerate(items, 1):
            yield _received(load_one(str(root), path, known, max_bytes))
            if progress is not None:
                progress(done, total)
        return
    import multiprocessing  # a pool's only: a one-file edit or a no-op loads none
    from concurrent.futures import ProcessPoolExecutor

    chunks = [items[i : i + CHUNK_FILES] for i in range(0, total, CHUNK_FILES)]
    context = multiprocessing.get_context("forkserver")
    done = 0
    with ProcessPoolExecutor(
        max_workers=count, mp_context=context, initializer=_start_worker, initargs=(os.getpid(),)
    ) as pool:
        for packed in pool.map(
            _load_chunk, [str(root)] * len(chunks), chunks, [max_bytes] * len(chunks)
        ):
            batch = loads(packed)
            for item in batch:
                yield _received(item)
            done += len(batch)
            if progress is not None:
                progress(done, total)
