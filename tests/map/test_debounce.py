"""The rebuild policy, driven by a fake clock: quiet period, max wait, one at a time."""

from __future__ import annotations

import pytest

from map.live.debounce import DebouncePolicy, RebuildScheduler

POLICY = DebouncePolicy(quiet=0.3, max_wait=2.0)


def test_a_single_event_rebuilds_after_the_quiet_period() -> None:
    scheduler = RebuildScheduler(POLICY)
    scheduler.note_events(10.0)
    assert scheduler.pending
    assert not scheduler.due(10.29)
    assert scheduler.due(10.3)


def test_each_new_event_restarts_the_quiet_period() -> None:
    scheduler = RebuildScheduler(POLICY)
    scheduler.note_events(0.0)
    scheduler.note_events(0.2)
    assert not scheduler.due(0.35)
    assert scheduler.due(0.5)


def test_a_continuous_stream_still_rebuilds_after_max_wait() -> None:
    scheduler = RebuildScheduler(POLICY)
    now = 0.0
    while now < 1.95:
        scheduler.note_events(now)
        assert not scheduler.due(now)
        now = round(now + 0.1, 6)
    scheduler.note_events(now)
    assert scheduler.due(2.0)
    assert scheduler.deadline() == pytest.approx(2.0)


def test_a_burst_of_events_makes_one_rebuild() -> None:
    scheduler = RebuildScheduler(POLICY)
    for step in range(1000):
        scheduler.note_events(step * 0.0001)
    deadline = scheduler.deadline()
    assert deadline is not None
    scheduler.begin(deadline)
    scheduler.finish()
    assert not scheduler.pending
    assert scheduler.deadline() is None


def test_events_during_a_rebuild_queue_exactly_one_more() -> None:
    scheduler = RebuildScheduler(POLICY)
    scheduler.note_events(0.0)
    scheduler.begin(0.3)
    for step in range(50):
        scheduler.note_events(0.4 + step * 0.01)
        assert not scheduler.due(5.0), "no second rebuild may start while one runs"
    scheduler.finish()
    assert scheduler.due(5.0)
    scheduler.begin(5.0)
    scheduler.finish()
    assert scheduler.deadline() is None


def test_after_a_long_rebuild_the_queued_one_starts_at_once_if_max_wait_passed() -> None:
    scheduler = RebuildScheduler(POLICY)
    scheduler.note_events(0.0)
    scheduler.begin(0.3)
    scheduler.note_events(0.5)
    scheduler.note_events(3.0)
    scheduler.finish()
    assert scheduler.due(3.0)


def test_nothing_is_due_without_events() -> None:
    scheduler = RebuildScheduler(POLICY)
    assert scheduler.deadline() is None
    assert not scheduler.due(1e9)
    with pytest.raises(RuntimeError, match="no rebuild is due"):
        scheduler.begin(1e9)


def test_a_policy_whose_max_wait_is_shorter_than_quiet_is_refused() -> None:
    with pytest.raises(ValueError, match="quiet <= max_wait"):
        DebouncePolicy(quiet=1.0, max_wait=0.5)
