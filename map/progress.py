"""How far a long build is: its phases, and the counts each one reports.

A build (`CodeMap.open`, `rebuild`, `save`, `load_graph`) tells a
`BuildProgress` listener how many files of each phase are done; each step
that works through files hears only its own counts (`for_phase`) and reports
them with `counted`, every PROGRESS_EVERY files and at its end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sized
from functools import partial
from typing import Literal, TypeVar

BuildPhase = Literal["reading", "linking", "saving"]
"""A build's phases, in order: files read and extracted, files linked, files saved."""
BuildProgress = Callable[[BuildPhase, int, int], None]
"""`progress(phase, done, total)`: how many of a phase's files are done."""
Progress = Callable[[int, int], None]
"""`progress(done, total)`: the counts of one phase."""
PROGRESS_EVERY = 64
"""A phase reports its count every this many files (and at its end)."""

T = TypeVar("T")


def for_phase(progress: BuildProgress | None, phase: BuildPhase) -> Progress | None:
    """`progress` for the counts of one phase (None: nobody listens)."""
    return None if progress is None else partial(progress, phase)


def counted(progress: Progress | None, items: Iterable[T], total: int | None = None) -> Iterator[T]:
    """`items` one by one, telling `progress` how many are done before every
    PROGRESS_EVERY-th and after the last; `total`: how many there are (by default
    `len(items)`)."""
    if total is None:
        total = len(items) if isinstance(items, Sized) else 0
    for done, item in enumerate(items):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done, total)
        yield item
    if progress is not None:
        progress(total, total)
