"""Confine user-supplied paths to the workspace root."""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from disk.errors import MissingFileError, OutsideRootError


def resolve_in_root(root: Path, path: str | Path, *, must_exist: bool = True) -> Path:
    """Return the absolute, symlink-free path of `path` inside `root`.

    `path` may be relative to the root or absolute. Raises OutsideRootError
    when the path, or a symlink along it, leads outside the root, and
    MissingFileError when `must_exist` and there is no regular file there.
    """
    root = root.resolve()
    candidate = Path(path)
    if not candidate.is_absolute():
        candidate = root / candidate
    resolved = candidate.resolve()
    shown = str(path)
    if not resolved.is_relative_to(root):
        lexical = Path(os.path.normpath(candidate))
        how = "a symlink on it points" if lexical.is_relative_to(root) else "it is"
        raise OutsideRootError(
            f"{shown}: outside the workspace root {root} ({how} elsewhere); "
            "pass a path inside the root",
            path=shown,
        )
    if must_exist and not resolved.is_file():
        what = "is a directory" if resolved.is_dir() else "does not exist"
        raise MissingFileError(f"{shown}: {what} under {root}", path=shown)
    return resolved


def relative_posix(root: Path, path: Path) -> str:
    """The repo-relative POSIX form of an absolute path inside `root`."""
    return PurePosixPath(path.resolve().relative_to(root.resolve())).as_posix()
