"""The printed table (one row per point, per language for point 4's callers) and
the JSON report, from every project's Findings."""

from __future__ import annotations

import os
from typing import Any

from accuracy.figures import median_p95, percent
from rich.console import Console
from rich.table import Table

from agentview.tally import Findings

TABLE_WIDTH = 220
LANGUAGE_LABELS = {"python": "py", "typescript": "ts", "go": "go", "c": "c"}


def as_json(findings: list[Findings], meta: dict[str, Any]) -> dict[str, Any]:
    """Everything measured, as plain data."""
    return {
        **meta,
        "projects": [
            {
                "language": f.language,
                "project": f.project,
                "figures": f.figures,
                "points": [t.as_json() for t in f.tallies.values()],
            }
            for f in findings
        ],
    }


def print_report(report: dict[str, Any], *, examples: bool) -> None:
    """The human table on stdout."""
    out = Console(highlight=False, width=TABLE_WIDTH)
    table = Table(
        title=f"what an agent is shown (issue 21): code at {report['commit']}, "
        f"seed {report['seed']}, load average {report['load']:.1f} on {os.cpu_count()} CPUs",
        caption="checked = answers (or sites, for 3c; broken caller files, for 5) judged "
        "against the source; misleading = answers that say what the source contradicts. "
        "Per language: misleading/checked.",
    )
    for column in ("point", "what an agent is shown", "checked", "misleading", "by language"):
        table.add_column(column, justify="right" if column in {"checked", "misleading"} else "left")
    table.add_column("details", overflow="fold")
    projects = report["projects"]
    for point in _points(projects):
        rows = [(p["language"], _point(p, point)) for p in projects]
        rows = [(lang, t) for lang, t in rows if t is not None]
        title = next(t["title"] for _, t in rows if t["title"])
        if point == "4b":
            for language, tally in rows:
                table.add_row(
                    f"4b {LANGUAGE_LABELS[language]}",
                    "map callers recall / precision vs the truth; silent partial answers",
                    str(tally["checked"]),
                    str(tally["misleading"]),
                    "",
                    _callers(tally),
                )
            continue
        table.add_row(
            point,
            title,
            str(sum(t["checked"] for _, t in rows)),
            str(sum(t["misleading"] for _, t in rows)),
            ", ".join(
                f"{LANGUAGE_LABELS[lang]} {t['misleading']}/{t['checked']}" for lang, t in rows
            ),
            _counts(rows),
        )
    out.print(table)
    for project in projects:
        figures = project["figures"]
        waits = ", ".join(
            f"{tool} {w[0]:.0f}/{w[1]:.0f}" for tool, w in figures.get("waits_ms", {}).items()
        )
        out.print(
            f"{project['project']}: session {figures.get('session_s', 0):.1f} s (first answer, "
            f"the map built: {figures.get('first_answer_s', 0):.1f} s; outlines and truth "
            f"{figures.get('survey_s', 0):.1f} s); {figures.get('symbols', 0)} judgeable "
            f"symbols of {figures.get('declared', 0)}; {figures.get('calls', 0)} calls; "
            f"median/p95 ms: {waits}"
        )
        extra = figures.get("map callers not in the truth") or []
        if extra:
            out.print(f"  map callers the truth does not have (first 3): {'; '.join(extra[:3])}")
    if examples:
        for project in projects:
            for tally in project["points"]:
                for example in tally["examples"]:
                    out.print(f"  {project['language']} {tally['point']}: {example}")


def waits_ms(samples: dict[str, list[float]]) -> dict[str, tuple[float, float]]:
    """Each tool's median and p95 wait in ms."""
    found = {tool: median_p95([s * 1000 for s in waits]) for tool, waits in samples.items()}
    return {tool: w for tool, w in found.items() if w is not None}


def _points(projects: list[dict[str, Any]]) -> list[str]:
    order = ["1a", "1b", "1c", "2a", "2b", "3a", "3b", "3c", "4a", "4b", "4c", "4d"]
    order += ["5a", "5b", "6", "7a", "7b", "7c"]
    present = {t["point"] for p in projects for t in p["points"]}
    return [p for p in order if p in present]


def _point(project: dict[str, Any], point: str) -> dict[str, Any] | None:
    return next((t for t in project["points"] if t["point"] == point), None)


def _counts(rows: list[tuple[str, dict[str, Any]]]) -> str:
    total: dict[str, int] = {}
    for _, tally in rows:
        for key, value in tally["counts"].items():
            total[key] = (
                max(total.get(key, 0), value)
                if key == "deepest shown"
                else (total.get(key, 0) + value)
            )
    return "; ".join(f"{key} {value}" for key, value in total.items())


def _callers(tally: dict[str, Any]) -> str:
    counts = tally["counts"]
    recall = percent(counts.get("listed and true", 0), counts.get("true callers", 0))
    precision = percent(counts.get("listed and true", 0), counts.get("listed", 0))

    def pct(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f}%"

    return (
        f"recall {pct(recall)} / precision {pct(precision)} "
        f"({counts.get('listed and true', 0)} right of {counts.get('listed', 0)} listed, "
        f"{counts.get('true callers', 0)} true)"
    )
