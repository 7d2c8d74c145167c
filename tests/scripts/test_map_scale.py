"""The map benchmark's scale series: the cost per MB it reports is the fitted slope."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture
def scale(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    return importlib.import_module("mapbench.scale")


def _row(corpus: str, measure: str, ms: float, **extra: Any) -> dict[str, Any]:
    return {"corpus": corpus, "measure": measure, "median_ms": ms, **extra}


def test_cost_per_mb_is_the_slope_and_the_fixed_cost_the_intercept(scale: ModuleType) -> None:
    sizes = {"small": 10.0, "mid": 50.0, "big": 100.0}
    rows = [
        _row(name, "cold", 200 + 30 * mb, peak_rss_mb=100, worker_rss_mb=50)
        for name, mb in sizes.items()
    ] + [_row(name, "floor-parse", 10 * mb) for name, mb in sizes.items()]
    lines = {line["series"]: line for line in scale.scale_rows(sizes, rows)}
    cold = lines["cold build, store written"]
    assert cold["per_mb"] == pytest.approx(30)
    assert cold["fixed"] == pytest.approx(200)
    assert lines["cold build: peak RSS (builder + largest worker)"]["per_mb"] == pytest.approx(0)
    ratio = lines["cold build / parse floor"]
    assert ratio["values"]["small"] == pytest.approx(5)  # 500 ms over a 100 ms floor
    assert ratio["per_mb"] is None  # a ratio has no cost per MB


def test_a_failed_or_missing_measure_leaves_its_cell_empty(scale: ModuleType) -> None:
    sizes = {"small": 10.0, "big": 100.0}
    rows = [
        _row("small", "edit+map_rebuild", 50),
        {"corpus": "big", "measure": "edit+map_rebuild", "error": "server died"},
    ]
    lines = {line["series"]: line for line in scale.scale_rows(sizes, rows)}
    rebuild = lines["edit, then map_rebuild over MCP"]
    assert rebuild["values"] == {"small": 50.0, "big": None}
    assert rebuild["per_mb"] is None  # one point is no line
    assert lines["parse floor (tree-sitter parse, same pool)"]["values"] == {
        "small": None,
        "big": None,
    }


def test_the_graph_wait_and_its_rss_have_their_own_lines(scale: ModuleType) -> None:
    sizes = {"small": 10.0, "big": 100.0}
    graph = "start-to-map_impact (needs loaded graph)"
    rows = [
        _row("small", graph, 1_000, rss_at_mb=200),
        _row("big", graph, 10_000, rss_at_mb=1_100),
    ]
    lines = {line["series"]: line for line in scale.scale_rows(sizes, rows)}
    wait = lines["warm start: process start -> first map_impact answer (needs the loaded graph)"]
    assert wait["values"] == {"small": 1_000.0, "big": 10_000.0}
    assert wait["per_mb"] == pytest.approx(100)
    rss = lines["serve RSS at the first map_impact answer"]
    assert rss["values"] == {"small": 200.0, "big": 1_100.0}
    assert rss["per_mb"] == pytest.approx(10)


def test_the_fresh_process_rows_have_their_cost_per_mb(scale: ModuleType) -> None:
    sizes = {"small": 10.0, "big": 100.0}
    cli = "fresh CLI process: one-file edit -> map build exits"
    found = "offline edits, restart: init -> map_search finds them"
    rows = [
        _row("small", cli, 1_000, peak_rss_mb=100),
        _row("big", cli, 1_000, peak_rss_mb=460),
        _row("small", found, 300),
        _row("big", found, 3_000),
    ]
    lines = {line["series"]: line for line in scale.scale_rows(sizes, rows)}
    edit = lines["fresh CLI process: one-file edit -> map build exits"]
    assert edit["per_mb"] == pytest.approx(0)  # a cost that follows the edit
    assert edit["fixed"] == pytest.approx(1_000)
    assert lines["fresh CLI process after a one-file edit: its peak RSS"]["per_mb"] == (
        pytest.approx(4)
    )
    restart = lines["restart after offline edits: initialize -> map_search finds them"]
    assert restart["per_mb"] == pytest.approx(30)
