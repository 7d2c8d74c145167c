"""Follow a symbol's name through git history: the commit that renamed it, and the new name.

Asked when a symbol is no longer under its node ID and its text is not
found elsewhere as it was. Git's pickaxe lists the commits since the anchor
commit that changed how often the name occurs: in the anchored file, followed
through its renames, or in the whole repository when the file is gone. In
each (oldest first), the commit is the rename when the symbol was in a file
the commit changed just before it and is not there after, and the commit
added one symbol of the same kind, under another name, that is like it:

    its name-blind tokens      SIMILAR_LOW or more alike in the same file and
                               container, OTHER_CONTAINER_MIN or more elsewhere
    its members (a class)      as many alike by name (one story per rename: a
                               class whose methods moved into another class is
                               that class renamed)

Two such symbols within TIE_MARGIN are no answer. The new name is then looked
for where that file is now; renamed again later, it is followed again (up to
MAX_HOPS renames). One run answers each question once, and spends at most
HISTORY_BUDGET_S seconds on history in all: past it, `cut` says so.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

from map import Symbol, language_for
from memory.bodies import symbol_id, symbol_text
from memory.confidence import OTHER_CONTAINER_MIN, SIMILAR_LOW, TIE_MARGIN
from memory.files import FileNow
from memory.git import GitError
from memory.model import Since
from memory.similarity import similarity, tokens
from memory.workspace import Workspace

HISTORY_BUDGET_S = 5.0
"""Seconds one check may spend asking git's history about renames, in all."""
MAX_HOPS = 3
"""Renames of one symbol followed one after the other."""
_MASK = "__renamed_symbol__"


@dataclass(frozen=True, slots=True)
class Rename:
    """Where a renamed symbol is now, and the commit that renamed it."""

    old_id: str
    """The symbol part of the node ID it had (`Qual.Name`)."""
    file: FileNow
    """The file that holds it now."""
    symbol: Symbol
    """The symbol now."""
    since: Since
    """The commit that took the old name away (the first, when renamed more than once)."""


@dataclass(frozen=True, slots=True)
class _Step:
    new_id: str
    path: str
    """The path of the file holding it, at the renaming commit."""


def simple(symbol: str) -> str:
    """A symbol ID's own name (`issue` for `TokenStore.issue~2`)."""
    return symbol.rpartition(".")[2].partition("~")[0]


