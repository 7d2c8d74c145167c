"""The collector pause around bulk steps: it freezes what a bulk body built, and
never makes a small body's (or anyone's) garbage immortal."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from map.gcpause import BULK_OBJECTS, paused_gc


class Node:
    """A garbage cycle's member: only the cyclic collector frees it."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture(autouse=True)
def thawed() -> Iterator[None]:
    gc.collect()
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_a_small_body_freezes_nothing_and_its_garbage_is_collected() -> None:
    dropped = Node()
    alive = weakref.ref(dropped)
    del dropped  # a cycle made before the body (a finished call's workspace)
    with paused_gc():
        made = [Node() for _ in range(100)]
    assert gc.isenabled()
    assert gc.get_freeze_count() == 0
    del made
    gc.collect()
    assert alive() is None


def test_a_bulk_body_is_frozen_and_collection_resumes() -> None:
    with paused_gc():
        built = [[i] for i in range(BULK_OBJECTS + 1)]
        assert not gc.isenabled()
    assert gc.isenabled()
    assert gc.get_freeze_count() >= BULK_OBJECTS
    assert len(built) == BULK_OBJECTS + 1


def test_the_collector_stays_off_when_it_was_off() -> None:
    gc.disable()
    try:
        with paused_gc():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
