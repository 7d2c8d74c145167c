"""A long job in a worker thread steps aside while an answer runs, and while it is sent."""

from __future__ import annotations

import threading
import time

import pytest

from map import give_way as give_way_module
from map.give_way import SENDING_S, GiveWay

WAIT_S = 10.0


def test_a_job_waits_while_an_answer_runs_and_while_it_is_sent() -> None:
    give_way = GiveWay()
    started, release = threading.Event(), threading.Event()

    def answer() -> None:
        with give_way.answering():
            started.set()
            release.wait(WAIT_S)

    answering = threading.Thread(target=answer)
    answering.start()
    assert started.wait(WAIT_S)
    resumed: list[float] = []
    job = threading.Thread(target=lambda: (give_way.pause(), resumed.append(time.monotonic())))
    job.start()
    job.join(0.2)
    assert not resumed, "the job went on while the answer ran"
    before_end = time.monotonic()
    release.set()
    answering.join(WAIT_S)
    job.join(WAIT_S)
    assert resumed and resumed[0] - before_end >= SENDING_S


def test_a_job_with_no_answer_around_goes_on_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_wait(seconds: float) -> None:
        raise AssertionError(f"the job waited {seconds} s with no answer around")

    monkeypatch.setattr(give_way_module.time, "sleep", no_wait)
    GiveWay().pause()
