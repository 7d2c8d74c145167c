"""Read, hash and extract files: one at a time, or in a pool of workers when many.

What a worker sends back crosses the pool packed (map.intake.wire) and is
decoded here for the linker (`Loaded`).

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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from disk.stamps import FileStamp, content_hash
from map.extraction.extract import extract_lists
from map.extraction.snapshot import unpack_lists
from map.intake.walk import (
    SKIP_TOO_LARGE,
    SKIP_UNREADABLE,
    content_skip_reason,
)
from map.intake.wire import Sent, dumps, loads, sent, stamp_of
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
