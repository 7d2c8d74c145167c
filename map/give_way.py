"""Let a long job in a worker thread (loading the graph) step aside while answers run.

Python runs one thread at a time: a thread that loads a whole map holds the
interpreter, and an answer from the store meanwhile waits up to the switch
interval for it at every query it makes (hundreds for a hub's neighbours: a
second). Answers mark themselves (`answering`); the job calls `pause` between
its steps, and waits while any answer runs and for SENDING_S after the last one
ended, while the server sends it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

PAUSE_S = 0.001
"""How long the job sleeps before it looks again whether answers are done."""
SENDING_S = 0.05
"""How long the job still waits after the last answer ended: the server is sending it
(serializing, writing), and the job would take the interpreter from it every switch
interval meanwhile (a hub's neighbours, found in 60 ms, reached the client 0.7-0.9 s
later while a graph built from rows read ahead)."""


class GiveWay:
    """Counts the answers running; `pause` waits until there are none."""

    def __init__(self) -> None:
        self._running = 0
        self._ended = 0.0
        self._lock = threading.Lock()

    @contextmanager
    def answering(self) -> Iterator[None]:
        """Mark an answer as running for the body."""
        with self._lock:
            self._running += 1
        try:
            yield
        finally:
            with self._lock:
                self._running -= 1
                self._ended = time.monotonic()

    def pause(self) -> None:
        """Wait while any answer runs or was sent until SENDING_S ago (a job calls this
        between its steps)."""
        while self._running or time.monotonic() - self._ended < SENDING_S:
            time.sleep(PAUSE_S)
