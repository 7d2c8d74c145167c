"""Far commit pairs for `bench_memory_accuracy.py --far`: ground truth that follows renames.

Nothing here uses the product. A symbol anchored at A (Python's `ast`) is
followed commit by commit along the first-parent line to B (each commit
diffed against its first parent, git's rename detection for files):

    its qualified name still in its file (or the file's git rename)   kept
    gone, and the commit added one def of the same type elsewhere in the files
    it touched whose tokens, names masked, are >= RENAMED_MIN alike (difflib;
    a class: or >= MEMBERS_MIN of its member names in common); its container
    renamed so (the same analysis on the container)                   followed,
                                                                      renamed
                                                                      if the
                                                                      name changed
    otherwise                                                         deleted

At B: never renamed -> valid, relocated or modified as in `memory_truth`
(tokens, whitespace and comments ignored); renamed -> `renamed` when its
name-blind tokens are the same, else `modified` (a rename with edits). The
commit that first renamed it (or its container) is kept: the product must
name a commit that makes the same change, checked with `ast` on both sides
of it (`renamed_by`).
"""

from __future__ import annotations

import difflib
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memory_truth import Expected, Snapshot, Sym, _parse

RENAMED_MIN = 0.6
MEMBERS_MIN = 0.5


class Blobs:
    """Files at commits, from one `git cat-file --batch`, parsed once per (commit, path)."""

    def __init__(self, root: Path) -> None:
        self.process = subprocess.Popen(
            ["git", "cat-file", "--batch"],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._parsed: dict[tuple[str, str], Snapshot] = {}

    def text(self, commit: str, path: str) -> str | None:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(f"{commit}:{path}\n".encode())
        stdin.flush()
        header = stdout.readline().split()
        if len(header) != 3:
            return None
        data = stdout.read(int(header[2]))
        stdout.read(1)
        return data.decode("utf-8", "replace")

    def snapshot(self, commit: str, path: str) -> Snapshot:
        """One file at `commit` (an empty snapshot when absent)."""
        key = (commit, path)
        if key not in self._parsed:
            text = self.text(commit, path)
            self._parsed[key] = Snapshot({} if text is None else {path: _parse(path, text)})
        return self._parsed[key]

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


@dataclass
class Followed:
    """One anchored symbol on its way from A to B."""

    path: str
    qualname: str
    first: Sym
    alive: bool = True
    renamed_in: str | None = None
    """The commit that first renamed it or its container."""
    name_changed: bool = False
    first_rename: tuple[str, str] | None = None
    """The qualified names before and after the first rename."""


def first_parent_commits(
    root: Path, a: str, b: str
) -> Iterator[tuple[str, str, list[tuple[str, list[str]]]]]:
    """(commit, first parent, .py name-status entries) from A (excluded) to B, oldest first."""
    out = subprocess.run(
        ["git", "log", "--first-parent", "--diff-merges=first-parent", "--reverse", "-M",
         "--name-status", "--format=@@%H %P", f"{a}..{b}", "--", "*.py"],
        cwd=root, capture_output=True, check=True,
    ).stdout.decode("utf-8", "replace")  # fmt: skip
    commit, parent = "", ""
    entries: list[tuple[str, list[str]]] = []
    for line in out.splitlines():
        if line.startswith("@@"):
            if commit:
                yield commit, parent, entries
            sha, *parents = line[2:].split()
            commit, parent, entries = sha, parents[0] if parents else "", []
        elif line.strip():
            status, *paths = line.split("\t")
            entries.append((status, paths))
    if commit:
        yield commit, parent, entries


def follow(root: Path, a: str, b: str, anchors: dict[str, Followed]) -> None:
    """Walk A..B and update every anchor (keys are `path#qualname` at A)."""
    blobs = Blobs(root)
    try:
        for commit, parent, entries in first_parent_commits(root, a, b):
            moves = {paths[0]: (s[0], paths[-1]) for s, paths in entries if s[0] in "MDR"}
            touched = [f for f in anchors.values() if f.alive and f.path in moves]
            if not touched:
                continue
            added = _new_defs(blobs, commit, parent, entries)
            renames = _class_renames(blobs, commit, parent, moves, touched, added)
            for item in touched:
                _step(blobs, commit, moves, item, added, renames)
    finally:
        blobs.close()


def _new_defs(
    blobs: Blobs, commit: str, parent: str, entries: list[tuple[str, list[str]]]
) -> list[Sym]:
    """Defs the commit added: in a file it touched, absent from that file before."""
    found = []
    for status, paths in entries:
        if status[0] == "D":
            continue
        old, new = paths[0], paths[-1]
        before = blobs.snapshot(parent, old) if status[0] != "A" else Snapshot({})
        for sym in blobs.snapshot(commit, new).symbols(new):
            if not before.has_symbol(old, sym.qualname):
                found.append(sym)
    return found


def _kind(sym: Sym) -> str:
    """`class` or `def` (async ones too): the keyword before the name."""
    at = sym.tokens.index(sym.name) if sym.name in sym.tokens else 0
    return "class" if at and sym.tokens[at - 1] == "class" else "def"


def _members(snapshot: Snapshot, path: str, qualname: str) -> set[str]:
    prefix = qualname + "."
    return {
        s.name
        for s in snapshot.symbols(path)
        if s.qualname.startswith(prefix) and "." not in s.qualname[len(prefix) :]
    }


def _likeliest(
    blobs: Blobs, commit: str, was: Sym, before: Snapshot, added: list[Sym]
) -> Sym | None:
    """The one added def that is `was` under another name (or the same name elsewhere)."""
    scored = []
    members = _members(before, was.path, was.qualname)
    for sym in added:
        if _kind(sym) != _kind(was) or sym.qualname == was.qualname:
            continue
        blind_was = tuple("<n>" if t == was.name else t for t in was.tokens)
        blind_now = tuple("<n>" if t == sym.name else t for t in sym.tokens)
        score = difflib.SequenceMatcher(None, blind_was, blind_now, autojunk=False).ratio()
        if members:
            theirs = _members(blobs.snapshot(commit, sym.path), sym.path, sym.qualname)
            if theirs:
                score = max(score, len(members & theirs) / len(members | theirs))
        if score >= RENAMED_MIN:
            scored.append((score, sym))
    scored.sort(key=lambda pair: -pair[0])
    if not scored or (len(scored) > 1 and scored[0][0] - scored[1][0] < 0.05):
        return None
    return scored[0][1]


def _class_renames(
    blobs: Blobs,
    commit: str,
    parent: str,
    moves: dict[str, tuple[str, str]],
    touched: list[Followed],
    added: list[Sym],
) -> dict[str, Sym]:
    """Containers of touched anchors that this commit renamed: `path#Old` -> new class."""
    found: dict[str, Sym] = {}
    for item in touched:
        parts = item.qualname.split(".")
        for n in range(1, len(parts)):
            outer = ".".join(parts[:n])
            key = f"{item.path}#{outer}"
            if key in found:
                continue
            before = blobs.snapshot(parent, item.path)
            letter, new_path = moves[item.path]
            after = blobs.snapshot(commit, new_path) if letter != "D" else Snapshot({})
            if not before.has_symbol(item.path, outer) or after.has_symbol(new_path, outer):
                continue
            was = before.files[item.path].symbols[outer][0]
            sym = _likeliest(blobs, commit, was, before, added)
            if sym is not None and sym.name != was.name:
                found[key] = sym
    return found


def _step(
    blobs: Blobs,
    commit: str,
    moves: dict[str, tuple[str, str]],
    item: Followed,
    added: list[Sym],
    renames: dict[str, Sym],
) -> None:
    letter, new_path = moves[item.path]
    after = blobs.snapshot(commit, new_path) if letter != "D" else Snapshot({})
    if after.has_symbol(new_path, item.qualname):
        item.path = new_path
        return
    parts = item.qualname.split(".")
    for n in range(len(parts) - 1, 0, -1):
        outer = renames.get(f"{item.path}#{'.'.join(parts[:n])}")
        if outer is None:
            continue
        inner = ".".join([outer.qualname, *parts[n:]])
        if blobs.snapshot(commit, outer.path).has_symbol(outer.path, inner):
            item.first_rename = item.first_rename or (item.qualname, inner)
            item.path, item.qualname = outer.path, inner
            item.renamed_in = item.renamed_in or commit
            return
    parent_snapshot = _parent_of(blobs, commit, item)
    if parent_snapshot is None:
        item.alive = False
        return
    was = parent_snapshot.files[item.path].symbols[item.qualname][0]
    sym = _likeliest(blobs, commit, was, parent_snapshot, added)
    if sym is None:
        item.alive = False
        return
    if sym.name != was.name:
        item.renamed_in = item.renamed_in or commit
        item.first_rename = item.first_rename or (item.qualname, sym.qualname)
        item.name_changed = True
    item.path, item.qualname = sym.path, sym.qualname


def _parent_of(blobs: Blobs, commit: str, item: Followed) -> Snapshot | None:
    before = blobs.snapshot(f"{commit}^1", item.path)
    return before if before.has_symbol(item.path, item.qualname) else None


def expected_at_b(item: Followed, after: Snapshot) -> Expected:
    """The true status of a followed anchor at B."""
    if not item.alive or not after.has_symbol(item.path, item.qualname):
        return Expected("deleted")
    now = after.files[item.path].symbols[item.qualname][0]
    where = (now.path, now.qualname, now.start, now.end)
    if item.name_changed:
        status = "renamed" if now.blind == item.first.blind else "modified"
        return Expected(status, *where)
    if now.tokens != item.first.tokens:
        return Expected("modified", *where)
    first = item.first
    same = where == (first.path, first.qualname, first.start, first.end)
    return Expected("valid" if same else "relocated", *where)


def renamed_by(blobs: Blobs, root: Path, commit: str, old: str, new: str) -> bool:
    """True when `commit` took the qualified name `old` out of a file it changed and put
    `new` into one (checked with `ast` on both sides of it, against its first parent)."""
    out = subprocess.run(
        ["git", "diff", "--name-only", "--no-renames", f"{commit}^1", commit, "--", "*.py"],
        cwd=root, capture_output=True, check=False,
    ).stdout.decode("utf-8", "replace")  # fmt: skip
    gone = made = False
    for path in out.split():
        then, now = blobs.snapshot(f"{commit}^1", path), blobs.snapshot(commit, path)
        gone = gone or (then.has_symbol(path, old) and not now.has_symbol(path, old))
        made = made or (now.has_symbol(path, new) and not then.has_symbol(path, new))
    return gone and made
