"""The map benchmark per language: one real project of each language the map reads.

The accuracy benchmark's pinned projects (scripts/accuracy/corpora.py): flask
(Python), zod (TypeScript), gorilla/mux (Go) and ujson (C) from the registries,
and one project per language of issue 24 (sinatra, composer, Newtonsoft.Json,
kotlinpoet, Alamofire, os-lib, Penlight, acme.sh) cloned at a pinned commit
(its git source: CODEANCHOR_BENCH_GIT). Each is made once in the accuracy
benchmark's cache and copied into the run's scratch folder, so the map store a
run writes never lands in the cache.

These projects are small (0.4 to 7 MB), and a cold build of a small tree is
mostly what any build pays (starting the pool, opening the store): its time over
its MB says little. So each is measured as it is and as copies of itself side by
side (about REPLICATED_MB in all), and the cost per MB is the slope between the
two, the fixed cost the intercept (as the scale series does over growing corpora,
mapbench/scale.py). Copies repeat every name, which by-name resolution then finds
several times over: the larger corpus links a little more than a real one would.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from accuracy.corpora import DEFAULT_CACHE, LANGUAGE_PROJECTS, PROJECTS, Project, corpus
from rich.table import Table

from disk.statedir import STATE_DIR
from mapbench.corpora import Corpus, describe, err
from mapbench.scale import fit

REPLICATED_MB = 10.0
"""About how large a project's larger corpus is: as many copies as come nearest
(two at least)."""
LANGUAGE_MEASURES = ("floor-parse", "cold")
"""What a per-language run measures by default: the cold build and its parse floor."""
PER_LANGUAGE: tuple[Project, ...] = (
    *(PROJECTS[key] for key in ("flask-3.1.2", "zod-4.6.7-v3", "gorilla-mux-1.8.0")),
    PROJECTS["ujson-5.11.0-c"],
    *LANGUAGE_PROJECTS.values(),
)
CACHE = DEFAULT_CACHE


@dataclass(frozen=True)
class LanguageCorpus:
    """A language's project, once and `copies` times over: the corpora measured."""

    language: str
    source: str
    single: Corpus
    replicated: Corpus
    copies: int


def language_corpora(scratch: Path, languages: list[str] | None) -> list[LanguageCorpus]:
    """A scratch copy of each language's project (all, or those of `languages`), once
    and copied to about REPLICATED_MB, fetched into the cache first when missing."""
    found = []
    for project in PER_LANGUAGE:
        if languages and project.language not in languages:
            continue
        cached = corpus(project, CACHE)
        megabytes = describe("probe", cached, edited=project.suffixes).megabytes
        replicas = max(2, round(REPLICATED_MB / megabytes))
        made = []
        for copies in (1, replicas):
            name = f"{project.language}-{project.name}-x{copies}"
            for copy in range(copies):
                shutil.copytree(
                    cached,
                    scratch / name / f"copy{copy}",
                    ignore=shutil.ignore_patterns(STATE_DIR, ".git"),
                )
            made.append(describe(name, scratch / name, edited=project.suffixes))
        err.log(f"{project.language}: {project.source}, {made[0].files} files")
        single, replicated = made
        found.append(LanguageCorpus(project.language, project.source, single, replicated, replicas))
    return found


def languages_known() -> list[str]:
    """The languages `--language` accepts."""
    return sorted({project.language for project in PER_LANGUAGE})


def language_rows(found: list[LanguageCorpus], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per language: each measure's median on the project and on its replicas, and
    the cost per MB and fixed cost of the line through the two."""
    medians = {
        (r["corpus"], r["measure"]): float(r["median_ms"]) for r in rows if not r.get("error")
    }
    table = []
    for lang in found:
        row: dict[str, Any] = {
            "language": lang.language,
            "project": lang.source,
            "files": lang.single.files,
            "megabytes": round(lang.single.megabytes, 2),
            "copies": lang.copies,
            "replicated_mb": round(lang.replicated.megabytes, 2),
        }
        for measure in LANGUAGE_MEASURES:
            small = medians.get((lang.single.name, measure))
            large = medians.get((lang.replicated.name, measure))
            line = None
            if small is not None and large is not None:
                points = [(lang.single.megabytes, small), (lang.replicated.megabytes, large)]
                line = fit(points)
            row[measure] = {
                "ms": small,
                "ms_copies": large,
                "ms_per_mb": None if line is None else round(line[0], 1),
                "fixed_ms": None if line is None else round(line[1]),
            }
        table.append(row)
    return table


def language_table(found: list[LanguageCorpus], rows: list[dict[str, Any]]) -> Table:
    """`language_rows` as a table."""
    table = Table(
        title="cold build per language: each project once and copied to about "
        f"{REPLICATED_MB:.0f} MB (per MB: the slope between the two; fixed: the intercept)",
        caption="parse floor: list, read, hash and tree-sitter parse in the same pool, "
        "nothing extracted",
    )
    for column in ("language", "project", "files", "MB", "copies"):
        table.add_column(column, justify="left" if column in ("language", "project") else "right")
    for measure in ("cold", "floor-parse"):
        label = "cold build" if measure == "cold" else "parse floor"
        for part in ("ms", "ms copies", "ms per MB", "fixed ms"):
            table.add_column(f"{label}\n{part}", justify="right")

    def show(value: float | None) -> str:
        return "-" if value is None else f"{value:,.0f}"

    for row in language_rows(found, rows):
        cells = []
        for measure in ("cold", "floor-parse"):
            figures = row[measure]
            cells += [
                show(figures["ms"]),
                show(figures["ms_copies"]),
                show(figures["ms_per_mb"]),
                show(figures["fixed_ms"]),
            ]
        table.add_row(
            row["language"],
            row["project"],
            str(row["files"]),
            f"{row['megabytes']:.2f}",
            f"{row['copies']} ({row['replicated_mb']:.1f} MB)",
            *cells,
        )
    return table
