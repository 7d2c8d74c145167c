"""The pinned real projects the accuracy benchmark reads, fetched from the registries.

Each project comes from a package registry through its ordinary client (PyPI
with `pip download --no-deps`, npm with `npm pack`, Debian with `apt-get
install`), or, for the languages no registry here carries sources of, from its
public repository at a pinned commit (`git clone`; the source is
`CODEANCHOR_BENCH_GIT`, a template given `{repo}`, `{owner}` and `{name}`,
by default the repository's GitHub address, so a local clone serves as well).
It is unpacked once into a cache folder (never into this repository), trimmed
to its sources and tests, and committed to a git repository of its own so the
map and the servers see an ordinary checkout. A later run reuses it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from tests.gitrepo import commit_all

DEFAULT_CACHE = Path.home() / ".cache" / "codeanchor-bench" / "accuracy"

# zod's tests import the package by its own name: map it onto the sources, as
# zod's own repository does, so the type checker sees one project.
ZOD_TSCONFIG = {
    "compilerOptions": {
        "target": "es2022",
        "module": "esnext",
        "moduleResolution": "bundler",
        "strict": True,
        "noEmit": True,
        "skipLibCheck": True,
        "paths": {"zod/v3": ["./src/v3/index.ts"]},
    },
    "include": ["src"],
}


class CorpusError(Exception):
    """A project could not be fetched or unpacked; the message says which and why."""


@dataclass(frozen=True)
class Project:
    """A pinned project: where it comes from and which of its files are kept."""

    key: str
    """Folder name in the cache, version included."""
    name: str
    """Short name in the report."""
    language: str
    """The map's language name of the files measured."""
    source: str
    """Human label of the registry artefact, for the report."""
    fetch: Callable[[Path], Path]
    """Put the unpacked artefact under the given scratch folder; return its top folder."""
    keep: tuple[str, ...]
    """Folders (relative to the top folder) copied into the corpus."""
    suffixes: tuple[str, ...]
    """File suffixes kept from those folders."""
    extra: Callable[[Path, Path], None] | None = None
    """Project files to add (a tsconfig, the pyproject.toml), given the unpacked top
    folder and the corpus root."""


def _run(command: list[str], cwd: Path) -> None:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if done.returncode != 0:
        raise CorpusError(f"{' '.join(command)} failed: {done.stderr.strip()[-400:]}")


def _untar(archive: Path, dest: Path) -> Path:
    with tarfile.open(archive) as tar:
        tar.extractall(dest, filter="data")
    tops = [p for p in dest.iterdir() if p.is_dir()]
    if len(tops) != 1:
        raise CorpusError(f"{archive.name}: expected one top folder, found {len(tops)}")
    return tops[0]


def pypi_sdist(requirement: str) -> Callable[[Path], Path]:
    """Fetch a pinned sdist (`name==version`) from PyPI and unpack it."""

    def fetch(scratch: Path) -> Path:
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "--no-binary",
                ":all:",
                "-d",
                str(scratch),
                requirement,
            ],
            scratch,
        )
        (archive,) = scratch.glob("*.tar.gz")
        return _untar(archive, scratch / "unpacked")

    return fetch


def npm_tarball(spec: str) -> Callable[[Path], Path]:
    """Fetch a pinned npm package tarball (`name@version`) and unpack it."""

    def fetch(scratch: Path) -> Path:
        _run(["npm", "pack", "--silent", spec], scratch)
        (archive,) = scratch.glob("*.tgz")
        return _untar(archive, scratch / "unpacked")

    return fetch


def debian_gocode(package: str, version: str, import_path: str) -> Callable[[Path], Path]:
    """Install a Debian `golang-*-dev` package (pinned) and return its Go sources."""

    def fetch(scratch: Path) -> Path:
        source = Path("/usr/share/gocode/src") / import_path
        if not source.is_dir():
            _run(["apt-get", "install", "-y", "-q", f"{package}={version}"], scratch)
        if not source.is_dir():
            raise CorpusError(f"{package} installed no sources at {source}")
        return source

    return fetch


