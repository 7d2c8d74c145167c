"""The soak benchmark's corpora: a real repository of about 80 files, copied into a
fresh git repository for each run (the loop edits it). Nothing is downloaded.

Python: the installed `rich` package (~100 files). TypeScript: the sources of
bash-language-server from the npm tree in .tools/node (~60 files). Needs the
repository root on sys.path (`tests.gitrepo`).
"""

from __future__ import annotations

import importlib.util
import shutil
from dataclasses import dataclass
from pathlib import Path

from tests.gitrepo import commit_all

CODE = Path(__file__).resolve().parents[2]
TS_PACKAGE = CODE / ".tools" / "node" / "node_modules" / "bash-language-server"


@dataclass(frozen=True)
class Corpus:
    """A repository to soak, and what the loop needs to know about it."""

    root: Path
    language: str
    suffix: str
    """The extension of the files the loop edits."""
    central: str
    """A name searched at start: its first class hit is the node asked about each cycle."""


def python_corpus(dest: Path, package: str = "rich") -> Corpus:
    """The installed `package`'s sources in a new git repository under `dest`."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{package} is not an installed package")
    source = Path(next(iter(spec.submodule_search_locations)))
    root = dest / "repo"
    shutil.copytree(source, root / package, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    (root / "pyproject.toml").write_text(f'[project]\nname = "{package}-soak"\nversion = "0"\n')
    commit_all(root, "corpus")
    return Corpus(root, "python", ".py", "Console")


def typescript_corpus(dest: Path) -> Corpus:
    """bash-language-server's TypeScript sources in a new git repository under `dest`."""
    if not (TS_PACKAGE / "src").is_dir():
        raise SystemExit(f"no TypeScript sources at {TS_PACKAGE}/src (run scripts/setup.sh)")
    root = dest / "repo"
    shutil.copytree(TS_PACKAGE / "src", root / "src")
    (root / "package.json").write_text('{"name": "soak", "version": "0.0.0"}\n')
    (root / "tsconfig.json").write_text(
        '{"compilerOptions": {"target": "es2022", "module": "commonjs", "strict": true},'
        ' "include": ["src"]}\n'
    )
    commit_all(root, "corpus")
    return Corpus(root, "typescript", ".ts", "Analyzer")


def edited_files(corpus: Corpus) -> list[str]:
    """The files the loop appends to, in turn: every source file but tests, sorted."""
    found = sorted(
        p.relative_to(corpus.root).as_posix()
        for p in corpus.root.rglob(f"*{corpus.suffix}")
        if "__tests__" not in p.parts and not p.name.endswith(".d.ts")
    )
    if not found:
        raise SystemExit(f"no {corpus.suffix} files in {corpus.root}")
    return found


def appended(corpus: Corpus, n: int) -> tuple[str, str]:
    """The function appended in cycle `n`: its name and its source text."""
    name = f"soak_probe_{n}"
    if corpus.language == "python":
        return name, f"\n\ndef {name}(value: int) -> int:\n    return value + {n}\n"
    return name, f"\nexport function {name}(value: number): number {{\n  return value + {n}\n}}\n"
