"""The walk behind a listing outside git, remembered from one listing to the next.

A directory's entries change only when its own stat stamp (mtime, ctime,
inode) moves, so a walk keeps what it read of each directory (`Folder`),
and the next walk of the same tree stats each directory and reads again
only those whose stamp moved: a rebuild's listing costs a stat per
directory instead of reading them all. A directory is read again, with
everything under it, when its .gitignore moved. One changed within
RACY_NS of being read is read again next time too: timestamps are
coarse, and a change in the same tick as the read would not move them.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass

import pathspec

from disk.stamps import FileStamp

RACY_NS = 2_000_000_000
"""A directory changed less than this before it was read is read again next time."""
IGNORE_FILE = ".gitignore"

Rules = tuple[str, pathspec.GitIgnoreSpec]
"""A .gitignore's rules and the directory (POSIX prefix, "" for the root) they apply under."""


@dataclass(frozen=True, slots=True)
class Folder:
    """One directory as a walk read it."""

    stamp: tuple[int, int, int]
    """mtime, ctime and inode of the directory when read."""
    settled: bool
    """Its entries changed long enough before the read (mtime, RACY_NS) to trust `stamp`
    next time (a change of entries sets mtime and ctime alike)."""
    ignore: FileStamp | None
    """The stamp of its .gitignore (None: none) and the rules read from it."""
    rules: pathspec.GitIgnoreSpec | None
    files: tuple[str, ...]
    """Its files (repo-relative) that no .gitignore ignores."""
    subdirs: tuple[str, ...]
    """The names of the directories to enter."""
    pruned: int
    """Vendored directories left out."""


@dataclass(frozen=True)
class Walked:
    """Every file found, the vendored directories left out, and what the next walk reuses."""

    files: list[str]
    pruned: int
    folders: dict[str, Folder]
    """Directory prefix ("" for the root, else "a/b/") -> what was read there."""


@dataclass(frozen=True)
class Skips:
    """Directory names a walk never enters: `unlisted` uncounted, `vendored` counted."""

    unlisted: frozenset[str]
    vendored: frozenset[str]
    own_dir: str
    """The map's own directory (repo-relative), not entered and not counted."""


def walk_tree(root: str, skips: Skips, known: Mapping[str, Folder]) -> Walked:
    """Every file under `root`, minus what the .gitignore files on the way ignore;
    directories whose stamp did not move since `known` was read are not read again.

    Vendored directories are not entered; each counts once. Symlinks to
    directories are not entered (they count as vendored when so named).
    """
    files: list[str] = []
    pruned = 0
    folders: dict[str, Folder] = {}
    now = time.time_ns()
    pending: list[tuple[str, str, list[Rules], bool]] = [(root, "", [], True)]
    while pending:
        current, prefix, inherited, reuse = pending.pop()
        try:
            st = os.stat(current)
        except OSError:
            continue
        stamp = (st.st_mtime_ns, st.st_ctime_ns, st.st_ino)
        old = known.get(prefix) if reuse else None
        if old is not None and old.settled and old.stamp == stamp and _same_rules(current, old):
            folder = old
        else:
            settled = stamp[0] < now - RACY_NS  # an entry's change moves mtime
            folder = _read(current, prefix, inherited, skips, old, (stamp, settled))
            reuse = reuse and old is not None and old.ignore == folder.ignore
        folders[prefix] = folder
        files.extend(folder.files)
        pruned += folder.pruned
        rules = inherited if folder.rules is None else [*inherited, (prefix, folder.rules)]
        pending.extend(
            (f"{current}/{name}", f"{prefix}{name}/", rules, reuse) for name in folder.subdirs
        )
    return Walked(files, pruned, folders)


def unmoved(root: str, folders: Mapping[str, Folder]) -> bool:
    """Whether a walk of `root` from `folders` (a previous walk's) would read no
    directory again, and so find the same files: every directory settled, its stat
    stamp and its .gitignore's as they were read. A stat per directory."""
    base = os.path.join(root, "")
    for prefix, folder in folders.items():
        current = base + prefix
        try:
            st = os.stat(current)
        except OSError:
            return False
        if (
            not folder.settled
            or (st.st_mtime_ns, st.st_ctime_ns, st.st_ino) != folder.stamp
            or not _same_rules(current, folder)
        ):
            return False
    return True


def _read(
    current: str,
    prefix: str,
    inherited: list[Rules],
    skips: Skips,
    old: Folder | None,
    stamped: tuple[tuple[int, int, int], bool],
) -> Folder:
    """Read directory `current` (repo prefix `prefix`) under the `inherited` rules."""
    try:
        with os.scandir(current) as listing:
            entries = [(entry.name, _is_dir(entry), entry.is_symlink()) for entry in listing]
    except OSError:
        entries = []
    ignore: FileStamp | None = None
    spec: pathspec.GitIgnoreSpec | None = None
    if any(name == IGNORE_FILE and not is_dir for name, is_dir, _ in entries):
        path = os.path.join(current, IGNORE_FILE)
        ignore = FileStamp.of(path)  # stamped before it is read, as every file is
        kept = old is not None and ignore is not None and old.ignore == ignore
        spec = old.rules if old is not None and kept else _read_rules(path)
    rules = inherited if spec is None else [*inherited, (prefix, spec)]
    files: list[str] = []
    subdirs: list[str] = []
    pruned = 0
    for name, is_dir, is_link in entries:
        rel = prefix + name
        if not is_dir:
            if not rules or not ignored(rules, rel):
                files.append(rel)
        elif (
            name in skips.unlisted or rel == skips.own_dir or (rules and ignored(rules, rel + "/"))
        ):
            continue
        elif name in skips.vendored:
            pruned += 1
        elif not is_link:
            subdirs.append(name)
    stamp, settled = stamped
    return Folder(stamp, settled, ignore, spec, tuple(files), tuple(subdirs), pruned)


def _same_rules(current: str, old: Folder) -> bool:
    """Whether the .gitignore of `current` is as `old` read it (an edit in place moves
    the file's stamp, not the directory's)."""
    return old.ignore is None or FileStamp.of(os.path.join(current, IGNORE_FILE)) == old.ignore


def _is_dir(entry: os.DirEntry[str]) -> bool:
    """Whether `entry` is a directory (or a symlink to one), as `os.walk` tells them."""
    try:
        return entry.is_dir()
    except OSError:
        return False


def _read_rules(path: str) -> pathspec.GitIgnoreSpec | None:
    """The rules of the .gitignore at `path`; None when it cannot be read."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return pathspec.GitIgnoreSpec.from_lines(handle.read().splitlines())
    except OSError:
        return None


def ignored(rules: list[Rules], rel: str) -> bool:
    """True when the innermost .gitignore with an opinion on `rel` ignores it."""
    verdict = False
    for base, spec in rules:
        result = spec.check_file(rel[len(base) :])
        if result.include is not None:
            verdict = result.include
    return verdict
