"""The map benchmark's corpora: the Python sources of pinned PyPI wheels.

Each wheel is downloaded once into a cache (`pip download`, no dependencies)
and its source files, those the map has a language for, are unpacked per run.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from map.extraction.languages import language_for
from map.intake.walk import list_files

WHEELS = {
    "click": "click==8.5.1",
    "sympy": "sympy==1.14.0",
    "django": "django==5.2.19",
    "pandas": "pandas==3.1.1",
    "scipy": "scipy==1.17.1",
    "sqlalchemy": "sqlalchemy==2.1.9",
    "transformers": "transformers==5.23.0",  # 53 MB of Python
    "kubernetes": "kubernetes==37.0.2",  # 74 MB
    "pulumi_aws": "pulumi-aws==7.51.1",  # 119 MB (generated)
}
CORPORA = {
    "click": ("click",),
    "sympy": ("sympy",),
    "mix": ("sympy", "pandas", "scipy", "django", "sqlalchemy"),
    "large": ("sympy", "pandas", "scipy", "django", "sqlalchemy", "transformers", "kubernetes"),
    "huge": (
        *("sympy", "pandas", "scipy", "django", "sqlalchemy", "transformers", "kubernetes"),
        "pulumi_aws",
    ),
}
"""Source MB as the map lists them: click 0.4, sympy 26, mix 86, large 212, huge 331."""
DEFAULT_CORPORA = ("click", "sympy", "mix")
DEFAULT_CACHE = Path.home() / ".cache" / "codeanchor-bench"

err = Console(stderr=True)


def fetch_wheels(cache: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    """The cached wheel of each package, downloading the missing ones from PyPI."""
    cache.mkdir(parents=True, exist_ok=True)
    found = {name: _cached_wheel(cache, name) for name in packages}
    missing = [WHEELS[name] for name, wheel in found.items() if wheel is None]
    if missing:
        err.log(f"downloading {', '.join(missing)} into {cache}")
        pip = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps"]
        subprocess.run([*pip, "--only-binary=:all:", "-d", str(cache), *missing], check=True)
    wheels: dict[str, Path] = {}
    for name in packages:
        wheel = _cached_wheel(cache, name)
        if wheel is None:
            raise SystemExit(f"pip download left no wheel for {WHEELS[name]} in {cache}")
        wheels[name] = wheel
    return wheels


def _cached_wheel(cache: Path, name: str) -> Path | None:
    version = WHEELS[name].split("==")[1]
    matches = sorted(cache.glob(f"{name}-{version}-*.whl"))
    return matches[0] if matches else None


def unpack_sources(wheels: dict[str, Path], into: Path) -> None:
    """Unzip the source files (those the map has a language for) of each wheel."""
    for name, wheel in wheels.items():
        with zipfile.ZipFile(wheel) as archive:
            for info in archive.infolist():
                if not info.is_dir() and language_for(info.filename) is not None:
                    archive.extract(info, into / name)


@dataclass
class Corpus:
    """An unpacked corpus and the files the benchmark edits."""

    name: str
    root: Path
    files: int
    megabytes: float
    median_file: str
    median_bytes: int
    largest_file: str
    largest_bytes: int


def describe(name: str, root: Path, edited: tuple[str, ...] = (".py",)) -> Corpus:
    """Count the corpus as the map lists it, and pick the files to edit (of those
    ending in `edited`)."""
    rels = list_files(root, accept=accepted).files
    sizes = {rel: (root / rel).stat().st_size for rel in rels}
    sources = sorted((size, rel) for rel, size in sizes.items() if rel.endswith(edited))
    median_bytes, median_file = sources[len(sources) // 2]
    largest_bytes, largest_file = sources[-1]
    return Corpus(
        name,
        root,
        len(rels),
        sum(sizes.values()) / 1e6,
        median_file,
        median_bytes,
        largest_file,
        largest_bytes,
    )


def accepted(rel: str) -> bool:
    """Whether the map has a language for `rel`."""
    return language_for(rel) is not None
