"""The bridge benchmark's corpus: an installed package's sources in a git repository.

Nothing is downloaded: the sources are copied from the installed package into
a cache folder keyed by its version, and committed (the map's history needs a
repository). Needs the repository root on sys.path (`tests.gitrepo`).
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import shutil
import tempfile
from pathlib import Path

from tests.gitrepo import commit_all

DEFAULT_PACKAGE = "pygments"
DEFAULT_CACHE = Path.home() / ".cache" / "codeanchor-bench" / "bridge"


def corpus(package: str, cache: Path) -> tuple[Path, bool]:
    """The corpus repository of `package` in the cache, made on first use; and
    whether it was already there.

    Keyed by the package's version; the benchmark never edits it, so a later run
    reuses it (and its map snapshot, when still valid).
    """
    root = cache / f"{package}-{importlib.metadata.version(package)}"
    if (root / ".git").is_dir():
        return root, True
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache) as tmp:
        made = make_corpus(package, Path(tmp) / "repo")
        made.rename(root)
    return root, False


def make_corpus(package: str, root: Path) -> Path:
    """A git repository holding the installed `package`'s sources (tests and caches left out)."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{package} is not an installed package; pass --package NAME")
    source = Path(next(iter(spec.submodule_search_locations)))
    shutil.copytree(
        source, root / package, ignore=shutil.ignore_patterns("__pycache__", "tests", "*.so")
    )
    (root / "pyproject.toml").write_text(f'[project]\nname = "{package}-bench"\nversion = "0"\n')
    commit_all(root, "corpus")
    return root
