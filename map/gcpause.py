"""Pause the cyclic garbage collector while a bulk step creates many objects.

Building the graph or decoding a snapshot allocates hundreds of thousands of
small containers and frees almost none; every automatic collection would
scan the whole growing heap again, more than doubling the time. Reference
counting still frees garbage meanwhile; the collector's previous state is
restored on exit.

What a bulk body built is long-lived, so it is frozen on exit (moved out of
the collector's generations): otherwise the first collection afterwards
rescans all of it, a half-second stall inside the next user-facing update.
A small body (one edit's rebuild or save: fewer than `BULK_OBJECTS` new
objects) is not frozen: a freeze also makes immortal every garbage cycle not
yet collected (a finished memory check's workspace, a superseded parse), so
freezing after every edit leaked what every call in between had dropped, for
as long as the server ran. A bulk freeze (a cold build, a load, a branch
switch) still keeps the cycles pending at that moment, once per bulk step.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

BULK_OBJECTS = 100_000
"""New objects a body must leave behind for it to count as bulk (and be frozen)."""


@contextmanager
def paused_gc() -> Iterator[None]:
    """Run the body with automatic cyclic collection off; freeze what a bulk body built."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if gc.get_count()[0] >= BULK_OBJECTS:
            gc.freeze()
        if was_enabled:
            gc.enable()
