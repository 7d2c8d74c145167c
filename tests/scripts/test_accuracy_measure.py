"""How the accuracy benchmark reads an answer's own claim of completeness.

An answer short of the truth that does not say `partial` is a silent partial
answer: the figure the benchmark holds at zero. A missing field is a claim of
completeness, so today's answers and tomorrow's are judged alike.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture
def measure(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    return importlib.import_module("accuracy.measure")


def _envelope(data: dict[str, Any], truncated: object = None) -> dict[str, Any]:
    return {"ok": True, "data": data, "warnings": [], "truncated": truncated}


@pytest.mark.parametrize(
    ("data", "truncated", "claim"),
    [
        ({"locations": []}, None, "unstated"),
        ({"completeness": "complete"}, None, "complete"),
        ({"completeness": "partial"}, None, "partial"),
        ({"completeness": {"status": "partial", "reason": "loading"}}, None, "partial"),
        ({"completeness": "complete"}, {"items": "locations", "dropped": 3}, "partial"),
    ],
)
def test_the_claim_is_read_from_the_answer(
    measure: ModuleType, data: dict[str, Any], truncated: object, claim: str
) -> None:
    assert measure.completeness_of(_envelope(data, truncated)) == claim


def _judged(measure: ModuleType, confirmed: int, claim: str) -> Any:
    return measure.Judged(
        node_id="a.py#f",
        expected=4,
        confirmed=confirmed,
        expected_direct=4,
        confirmed_direct=confirmed,
        completeness=claim,
        wait_ms=1.0,
        opened=0,
        priming={},
    )


def test_short_answers_are_silent_unless_they_say_partial(measure: ModuleType) -> None:
    assert _judged(measure, 3, "unstated").silent
    assert _judged(measure, 3, "complete").silent
    assert not _judged(measure, 3, "partial").silent
    assert not _judged(measure, 4, "complete").silent


def test_priming_figures_come_from_the_answer(measure: ModuleType) -> None:
    answer = _envelope({"priming": {"filesOpened": 2, "ms": 12.5, "cap": 48, "capHit": False}})
    assert measure.priming_of(answer) == {"filesOpened": 2.0, "ms": 12.5, "capHit": 0.0}
    assert measure.priming_of(_envelope({"locations": []})) == {}
