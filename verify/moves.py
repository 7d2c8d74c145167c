"""Evidence that a file moved: git's record of a rename.

A node ID whose file is gone is followed to another file only when git says
the file went there: a rename staged in the index, or the commit that last
deleted the path recorded it as renamed (rename detection on that commit's
whole diff). Renames chain (`a.py` -> `b.py` -> `c.py`) up to `MAX_HOPS`.
Outside a git work tree, or when git fails, there is no evidence.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

MAX_HOPS = 5
GIT_TIMEOUT_S = 10.0


@dataclass(frozen=True, slots=True)
class Rename:
    """`old` was renamed to `new` (repo-relative POSIX paths) in `where`."""

    old: str
    new: str
    where: str
    """A commit's short hash, or `the index` for a rename staged but not committed."""

    def describe(self) -> str:
        """One line naming the evidence."""
        return f"git records {self.old} renamed to {self.new} ({self.where})"


def renamed_to(root: Path, path: str) -> Rename | None:
    """Where git says `path` (gone from the disk) went: the last rename of a chain
    that ends at a file on disk, with the first path as `old`; None without evidence."""
    wheres: list[str] = []
    current = path
    for _ in range(MAX_HOPS):
        step = _staged_rename(root, current) or _committed_rename(root, current)
        if step is None:
            return None
        wheres.append(step.where)
        current = step.new
        if (root / current).is_file():
            return Rename(path, current, ", then ".join(wheres))
    return None


def _staged_rename(root: Path, path: str) -> Rename | None:
    out = _git(root, "diff", "--cached", "-M", "--name-status", "-z", "HEAD")
    return _rename_in(out, path, "the index")


def _committed_rename(root: Path, path: str) -> Rename | None:
    commit = _git(root, "log", "-n1", "--format=%h", "--diff-filter=D", "--", path).strip()
    if not commit:
        return None
    out = _git(root, "show", "-M", "--name-status", "-z", "--format=", commit)
    return _rename_in(out, path, f"commit {commit}")


def _rename_in(name_status: str, path: str, where: str) -> Rename | None:
    """The rename of `path` in `git ... --name-status -z` output, if it has one."""
    fields = name_status.split("\0")
    at = 0
    while at < len(fields) - 1:
        status = fields[at]
        if status.startswith(("R", "C")):
            old, new = fields[at + 1], fields[at + 2] if at + 2 < len(fields) else ""
            if status.startswith("R") and old == path and new:
                return Rename(path, new, where)
            at += 3
        else:
            at += 2
    return None


def _git(root: Path, *args: str) -> str:
    """git's output for `args` in `root` ('' when git fails or is missing)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.decode("utf-8", "surrogateescape") if done.returncode == 0 else ""
