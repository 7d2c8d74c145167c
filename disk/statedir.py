"""codeanchor's own folder under the root (`.codeanchor/`), kept inside the root.

A repository is untrusted input: a `.codeanchor` that is a symlink, or a
state file in it that is one, would carry our writes (map, memory store,
generated server files) out of the root. Such links are refused, never
followed. The folder ignores itself for git (a `.gitignore` holding `*`), so
`git add -A` never commits it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

from disk.errors import OutsideRootError

STATE_DIR = ".codeanchor"
_SELF_IGNORE = "# codeanchor's own state (map, memory store): never committed\n*\n"


def state_dir(root: Path, *, create: bool = True) -> Path:
    """`root/.codeanchor`, created (with its self-ignoring .gitignore) when `create`.

    Raises OutsideRootError when it is a symlink or not a directory.
    """
    path = root / STATE_DIR
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        if not create:
            return path
        path.mkdir(exist_ok=True)
        info = os.lstat(path)
    if not stat.S_ISDIR(info.st_mode):
        kind = "a symlink" if stat.S_ISLNK(info.st_mode) else "not a directory"
        raise OutsideRootError(
            f"{path}: is {kind}; codeanchor keeps its state (map, memory store) only in a "
            "real folder inside the root: remove it (--store can put the memory store "
            "elsewhere)",
            path=str(path),
        )
    ignore = path / ".gitignore"
    if create and not os.path.lexists(ignore):
        ignore.write_text(_SELF_IGNORE, encoding="utf-8")
    return path


def state_file(root: Path, name: str, *, create_dir: bool = True) -> Path:
    """`root/.codeanchor/NAME` (NAME may hold folders: `clangd/x.json`); raises
    OutsideRootError when that file, or a folder on the way to it, is a symlink."""
    path = state_dir(root, create=create_dir)
    for part in PurePosixPath(name).parts:
        if part in ("/", ".", ".."):
            raise ValueError(f"{name!r}: not a plain path inside {STATE_DIR}")
        path = path / part
        refuse_link(path)
    return path


def refuse_link(path: Path) -> None:
    """Raise OutsideRootError when `path` exists as a symlink (its target is never used)."""
    if path.is_symlink():
        raise OutsideRootError(
            f"{path}: is a symlink; codeanchor does not write through links "
            "(remove it, or choose another path)",
            path=str(path),
        )
