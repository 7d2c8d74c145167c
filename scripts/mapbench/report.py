"""The map benchmark's figures: one row per timing over all runs, and its table."""

from __future__ import annotations

import os
import statistics
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from mapbench.build import FULL_TREE
from mapbench.corpora import Corpus

RATIO_TO_FLOOR = frozenset({"floor-query", "extract-only", "cold"})
"""The rows whose note gives their median as a multiple of the same run's floor-parse."""
MEASURE_WIDTH = 52
"""The measure column's width in the table: longer labels wrap, leaving the notes room."""


@dataclass
class Figure:
    """One measure on one corpus over all runs."""

    corpus: str
    measure: str
    runs: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def summaries(self, megabytes: float) -> list[dict[str, Any]]:
        """One row per timing: a session measure reports several (each its own row)."""
        if self.error is not None or not self.runs:
            return [{"corpus": self.corpus, "measure": self.measure, "error": self.error}]
        if "timings" not in self.runs[0]:
            return [self._row(self.measure, [run["seconds"] for run in self.runs], megabytes)]
        labels = list(self.runs[0]["timings"])
        return [
            self._row(label, [run["timings"][label] for run in self.runs], megabytes)
            for label in labels
        ]

    def _row(self, label: str, seconds: list[float], megabytes: float) -> dict[str, Any]:
        ms = [value * 1000 for value in seconds]
        median = statistics.median(ms)
        process = self.runs[0].get("rss_of")  # the process a measure took the RSS of
        rss_key = "process_rss_mb" if process else "peak_rss_mb"
        return {
            "corpus": self.corpus,
            "measure": label,
            "median_ms": round(median, 1),
            "min_ms": round(min(ms), 1),
            "max_ms": round(max(ms), 1),
            "ms_per_mb": round(median / megabytes, 1) if self.measure in FULL_TREE else None,
            "peak_rss_mb": round(statistics.median(run[rss_key] for run in self.runs)),
            "rss_of": process or "measuring process",
            "worker_rss_mb": 0
            if process
            else round(statistics.median(run["worker_rss_mb"] for run in self.runs)),
            "load_1m": round(statistics.median(run["load_1m"] for run in self.runs), 1),
            "rss_first_mb": round(statistics.median(run["rss_first_mb"] for run in self.runs))
            if "rss_first_mb" in self.runs[0]
            else None,
            "rss_at_mb": round(statistics.median(run["rss_at_mb"][label] for run in self.runs))
            if label in self.runs[0].get("rss_at_mb", {})
            else None,
            "phases_ms": {
                phase: round(statistics.median(run["phases"][phase] for run in self.runs) * 1000)
                for phase in self.runs[0].get("phases", {})
            },
            "note": _note(self.runs, label),
            "runs_ms": [round(value, 1) for value in ms],
        }


def _note(runs: list[dict[str, Any]], label: str) -> str:
    """What else the runs reported (for the row of timing `label`), in a few words."""
    words: list[str] = []
    if "files_relinked" in runs[0]:
        words.append(f"{statistics.median(run['files_relinked'] for run in runs):.0f} relinked")
    if "symbols" in runs[0]:
        words.append(f"{runs[0]['symbols']} symbols, {runs[0]['edges']} edges")
    if "phases" in runs[0]:
        words.extend(
            f"{phase} {statistics.median(run['phases'][phase] for run in runs):.1f} s"
            for phase in runs[0]["phases"]
        )
    if "gc_seconds" in runs[0]:
        words.append(f"GC {statistics.median(run['gc_seconds'] for run in runs) * 1000:.0f} ms")
    if "rss_first_mb" in runs[0]:
        first = statistics.median(run["rss_first_mb"] for run in runs)
        words.append(f"server RSS at first answer {first:.0f} MB")
    if label in runs[0].get("rss_at_mb", {}):
        at = statistics.median(run["rss_at_mb"][label] for run in runs)
        words.append(f"server peak RSS at this answer {at:.0f} MB")
    words.extend(_said(runs, label))
    return ", ".join(words)


def _said(runs: list[dict[str, Any]], label: str) -> list[str]:
    """The notes the runs gave timing `label`, each once, with how many runs gave it
    when not all did."""
    said = [note for run in runs for note in run.get("notes", {}).get(label, [])]
    distinct = list(dict.fromkeys(said))
    return [
        note
        if said.count(note) == len(runs)
        else f"{note} ({said.count(note)} of {len(runs)} runs)"
        for note in distinct
    ]


def render(
    corpora: list[Corpus], rows: list[dict[str, Any]], runs: int, workers: int, label: str
) -> None:
    """The rows as a table on stdout, one section per corpus."""
    table = Table(
        title=f"map benchmark{f' ({label})' if label else ''}: median and min-max over "
        f"{runs} runs, {workers} workers",
        caption=(
            "RSS: peak of the measuring process (the serve process for serve-* rows, "
            "the `codeanchor map build` process for cli-edit); "
            "worker: the largest pool worker's peak; "
            f"load: 1-minute load average as each run began ({os.cpu_count()} cores)"
        ),
    )
    numbers = ("median ms", "min-max ms", "ms/MB", "RSS MB", "worker MB", "load")
    for column in ("corpus", "measure", *numbers, "note"):
        numeric = column not in ("corpus", "measure", "note")
        table.add_column(
            column,
            justify="right" if numeric else "left",
            no_wrap=column not in ("measure", "note"),
            max_width=MEASURE_WIDTH if column == "measure" else None,
        )
    by_name = {corpus.name: corpus for corpus in corpora}
    floors = {
        r["corpus"]: r["median_ms"]
        for r in rows
        if r["measure"] == "floor-parse" and "median_ms" in r
    }
    shown = ""
    for row in rows:
        corpus = by_name[row["corpus"]]
        label = ""
        if corpus.name != shown:
            if shown:
                table.add_section()
            shown = corpus.name
            label = f"{corpus.name} ({corpus.files} files, {corpus.megabytes:.1f} MB)"
        measure = row["measure"]
        if measure in ("update-median", "update-scan"):
            measure += f" {corpus.median_bytes / 1e3:.0f} kB"
        elif measure == "update-largest":
            measure += f" {corpus.largest_bytes / 1e3:.0f} kB"
        if row.get("error"):
            table.add_row(label, measure, "", "", "", "", "", "", f"[red]{row['error']}")
            continue
        per_mb = "" if row["ms_per_mb"] is None else f"{row['ms_per_mb']:.1f}"
        note = row["note"]
        if row["measure"] in RATIO_TO_FLOOR and floors.get(corpus.name):
            ratio = f"{row['median_ms'] / floors[corpus.name]:.1f}x floor-parse"
            note = f"{ratio}, {note}" if note else ratio
        table.add_row(
            label,
            measure,
            f"{row['median_ms']:.1f}",
            f"{row['min_ms']:.1f}-{row['max_ms']:.1f}",
            per_mb,
            str(row["peak_rss_mb"]),
            str(row["worker_rss_mb"] or ""),
            f"{row['load_1m']:.1f}",
            note,
        )
    Console(width=max(Console().width, 170)).print(table)
