"""The real projects the agent-view benchmark reads: none of the tests' fixtures and
none of the accuracy benchmark's held-out set (scripts/accuracy/corpora.py).

Fetched through the registries' ordinary clients like that set, and cached
under ~/.cache/codeanchor-bench/agent-view (never in this repository).
"""

from __future__ import annotations

import json
from pathlib import Path

from accuracy.corpora import Project, copy_pyproject, debian_gocode, npm_tarball, pypi_sdist

DEFAULT_CACHE = Path.home() / ".cache" / "codeanchor-bench" / "agent-view"

IMMER_TSCONFIG = {
    "compilerOptions": {
        "target": "es2022",
        "module": "esnext",
        "moduleResolution": "bundler",
        "strict": True,
        "noEmit": True,
        "skipLibCheck": True,
    },
    "include": ["src"],
}
CYTHON_OUTPUT = ("_ruamel_yaml.c", "_ruamel_yaml.h")
PFLAG_GO_MOD = "module github.com/spf13/pflag\n\ngo 1.12\n"


def _immer_files(top: Path, root: Path) -> None:
    (root / "tsconfig.json").write_text(json.dumps(IMMER_TSCONFIG, indent=2) + "\n")
    (root / "package.json").write_text('{"name": "immer-bench", "private": true}\n')


def _libyaml_only(top: Path, root: Path) -> None:
    """Drop the Cython-generated extension module (1.5 MB of machine-written C)."""
    for generated in CYTHON_OUTPUT:
        (root / generated).unlink()


def _go_mod(top: Path, root: Path) -> None:
    if not (root / "go.mod").is_file():
        (root / "go.mod").write_text(PFLAG_GO_MOD)


PROJECTS: dict[str, Project] = {
    p.language: p
    for p in (
        Project(
            "jinja2-3.1.6",
            "jinja2",
            "python",
            "PyPI sdist jinja2==3.1.6",
            pypi_sdist("jinja2==3.1.6"),
            keep=("src", "tests"),
            suffixes=(".py",),
            extra=copy_pyproject,
        ),
        Project(
            "immer-11.2.10",
            "immer",
            "typescript",
            "npm immer@11.2.10, src/",
            npm_tarball("immer@11.2.10"),
            keep=("src",),
            suffixes=(".ts",),
            extra=_immer_files,
        ),
        Project(
            "pflag-1.0.6",
            "pflag",
            "go",
            "Debian golang-github-spf13-pflag-dev 1.0.6~git20210604-d5e0c0615ace-1",
            debian_gocode(
                "golang-github-spf13-pflag-dev",
                "1.0.6~git20210604-d5e0c0615ace-1",
                "github.com/spf13/pflag",
            ),
            keep=(".",),
            suffixes=(".go", ".mod"),
            extra=_go_mod,
        ),
        Project(
            "libyaml-ruamel-0.2.15",
            "libyaml",
            "c",
            "PyPI sdist ruamel.yaml.clib==0.2.15, its libyaml C sources",
            pypi_sdist("ruamel.yaml.clib==0.2.15"),
            keep=(".",),
            suffixes=(".c", ".h"),
            extra=_libyaml_only,
        ),
    )
}
