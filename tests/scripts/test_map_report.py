"""The map benchmark's rows: a serve session's timings, each with what its runs saw."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
GRAPH = "start-to-map_impact (needs loaded graph)"


@pytest.fixture
def report(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    return importlib.import_module("mapbench.report")


def _start_run(first_s: float, graph_s: float, graph_mb: float) -> dict[str, Any]:
    """One serve-start run as mapbench/serve.py reports it (server RSS in MB)."""
    return {
        "timings": {"start-to-answer": first_s, GRAPH: graph_s},
        "rss_first_mb": 140.0,
        "rss_at_mb": {GRAPH: graph_mb},
        "rss_of": "server",
        "process_rss_mb": 1_250.0,
        "load_1m": 1.0,
        "peak_rss_mb": 60.0,
        "worker_rss_mb": 0.0,
    }


def test_the_graph_wait_row_carries_the_server_rss_at_that_answer(report: ModuleType) -> None:
    figure = report.Figure("mix", "serve-start", runs=[_start_run(2.5, 9.0, 1_100.0)])
    rows = {row["measure"]: row for row in figure.summaries(86.0)}
    assert rows[GRAPH]["median_ms"] == 9_000.0
    assert rows[GRAPH]["rss_at_mb"] == 1_100
    assert "server peak RSS at this answer 1100 MB" in rows[GRAPH]["note"]
    first = rows["start-to-answer"]
    assert first["rss_at_mb"] is None  # its RSS is the session's rss_first_mb
    assert "at this answer" not in first["note"]
    assert first["rss_first_mb"] == 140


def test_rss_at_an_answer_is_the_median_over_runs(report: ModuleType) -> None:
    runs = [_start_run(2.0, 8.0, mb) for mb in (900.0, 1_300.0, 1_000.0)]
    rows = {row["measure"]: row for row in report.Figure("mix", "serve-start", runs).summaries(86)}
    assert rows[GRAPH]["rss_at_mb"] == 1_000
    assert rows[GRAPH]["runs_ms"] == [8_000.0, 8_000.0, 8_000.0]


def test_a_session_row_takes_the_rss_of_the_process_it_names(report: ModuleType) -> None:
    rows = report.Figure("mix", "serve-start", runs=[_start_run(2.5, 9.0, 1_100.0)]).summaries(86)
    assert {(row["rss_of"], row["peak_rss_mb"], row["worker_rss_mb"]) for row in rows} == {
        ("server", 1_250, 0)
    }


def test_a_note_given_by_some_runs_says_how_many(report: ModuleType) -> None:
    loading, loaded = _start_run(2.0, 8.0, 900.0), _start_run(2.0, 8.0, 900.0)
    loading["notes"] = {"start-to-answer": ["graph still loading after it", "hub: 33 listed"]}
    loaded["notes"] = {"start-to-answer": ["hub: 33 listed"]}
    rows = {
        row["measure"]: row
        for row in report.Figure("mix", "serve-start", [loading, loaded]).summaries(86)
    }
    note = rows["start-to-answer"]["note"]
    assert "graph still loading after it (1 of 2 runs)" in note
    assert note.endswith("hub: 33 listed")  # said by every run: no count
    assert "listed" not in rows[GRAPH]["note"]  # notes belong to their own timing
