"""A first link of many files shared with forked copies of the linking process.

Once every file's tables are built (scopes, definitions, bound imports),
they are read-only while references resolve: a child forked then holds
them all without copying, and resolves the files it claims exactly as the
parent would. The parent resolves the files it claims itself, then takes
in what each child sent about the rest (`take`): far less work than
resolving them (map.linker's `_take_shared`).

Files are claimed a chunk at a time through a shared counter, so a process
slowed by other work on the machine claims fewer. A child writes a frame per
chunk into its own temporary file (plain tuples, pickled: only a child and
the process that forked it exchange them); a child that fails leaves its
last chunks unsent, and the parent resolves whatever it did not receive.

A child forked from a process with other threads (a server building its first
map) has only the forking thread: what it runs takes no lock another thread may
hold (no import, no logging, no I/O but its own file), and a child that stops
sending for STALL_S is ended and its files linked here all the same. Where
fork is missing, every file links in this process.
"""

from __future__ import annotations

import logging
import os
import pickle
import signal
import struct
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from typing import IO, Any

from map.progress import PROGRESS_EVERY, Progress

STALL_S = 60.0
"""A child that sends nothing for this long is taken to be stuck (a chunk takes ~1 s)."""
SHARE_FILES = 256
"""Fewer files to link than this link in this process alone (a fork costs more)."""
CHUNK_FILES = 16
"""Files claimed at a time."""
_LENGTH = struct.Struct("<Q")

log = logging.getLogger(__name__)


def can_share(files: int, workers: int) -> bool:
    """Whether linking `files` files with `workers` processes should fork."""
    return workers > 1 and files >= SHARE_FILES and hasattr(os, "fork")


def link_shared(
    paths: Sequence[str],
    workers: int,
    relink: Callable[[str], None],
    describe: Callable[[str], Any],
    take: Callable[[str, Any], None],
    progress: Progress | None = None,
) -> None:
    """Link every file of `paths`: `relink(path)` resolves one in this process; in
    `workers - 1` forked children it does too, and `describe(path)` says what a
    child sends back about it (plain tuples), which `take(path, described)` takes
    in here. Every path is relinked or taken exactly once; `progress(done, total)`
    hears how many (from this process only)."""
    import multiprocessing  # the shared counter's (a small link never imports it)

    chunks = [paths[i : i + CHUNK_FILES] for i in range(0, len(paths), CHUNK_FILES)]
    claimed = multiprocessing.get_context("fork").Value("q", 0)

    def claim() -> Iterator[Sequence[str]]:
        while True:
            with claimed.get_lock():
                index = claimed.value
                claimed.value = index + 1
            if index >= len(chunks):
                return
            yield chunks[index]

    children: list[tuple[int, IO[bytes]]] = []
    try:
        children.extend(_fork(claim, relink, describe) for _ in range(workers - 1))
        done: set[str] = set()
        report = _Reported(progress, len(paths))
        for chunk in claim():
            for path in chunk:
                relink(path)
                report.one()
            done.update(chunk)
        while children:
            pid, sent = children[0]
            status = _ended(pid, sent)
            children.pop(0)
            if status:
                log.warning("a linking process ended with %s: this one links its files", status)
            with sent:
                for path, described in _frames(sent):
                    take(path, described)
                    done.add(path)
                    report.one()
    finally:
        for pid, sent in children:  # only when this process failed: nothing to take
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            sent.close()
    for path in paths:  # what a failed child did not send
        if path not in done:
            relink(path)
            report.one()
    if progress is not None:
        progress(len(paths), len(paths))


class _Reported:
    """Counts files done and tells `progress` every PROGRESS_EVERY of them."""

    def __init__(self, progress: Progress | None, total: int) -> None:
        self._progress = progress
        self._total = total
        self._done = 0

    def one(self) -> None:
        if self._progress is not None and self._done % PROGRESS_EVERY == 0:
            self._progress(self._done, self._total)
        self._done += 1


def _fork(
    claim: Callable[[], Iterator[Sequence[str]]],
    relink: Callable[[str], None],
    describe: Callable[[str], Any],
) -> tuple[int, IO[bytes]]:
    """A child that links the chunks it claims and writes a frame for each into the
    returned file; its pid."""
    sent = tempfile.TemporaryFile()  # noqa: SIM115 (the caller closes it)
    pid = os.fork()
    if pid:
        return pid, sent
    code = 1
    try:
        for chunk in claim():
            for path in chunk:
                relink(path)
            frame = pickle.dumps([(p, describe(p)) for p in chunk], pickle.HIGHEST_PROTOCOL)
            sent.write(_LENGTH.pack(len(frame)) + frame)
            sent.flush()  # seen by the parent's watch (`_ended`)
        code = 0
    finally:
        os._exit(code)  # never back into the parent's code


def _ended(pid: int, sent: IO[bytes]) -> int:
    """Wait for child `pid` to end, ending it when it stops sending for STALL_S; its
    exit code (negative: the signal that ended it)."""
    size, since = -1, time.monotonic()
    while True:
        ended, status = os.waitpid(pid, os.WNOHANG)
        if ended:
            return os.waitstatus_to_exitcode(status)
        now = time.monotonic()
        grown = os.fstat(sent.fileno()).st_size
        if grown != size:
            size, since = grown, now
        elif now - since > STALL_S:
            os.kill(pid, signal.SIGKILL)
        time.sleep(0.01)


def _frames(sent: IO[bytes]) -> Iterator[tuple[str, Any]]:
    """What a child wrote, frame by frame (a frame cut short ends it)."""
    sent.seek(0)
    while len(header := sent.read(_LENGTH.size)) == _LENGTH.size:
        frame = sent.read(_LENGTH.unpack(header)[0])
        if len(frame) < _LENGTH.unpack(header)[0]:
            return
        yield from pickle.loads(frame)
