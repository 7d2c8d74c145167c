"""A progress bar for long builds: on a terminal only, and only after a second."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

SHOW_AFTER_S = 1.0


@contextmanager
def build_progress(label: str, *, enabled: bool) -> Iterator[Callable[[int, int], None]]:
    """A `progress(done, total)` callback that draws a bar on stderr once a build
    has run for a second; a no-op when disabled or stderr is not a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield lambda done, total: None
        return
    started = time.monotonic()
    bar = Progress(
        label,
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=None)
    try:

        def update(done: int, total: int) -> None:
            if not bar.live.is_started and time.monotonic() - started >= SHOW_AFTER_S:
                bar.start()
            bar.update(task, completed=done, total=total)

        yield update
    finally:
        bar.stop()
