"""Scratch git repositories for tests and benchmarks: a fixed identity, no user config.

The one place that runs git on a throwaway repository: the memory tests'
`Repo`, the map tests, the MCP session's example repository and the
benchmarks' corpora (scripts/bench_*.py import it as `tests.gitrepo`). The
user's own git configuration (hooks, signing, a default branch) never leaks in.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping
from pathlib import Path

GIT_ENV = {
    "GIT_AUTHOR_NAME": "codeanchor",
    "GIT_AUTHOR_EMAIL": "codeanchor@example.invalid",
    "GIT_COMMITTER_NAME": "codeanchor",
    "GIT_COMMITTER_EMAIL": "codeanchor@example.invalid",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}
"""Added to the environment of every git call made here."""


def git(root: Path, *args: str, env: Mapping[str, str] | None = None) -> str:
    """Run git in `root` with `GIT_ENV` (and `env` over it); its stdout. Raises
    CalledProcessError when git fails."""
    done = subprocess.run(
        ["git", *args],
        cwd=root,
        env={**os.environ, **GIT_ENV, **(env or {})},
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def commit_all(root: Path, message: str) -> None:
    """Make `root` a new repository (branch main) whose one commit holds all its files."""
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", message)


def copy_checkout(source: Path, target: Path) -> Path:
    """The files of the checkout at `source` (tracked and new, not ignored) copied to
    `target`, as a git URL would give them; `target`."""
    listed = subprocess.run(
        ["git", "-C", str(source), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        if (source / name).is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source / name, target / name)
    return target
