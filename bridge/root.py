"""Which folder a command serves: `--root`, else the git top-level of the current folder.

Run from `repo/src`, a command serves `repo` (one map, one memory store, the
same node IDs from any subfolder). Outside a git repository the current folder
is served only when it is plausibly a project: the home directory, the
filesystem root, or a folder with more than `CODEANCHOR_ROOT_MAX_FILES` files
(default 20,000) is refused with a one-line error naming `--root`, which
always wins.
"""

from __future__ import annotations

import os
from pathlib import Path

from bridge.contract.errors import BadInputError

MAX_FILES_ENV = "CODEANCHOR_ROOT_MAX_FILES"
DEFAULT_MAX_FILES = 20_000


def choose_root(given: str | None, cwd: Path | None = None, *, guard: bool = True) -> Path:
    """The root a command serves: `given` (`--root`) when set, else the git top-level
    of `cwd` (default: the current folder), else `cwd` itself.

    With `guard`, a home directory, `/`, or (outside git) a folder holding more files
    than the limit raises BadInputError; without it (`doctor`, which reads no tree)
    such a folder is used as it is.
    """
    if given is not None:
        root = Path(given).resolve()
        if not root.is_dir():
            raise BadInputError(f"--root {root} is not a directory")
        return root
    here = (cwd or Path.cwd()).resolve()
    top = git_top_level(here)
    root = here if top is None else top
    if guard:
        _refuse_unlikely(root, in_git=top is not None)
    return root


def git_top_level(folder: Path) -> Path | None:
    """The nearest folder at or above `folder` holding `.git` (a repository, a
    worktree or a submodule), or None outside any repository."""
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def max_files() -> int:
    """The most files a folder outside git may hold to be served without `--root`."""
    raw = os.environ.get(MAX_FILES_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_FILES
    try:
        value = int(raw)
    except ValueError:
        value = -1
    if value < 0:
        raise BadInputError(f"{MAX_FILES_ENV}={raw!r}: expected a number of files (0 or more)")
    return value


def _refuse_unlikely(root: Path, *, in_git: bool) -> None:
    where = "the git top-level" if in_git else "the current folder (not in a git repository)"
    if root == Path(root.anchor):
        raise BadInputError(
            f"{where} is the filesystem root {root}: pass --root DIR to choose the "
            "repository to serve"
        )
    if root == _home():
        raise BadInputError(
            f"{where} is your home directory {root}: pass --root DIR to choose the "
            "repository to serve"
        )
    limit = max_files()
    if not in_git and count_files(root, limit) > limit:
        raise BadInputError(
            f"{root} is not in a git repository and holds more than {limit:,} files: pass "
            f"--root DIR to serve it anyway (or raise {MAX_FILES_ENV})"
        )


def _home() -> Path | None:
    try:
        return Path.home().resolve()
    except RuntimeError:  # no HOME and no password entry
        return None


def count_files(folder: Path, limit: int) -> int:
    """The number of files under `folder` (symlinks not followed, unreadable folders
    skipped), counted only up to `limit + 1`."""
    count = 0
    pending = [str(folder)]
    while pending:
        try:
            entries = os.scandir(pending.pop())
        except OSError:
            continue
        with entries:
            for entry in entries:
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    continue
                if is_dir:
                    pending.append(entry.path)
                    continue
                count += 1
                if count > limit:
                    return count
    return count