GIT_SOURCE_ENV = "CODEANCHOR_BENCH_GIT"
GIT_SOURCE_DEFAULT = "https://github.com/{repo}.git"


def git_commit(repo: str, commit: str) -> Callable[[Path], Path]:
    """Clone a public repository (`owner/name`) and check out a pinned commit."""

    def fetch(scratch: Path) -> Path:
        owner, name = repo.split("/")
        template = os.environ.get(GIT_SOURCE_ENV, GIT_SOURCE_DEFAULT)
        source = template.format(repo=repo, owner=owner, name=name)
        top = scratch / "unpacked"
        _run(["git", "clone", "--quiet", "--no-checkout", source, str(top)], scratch)
        _run(["git", "checkout", "--quiet", commit], top)
        return top

    return fetch


def copy_pyproject(top: Path, root: Path) -> None:
    """Keep the project's pyproject.toml (the Python servers read its settings)."""
    shutil.copyfile(top / "pyproject.toml", root / "pyproject.toml")


def _zod_files(top: Path, root: Path) -> None:
    (root / "tsconfig.json").write_text(json.dumps(ZOD_TSCONFIG, indent=2) + "\n")
    (root / "package.json").write_text('{"name": "zod-v3-bench", "private": true}\n')


def _cmark_flags(top: Path, root: Path) -> None:
    """cmark out of `third_party/` (which the map leaves out as vendored), and clangd's
    include paths (cmark's build passes them; the generated headers are the sdist's)."""
    (root / "third_party" / "cmark").rename(root / "cmark")
    (root / "third_party").rmdir()
    folders = ("cmark/src", "cmark/extensions", "generated/unix")
    (root / "compile_flags.txt").write_text("".join(f"-I{folder}\n" for folder in folders))


def _without_examples(top: Path, root: Path) -> None:
    """chi's `_examples` are programs of their own, which Go's tools leave out."""
    shutil.rmtree(root / "_examples")


PROJECTS: dict[str, Project] = {
    p.key: p
    for p in (
        Project(
            "flask-3.1.2",
            "flask",
            "python",
            "PyPI sdist flask==3.1.2",
            pypi_sdist("flask==3.1.2"),
            keep=("src", "tests"),
            suffixes=(".py",),
            extra=copy_pyproject,
        ),
        Project(
            "httpx-0.28.1",
            "httpx",
            "python",
            "PyPI sdist httpx==0.28.1",
            pypi_sdist("httpx==0.28.1"),
            keep=("httpx", "tests"),
            suffixes=(".py",),
            extra=copy_pyproject,
        ),
        Project(
            "zod-4.6.7-v3",
            "zod",
            "typescript",
            "npm zod@4.6.7, src/v3 (sources and tests)",
            npm_tarball("zod@4.6.7"),
            keep=("src/v3",),
            suffixes=(".ts",),
            extra=_zod_files,
        ),
        Project(
            "gorilla-mux-1.8.0",
            "mux",
            "go",
            "Debian golang-github-gorilla-mux-dev 1.8.0-1",
            debian_gocode("golang-github-gorilla-mux-dev", "1.8.0-1", "github.com/gorilla/mux"),
            keep=(".",),
            suffixes=(".go", ".mod"),
        ),
        Project(
            "ujson-5.11.0-c",
            "ujson",
            "c",
            "PyPI sdist ujson==5.11.0, its C sources (lib/, python/)",
            pypi_sdist("ujson==5.11.0"),
            keep=("src/ujson/lib", "src/ujson/python"),
            suffixes=(".c", ".h"),
        ),
        Project(
            "cmark-gfm-2025.10.22-c",
            "cmark-gfm",
            "c",
            "PyPI sdist cmarkgfm==2025.10.22, its bundled cmark-gfm C library",
            pypi_sdist("cmarkgfm==2025.10.22"),
            keep=("third_party/cmark/src", "third_party/cmark/extensions", "generated/unix"),
            suffixes=(".c", ".h", ".inc"),
            extra=_cmark_flags,
        ),
        Project(
            "go-chi-5.0.7",
            "chi",
            "go",
            "Debian golang-github-go-chi-chi-dev 5.0.7-1",
            debian_gocode("golang-github-go-chi-chi-dev", "5.0.7-1", "github.com/go-chi/chi"),
            keep=(".",),
            suffixes=(".go", ".mod"),
            extra=_without_examples,
        ),
    )
}

