"""Pause the cyclic garbage collector while a bulk step creates many objects.

Building the graph or decoding a snapshot allocates hundreds of thousands of
small containers and frees almost none; every automatic collection would
scan the whole growing heap again, more than doubling the time. Reference
counting still frees garbage meanwhile; the collector's previous state is
restored on exit.

What the body built is long-lived, so it is frozen on exit (moved out of the
collector's generations): otherwise the first collection afterwards rescans
all of it, a half-second stall inside the next user-facing update.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Run the body with automatic cyclic collection off."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()
