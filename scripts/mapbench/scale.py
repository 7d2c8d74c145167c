"""The scale series: how each cost grows with the corpus, ending in a cost per MB.

`bench_map.py --scale` runs a few measures on corpora of growing size
(click, sympy, mix, and mix plus more large wheels past 300 MB); this module
picks the figures out of its rows and fits a line through them per measure:
the slope is what one more MB of source costs, the intercept what any
repository pays. A slope near 0 is a cost that follows the edit, not the
repository.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.table import Table

from mapbench.cli_edit import LABEL as CLI_EDIT
from mapbench.labels import (
    CALLER_LISTED,
    FIRST_ANSWER,
    GRAPH_ANSWER,
    GRAPH_LOADED,
    HUB_NEIGHBORS,
    INIT_ANSWER,
    SEARCH_FOUND,
)

SCALE_CORPORA = ("click", "sympy", "mix", "large", "huge")
SCALE_MEASURES = (
    "floor-parse",
    "cold",
    "cli-edit",
    "serve-start",
    "serve-rebuild",
    "serve-offline",
)


@dataclass(frozen=True)
class Series:
    """One line of the scale table: which row, and which of its numbers."""

    label: str
    measure: str
    field: str
    unit: str


SERIES = (
    Series("parse floor (tree-sitter parse, same pool)", "floor-parse", "median_ms", "ms"),
    Series("cold build, store written", "cold", "median_ms", "ms"),
    Series("  of which scan (list, read, extract in the pool)", "cold", "phase:scan", "ms"),
    Series("  of which link (graph)", "cold", "phase:link", "ms"),
    Series("  of which save (map store)", "cold", "phase:save", "ms"),
    Series("cold build / parse floor", "cold", "floor_ratio", "x"),
    Series("cold build: peak RSS (builder + largest worker)", "cold", "build_rss_mb", "MB"),
    Series("fresh CLI process: one-file edit -> map build exits", CLI_EDIT, "median_ms", "ms"),
    Series("fresh CLI process after a one-file edit: its peak RSS", CLI_EDIT, "peak_rss_mb", "MB"),
    Series("warm start: process start -> first answer", FIRST_ANSWER, "median_ms", "ms"),
    Series("warm start: initialize -> first answer", INIT_ANSWER, "median_ms", "ms"),
    Series(
        "warm start: first map_neighbors (in) of the hub, right after: ask -> answer",
        HUB_NEIGHBORS,
        "median_ms",
        "ms",
    ),
    Series(
        "warm start: process start -> first map_impact answer (needs the loaded graph)",
        GRAPH_ANSWER,
        "median_ms",
        "ms",
    ),
    Series(
        "restart after offline edits: initialize -> map_search finds them",
        SEARCH_FOUND,
        "median_ms",
        "ms",
    ),
    Series(
        "restart after offline edits: initialize -> map_neighbors lists the new caller",
        CALLER_LISTED,
        "median_ms",
        "ms",
    ),
    Series(
        "restart after offline edits: process start -> map_impact (graph loaded)",
        GRAPH_LOADED,
        "median_ms",
        "ms",
    ),
    Series("edit, then map_rebuild over MCP", "edit+map_rebuild", "median_ms", "ms"),
    Series("serve RSS at the first answer", FIRST_ANSWER, "rss_first_mb", "MB"),
    Series("serve RSS at the first map_impact answer", GRAPH_ANSWER, "rss_at_mb", "MB"),
    Series("serve RSS with the graph loaded", FIRST_ANSWER, "peak_rss_mb", "MB"),
    Series("serve RSS after a restart with offline edits", GRAPH_LOADED, "peak_rss_mb", "MB"),
)


def fit(points: Sequence[tuple[float, float]]) -> tuple[float, float] | None:
    """Least-squares (slope, intercept) of y over x; None with fewer than two x values."""
    xs = [x for x, _ in points]
    if len(set(xs)) < 2:
        return None
    mean_x = sum(xs) / len(xs)
    mean_y = sum(y for _, y in points) / len(points)
    spread = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in points) / spread
    return slope, mean_y - slope * mean_x


def scale_rows(sizes: dict[str, float], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per series: its value on each corpus (None where not measured), and for the
    costs the fitted cost per MB and fixed cost (None with fewer than two corpora)."""
    floors = {
        r["corpus"]: r["median_ms"]
        for r in rows
        if r["measure"] == "floor-parse" and not r.get("error")
    }
    found: list[dict[str, Any]] = []
    for series in SERIES:
        values: dict[str, float | None] = {}
        for name in sizes:
            row = next(
                (r for r in rows if r["corpus"] == name and r["measure"] == series.measure),
                None,
            )
            values[name] = None if row is None or row.get("error") else _value(series, row, floors)
        points = [(sizes[name], v) for name, v in values.items() if v is not None]
        line = None if series.unit == "x" else fit(points)
        found.append(
            {
                "series": series.label,
                "unit": series.unit,
                "values": values,
                "per_mb": None if line is None else line[0],
                "fixed": None if line is None else line[1],
            }
        )
    return found


def _value(series: Series, row: dict[str, Any], floors: dict[str, float]) -> float | None:
    if series.field == "floor_ratio":
        floor = floors.get(row["corpus"])
        return float(row["median_ms"]) / floor if floor else None
    if series.field == "build_rss_mb":
        return float(row["peak_rss_mb"] + row["worker_rss_mb"])
    if series.field.startswith("phase:"):
        phase = row.get("phases_ms", {}).get(series.field.removeprefix("phase:"))
        return None if phase is None else float(phase)
    value = row.get(series.field)
    return None if value is None else float(value)


def scale_table(sizes: dict[str, float], rows: list[dict[str, Any]]) -> Table:
    """`scale_rows` as a table: one column per corpus, then per MB and fixed."""
    table = Table(
        title="scale series: median per corpus; per MB = least-squares slope over the corpora",
        caption="fixed: the fit's intercept (what any repository pays); "
        "a slope near 0 is a cost that does not grow with the repository",
    )
    table.add_column("measure")
    for name, megabytes in sizes.items():
        table.add_column(f"{name}\n{megabytes:.{0 if megabytes >= 10 else 1}f} MB", justify="right")
    table.add_column("per MB", justify="right")
    table.add_column("fixed", justify="right")
    for line in scale_rows(sizes, rows):
        unit = line["unit"]
        cells = ["" if v is None else _show(v, unit) for v in line["values"].values()]
        per_mb = "" if line["per_mb"] is None else f"{_show(line['per_mb'], unit)}/MB"
        fixed = "" if line["fixed"] is None else _show(line["fixed"], unit)
        table.add_row(line["series"], *cells, per_mb, fixed)
    return table


def _show(value: float, unit: str) -> str:
    if unit == "x":
        return f"{value:.1f}x"
    return f"{value:,.0f} {unit}" if abs(value) >= 10 else f"{value:.1f} {unit}"
