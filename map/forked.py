"""An ordered map over forked copies of this process: what each item makes, made in
children, handed back here in the items' order (e.g. a cold save's rows, built in
children while this process writes them).

Items go in chunks, chunk k to child k % workers, each chunk's results as one
frame down the child's pipe (plain tuples, pickled: only a child and the process
that forked it exchange them). A pipe holds little, so a child runs at most a
frame or two ahead of this process: memory stays flat. A child that fails, or
sends nothing for STALL_S (stuck: see map.link_share on forking with threads),
is ended, and its chunks are made here.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from map.link_share import STALL_S

T = TypeVar("T")

CHUNK_ITEMS = 16
_LENGTH = struct.Struct("<Q")


def forked_map(
    items: Sequence[T], workers: int, make: Callable[[T], Any]
) -> Iterator[tuple[T, Any]]:
    """(item, make(item)) for every item, in order, `make` run in `workers` forked
    children (here for the chunks of a child that failed). `make`'s results must be
    plain data (they are pickled)."""
    chunks = [items[i : i + CHUNK_ITEMS] for i in range(0, len(items), CHUNK_ITEMS)]
    children: list[tuple[int, int] | None] = []
    try:
        for first in range(min(workers, len(chunks))):
            children.append(_fork(chunks[first::workers], make))
        for index, chunk in enumerate(chunks):
            child = children[index % workers] if index % workers < len(children) else None
            made = None if child is None else _frame(*child)
            if made is None or len(made) != len(chunk):
                if child is not None:
                    _end(*child)
                    children[index % workers] = None
                made = [make(item) for item in chunk]
            yield from zip(chunk, made, strict=True)
    finally:
        for child in children:
            if child is not None:
                _end(*child)


def _fork(chunks: Sequence[Sequence[T]], make: Callable[[T], Any]) -> tuple[int, int]:
    """A child that makes `chunks` in order, a frame each down a pipe: (pid, read end)."""
    read, write = os.pipe()
    pid = os.fork()
    if pid:
        os.close(write)
        return pid, read
    code = 1
    try:
        os.close(read)
        with os.fdopen(write, "wb") as out:
            for chunk in chunks:
                frame = pickle.dumps([make(item) for item in chunk], pickle.HIGHEST_PROTOCOL)
                out.write(_LENGTH.pack(len(frame)) + frame)
                out.flush()
        code = 0
    finally:
        os._exit(code)  # never back into the parent's code


def _frame(pid: int, read: int) -> list[Any] | None:
    """The next frame from a child; None when it ended or stalled instead."""
    header = _read(read, _LENGTH.size)
    if header is None:
        return None
    body = _read(read, _LENGTH.unpack(header)[0])
    return None if body is None else list(pickle.loads(body))


def _read(fd: int, size: int) -> bytes | None:
    """`size` bytes from `fd`; None at its end or after STALL_S without any."""
    parts: list[bytes] = []
    while size:
        ready, _, _ = select.select([fd], [], [], STALL_S)
        part = os.read(fd, min(size, 1 << 20)) if ready else b""
        if not part:
            return None
        parts.append(part)
        size -= len(part)
    return b"".join(parts)


def _end(pid: int, read: int) -> None:
    """End a child (done or not) and close its pipe."""
    os.close(read)
    os.kill(pid, signal.SIGKILL)  # unreaped until below: never another process's pid
    os.waitpid(pid, 0)
