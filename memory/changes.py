"""What a diff changed: its files (git), their two sides, its symbols, the memories it touches.

A diff runs from a commit (default HEAD) to the working tree (untracked files
count as added) or to a second commit. Files in no language the map knows are
listed but not parsed. A memory is *touched* when one of its references into
a file the diff changed was moved, modified or deleted (relocated, renamed,
modified, deleted), or when the diff modified, moved or renamed a symbol that
one of its anchored symbols calls directly (the map's `calls` edges from
where the symbol is now). The callees are read from the anchors whatever the
memory's status or its references': a stale memory's modified symbol still
calls what it calls.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from disk.errors import DiskError
from disk.text import decode_source
from map import language_for
from memory.errors import MemoryInputError
from memory.files import FileNow, file_at
from memory.git import BlobReader, Change, GitError, GitRepo
from memory.model import MemoryCheck, RefCheck
from memory.symdiff import Side, SymbolChange, diff_symbols
from memory.workspace import Workspace

MOVED_OR_CHANGED = frozenset({"relocated", "renamed", "modified", "deleted"})


@dataclass(frozen=True, slots=True)
class Diff:
    """The files a diff changed: old path -> change (new files as `added`)."""

    since: str
    """The full commit the diff starts from."""
    until: str | None
    """The full commit it ends at, or None for the working tree."""
    files: dict[str, Change]

    def paths(self) -> set[str]:
        """Every path the diff names, old and new."""
        found = set(self.files)
        found.update(c.new_path for c in self.files.values() if c.new_path)
        return found

    def renamed(self) -> dict[str, str]:
        """Old path -> new path of the renamed files."""
        return {p: c.new_path for p, c in self.files.items() if c.kind == "renamed" and c.new_path}

    def texts_before(self, root: Path) -> dict[str, str]:
        """The text at `since` of each changed file still there, by its path now ("" for
        an added file; a file that was not source text is left out)."""
        found: dict[str, str] = {}
        with BlobReader(root) as blobs:
            for old, change in self.files.items():
                now = change.new_path or old
                if change.kind == "added":
                    found[now] = ""
                elif change.kind != "deleted" and (data := blobs.read(self.since, old)):
                    with contextlib.suppress(DiskError):
                        found[now] = decode_source(data, path=old)
        return found


def diff_files(root: Path, since: str = "HEAD", until: str | None = None) -> Diff:
    """The files changed from `since` to `until` (None: the working tree).

    Raises MemoryInputError outside a git repository or for an unknown commit.
    """
    repo = GitRepo.discover(root)
    if repo is None:
        raise MemoryInputError(
            f"{root} is not in a git repository: a diff needs one",
            hint="run inside a git work tree",
        )
    start = _commit(repo, since)
    end = None if until is None else _commit(repo, until)
    files = repo.changes(start, end)
    if end is None:
        for path in repo.untracked():
            files.setdefault(path, Change("added"))
    return Diff(start, end, files)


def _commit(repo: GitRepo, name: str) -> str:
    if not name or name.startswith("-"):
        raise MemoryInputError(f"bad commit {name!r}", hint="pass a commit, e.g. HEAD or HEAD~1")
    try:
        return repo.run("rev-parse", "--verify", "-q", f"{name}^{{commit}}").strip()
    except GitError as exc:
        raise MemoryInputError(
            f"unknown commit {name!r}", hint="pass a commit this repository has, e.g. HEAD~1"
        ) from exc


def diff_sides(diff: Diff, ws: Workspace) -> tuple[dict[str, Side], dict[str, Side]]:
    """Both sides of every changed file the map can parse (old path keys, new path keys).

    Outlined through `ws`, once per content: a memory check on the same workspace
    reuses them (the old side is what its history reads), and so does the map's."""
    old: dict[str, Side] = {}
    new: dict[str, Side] = {}
    with BlobReader(ws.root) as blobs:
        for path, change in diff.files.items():
            now = change.new_path or path
            if change.kind != "added" and language_for(path) is not None:
                _put(ws, old, file_at(blobs, diff.since, path))
            if change.kind != "deleted" and language_for(now) is not None:
                file = file_at(blobs, diff.until, now) if diff.until else ws.readable(now)
                _put(ws, new, file)
    return old, new


def symbol_changes(diff: Diff, ws: Workspace) -> list[SymbolChange]:
    """The symbols the diff added, removed, modified, moved and renamed."""
    old, new = diff_sides(diff, ws)
    return diff_symbols(old, new, diff.renamed())


def _put(ws: Workspace, sides: dict[str, Side], file: FileNow | None) -> None:
    if file is None:
        return
    try:
        outline = ws.outline(file)
    except (DiskError, ValueError):
        return
    if outline is not None:
        sides[file.path] = Side(outline, file.text)


@dataclass(frozen=True, slots=True)
class Touched:
    """A memory the diff touches: its references that moved, changed or went, and the
    callees of its symbols that the diff changed."""

    check: MemoryCheck
    refs: tuple[RefCheck, ...]
    callees: tuple[str, ...]


Callees = Callable[[str], Iterable[str]]
"""The node IDs a symbol (by node ID) calls directly."""
CHANGED_CALLEE = frozenset({"modified", "moved", "renamed"})
"""The symbol changes that change a callee (an added symbol was nobody's callee)."""


def touched(
    results: Sequence[MemoryCheck],
    diff: Diff,
    changes: Sequence[SymbolChange] = (),
    callees: Callees | None = None,
) -> list[Touched]:
    """The checked memories the diff touches, in the order given; `changes` are the
    diff's symbols, `callees` the map's call edges (without them, no callee counts)."""
    paths = diff.paths()
    changed_ids = {
        i for c in changes if c.change in CHANGED_CALLEE for i in (c.node_id, c.old_id) if i
    }
    found = []
    for result in results:
        refs = tuple(
            r
            for r in result.refs
            if r.status in MOVED_OR_CHANGED
            and (r.anchor.spec.path in paths or (r.place is not None and r.place.path in paths))
        )
        changed: set[str] = set()
        if callees is not None and changed_ids:
            for node in filter(None, map(_symbol_now, result.refs)):
                changed.update(c for c in callees(node) if c in changed_ids)
        if refs or changed:
            found.append(Touched(result, refs, tuple(sorted(changed))))
    return found


def _symbol_now(ref: RefCheck) -> str | None:
    """The node ID of an anchored symbol where the check found it now, whatever its
    status (None: not a symbol, or not found)."""
    place = ref.place
    if ref.anchor.spec.type != "symbol" or place is None or not place.symbol:
        return None
    return f"{place.path}#{place.symbol}"
