"""A progress bar for long builds: on a terminal only, and only after a second."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from map import BuildPhase, BuildProgress

SHOW_AFTER_S = 1.0


@contextmanager
def build_progress(label: str, *, enabled: bool) -> Iterator[BuildProgress]:
    """A `progress(phase, done, total)` callback that draws a bar on stderr, saying
    which phase the build is in, once a build has run for a second; a no-op when
    disabled or stderr is not a terminal."""
    if not enabled or not sys.stderr.isatty():
        yield lambda phase, done, total: None
        return
    from rich.console import Console  # a terminal's only: `--json` and pipes skip it
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from bridge.server.call_progress import PHASES

    started = time.monotonic()
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=None)
    try:

        def update(phase: BuildPhase, done: int, total: int) -> None:
            if not bar.live.is_started and time.monotonic() - started >= SHOW_AFTER_S:
                bar.start()
            description = f"{label}: {PHASES[phase]}"
            bar.update(task, description=description, completed=done, total=total)

        yield update
    finally:
        bar.stop()