LANGUAGE_PROJECTS: dict[str, Project] = {
    p.key: p
    for p in (
        Project(
            "sinatra-cb22afd",
            "sinatra",
            "ruby",
            "sinatra/sinatra at cb22afd (v4.2.1+26)",
            git_commit("sinatra/sinatra", "cb22afd7902b566b6eaba6c4ea89739494a65d12"),
            keep=(".",),
            suffixes=(".rb",),
        ),
        Project(
            "composer-eba7baa",
            "composer",
            "php",
            "composer/composer at eba7baa (2.10.2+26)",
            git_commit("composer/composer", "eba7baa59eb1b59246cf9800b0120fe78915b6ac"),
            keep=("src", "tests", "bin"),
            suffixes=(".php",),
        ),
        Project(
            "newtonsoft-json-09bb545",
            "Newtonsoft.Json",
            "csharp",
            "JamesNK/Newtonsoft.Json at 09bb545 (13.0.4+11)",
            git_commit("JamesNK/Newtonsoft.Json", "09bb545d72969ad7fb4ea07db0d5c34f4fc07877"),
            keep=("Src",),
            suffixes=(".cs",),
        ),
        Project(
            "kotlinpoet-be2de91",
            "kotlinpoet",
            "kotlin",
            "square/kotlinpoet at be2de91 (2.3.0+46)",
            git_commit("square/kotlinpoet", "be2de914ce6eb3694092ed4e0f28626cbce1ffe0"),
            keep=(".",),
            suffixes=(".kt", ".kts"),
        ),
        Project(
            "alamofire-7595cbc",
            "Alamofire",
            "swift",
            "Alamofire/Alamofire at 7595cbc (5.12.0)",
            git_commit("Alamofire/Alamofire", "7595cbcf59809f9977c5f6378500de2ad73b7ddb"),
            keep=(".",),
            suffixes=(".swift",),
        ),
        Project(
            "os-lib-e237000",
            "os-lib",
            "scala",
            "com-lihaoyi/os-lib at e237000 (0.11.9-M7+5)",
            git_commit("com-lihaoyi/os-lib", "e237000cbd4d97a4c4463df43d64556130d2bc50"),
            keep=(".",),
            suffixes=(".scala", ".sc"),
        ),
        Project(
            "penlight-c317508",
            "Penlight",
            "lua",
            "lunarmodules/Penlight at c317508 (1.15.0+9)",
            git_commit("lunarmodules/Penlight", "c317508c90cb384da22e79f6bd405eb4e406fc79"),
            keep=(".",),
            suffixes=(".lua",),
        ),
        Project(
            "acme-sh-d60c75b",
            "acme.sh",
            "bash",
            "acmesh-official/acme.sh at d60c75b (3.1.3+33)",
            git_commit("acmesh-official/acme.sh", "d60c75b4e30a26addd8b9d0bfdeeed39c84ed51e"),
            keep=(".",),
            suffixes=(".sh", ".bash"),
        ),
    )
}
"""One real project per language of issue 24 (none from the registries here ships
its sources), measured by the map alone: no server of these has a call hierarchy."""


def corpus(project: Project, cache: Path) -> Path:
    """The project's corpus repository in the cache, made on first use."""
    root = cache / project.key
    if (root / ".git").is_dir():
        return root
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        scratch = Path(tmp)
        top = project.fetch(scratch)
        repo = scratch / "repo"
        for folder in project.keep:
            for path in sorted((top / folder).rglob("*")):
                if path.is_file() and path.suffix in project.suffixes:
                    dest = repo / folder / path.relative_to(top / folder)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, dest)
        if project.extra is not None:
            project.extra(top, repo)
        commit_all(repo, f"corpus {project.source}")
        repo.rename(root)
    return root