class Renames:
    """The renames one check run traced, and the time it spent on history."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self._traced: dict[tuple[str, str, str], Rename | None] = {}
        self._spent = 0.0
        self.cut = False
        """True once the run's time for history was spent (some renames not looked for)."""

    def unavailable(self, commit: str | None) -> str | None:
        """Why history cannot be searched from `commit` (None when it can)."""
        if commit is None:
            return None
        if self.ws.git is None:
            return "there is no git repository here to follow renames through"
        if self.ws.changes(commit) is None:
            return (
                f"its commit {commit[:10]} is not in this repository's history "
                "(a shallow clone?), so renames could not be followed"
            )
        return None

    def trace(self, commit: str, path: str, symbol: str) -> Rename | None:
        """Where the symbol `symbol` of the file at `path` in `commit` went by renames
        since then (None: not renamed, or history cannot tell in time)."""
        key = (commit, path, symbol)
        if key not in self._traced:
            started = time.perf_counter()
            try:
                self._traced[key] = self._trace(commit, path, symbol, MAX_HOPS)
            finally:
                self._spent += time.perf_counter() - started
        return self._traced[key]

    def _left(self) -> float:
        left = HISTORY_BUDGET_S - self._spent
        if left <= 0:
            self.cut = True
        return left

    def _trace(self, commit: str, path: str, symbol: str, hops: int) -> Rename | None:
        git, name = self.ws.git, simple(symbol)
        if git is None or self.unavailable(commit) or not re.fullmatch(r"[\w$]+", name):
            return None
        now = self._path_now(commit, path)
        left = self._left()
        if left <= 0:
            return None
        try:
            hits = git.pickaxe(name, commit, now, timeout=left)
        except GitError:
            self.cut = self.cut or self._left() <= 0
            return None
        for sha, subject in hits:
            if self._left() <= 0:
                return None
            step = self._renamed_in(sha, symbol)
            if step is None:
                continue
            since = Since(sha, subject)
            where = self._path_now(sha, step.path)
            file = self.ws.readable(where) if where else None
            found = self.ws.index(file).by_id.get(step.new_id) if file else None
            if file is not None and found is not None:
                return Rename(symbol, file, found, since)
            later = self._trace(sha, step.path, step.new_id, hops - 1) if hops > 1 else None
            return None if later is None else Rename(symbol, later.file, later.symbol, since)
        return None

    def _path_now(self, commit: str, path: str) -> str | None:
        """Where the file at `path` in `commit` is now (None: deleted since)."""
        change = (self.ws.changes(commit) or {}).get(path)
        if change is None or change.kind == "modified":
            return path
        return change.new_path if change.kind == "renamed" else None

    def _renamed_in(self, sha: str, symbol: str) -> _Step | None:
        """The symbol `symbol` took another name in commit `sha`: its new ID and file."""
        git, history, name = self.ws.git, self.ws.history, simple(symbol)
        if git is None:
            return None
        try:
            files = git.changes(f"{sha}^", sha)
        except GitError:
            return None
        pairs: dict[str, str | None] = {}
        for old, change in files.items():
            if change.kind == "renamed" and change.new_path:
                pairs[change.new_path] = old
            elif change.kind == "modified":
                pairs[old] = old
        for old, change in files.items():
            if change.kind == "added":
                pairs.setdefault(old, None)
        for old, change in files.items():
            if change.kind == "added" or language_for(old) is None:
                continue
            before = history.file_at(f"{sha}^", old)
            if before is None or not self.ws.mentions(before, name):
                continue
            was = self.ws.index(before).by_id.get(symbol)
            if was is None:
                continue
            after_path = change.new_path or old
            after = history.file_at(sha, after_path) if change.kind != "deleted" else None
            if after is not None and symbol in self.ws.index(after).by_id:
                return None
            return self._likeliest(sha, before, was, pairs, after_path)
        return None

    def _likeliest(
        self, sha: str, before: FileNow, was: Symbol, pairs: dict[str, str | None], own: str
    ) -> _Step | None:
        """The one symbol commit `sha` added that is `was` under another name."""
        history = self.ws.history
        old_tokens = _masked(symbol_text(before, was), was.name)
        old_members = _members(self.ws, before, was)
        scored: list[tuple[float, str, str]] = []
        for new_path, old_path in pairs.items():
            if language_for(new_path) is None:
                continue
            file = history.file_at(sha, new_path)
            prior = history.file_at(f"{sha}^", old_path) if old_path else None
            if file is None:
                continue
            had = self.ws.index(prior).by_id if prior is not None else {}
            for candidate in self.ws.index(file).symbols:
                new_id = symbol_id(candidate)
                if candidate.kind != was.kind or candidate.name == was.name or new_id in had:
                    continue
                close = new_path == own and candidate.container == was.container
                score = similarity(
                    old_tokens, _masked(symbol_text(file, candidate), candidate.name)
                )
                if old_members:
                    score = max(score, _overlap(old_members, _members(self.ws, file, candidate)))
                if score >= (SIMILAR_LOW if close else OTHER_CONTAINER_MIN):
                    scored.append((score, new_id, new_path))
        if not scored:
            return None
        scored.sort(reverse=True)
        if len(scored) > 1 and scored[0][0] - scored[1][0] < TIE_MARGIN:
            return None
        return _Step(scored[0][1], scored[0][2])


def _masked(text: str, name: str) -> list[str]:
    return [_MASK if token == name else token for token in tokens(text)]


def _members(ws: Workspace, file: FileNow, owner: Symbol) -> frozenset[str]:
    """The names of the symbols directly inside `owner` (none for a function)."""
    inside = (*owner.container, owner.name)
    return frozenset(s.name for s in ws.index(file).symbols if s.container == inside)


def _overlap(old: frozenset[str], new: frozenset[str]) -> float:
    """The share of members two classes have in common by name (0 when either has none)."""
    if not old or not new:
        return 0.0
    return len(old & new) / len(old | new)
