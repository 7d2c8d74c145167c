"""Follow a symbol's name through git history: the commit that renamed it, and the new name.

Asked when a symbol is no longer under its node ID and its text is not
found elsewhere as it was. Git's pickaxe lists the commits since the anchor
commit that changed how often the name occurs in the anchored file, under
every path git's rename detection gave it since (so a file moved or deleted
since is searched too), and the commit's own files are read from git. In
each commit (oldest first) where the file holds the name fewer times as a
word after it, the commit is the rename when the symbol was in the file just
before it and is not after, and the commit added one symbol of the same kind,
under another name, in any file it changed, that is like it:

    its name-blind tokens      SIMILAR_LOW or more alike in the same file and
                               container, OTHER_CONTAINER_MIN or more elsewhere
    its members (a class)      as many alike by name (one story per rename: a
                               class whose methods moved into another class is
                               that class renamed)

One in the same file and container is taken before any elsewhere (a method
renamed alike in several classes); two with the same evidence within
TIE_MARGIN are no answer. The new name is then looked for where that file is
now; renamed again later, it is followed again (up to MAX_HOPS renames). One
run answers each question once, and spends at most HISTORY_BUDGET_S seconds
on history in all: past it, `cut` says so. A check of many memories notes its
questions first, then asks git once per anchor commit for all the names and
files (`Renames.answer`). Not found: a symbol that went to another file
before it was renamed there.
"""

from __future__ import annotations

import re
import time
from collections import Counter
from dataclasses import dataclass

from map import Symbol, language_for
from memory.bodies import symbol_id, symbol_text
from memory.confidence import OTHER_CONTAINER_MIN, SIMILAR_LOW, TIE_MARGIN
from memory.files import FileNow
from memory.git import Change, GitError
from memory.model import Since
from memory.similarity import similarity, tokens
from memory.workspace import Workspace

HISTORY_BUDGET_S = 5.0
"""Seconds one check may spend asking git's history about renames, in all."""
MAX_HOPS = 3
"""Renames of one symbol followed one after the other."""
_MASK = "__renamed_symbol__"
_WORD = re.compile(r"[\w$]+")
_DEFINED = re.compile(
    r"\b(?:def|class|func|function|fn|struct|interface|type|enum|trait)\s+([\w$]+)"
    r"|\bfunc\s*\([^)]*\)\s*([\w$]+)"
)
"""A definition of a name, in the languages that spell one with a keyword."""


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
class Touch:
    """A commit that changed how often a name asked about occurs: its files, by path before it."""

    sha: str
    subject: str
    files: dict[str, Change]


@dataclass(frozen=True, slots=True)
class _Step:
    new_id: str
    path: str
    """The path of the file holding it, at the renaming commit."""


def simple(symbol: str) -> str:
    """A symbol ID's own name (`issue` for `TokenStore.issue~2`)."""
    return symbol.rpartition(".")[2].partition("~")[0]


class Renames:
    """The renames one check run traced, and the time it spent on history.

    With `batch`, questions are only noted (`trace` answers None and counts them in
    `asked`) until `answer` asks git once per anchor commit and file for all of them;
    the references that asked are then checked again.
    """

    def __init__(self, ws: Workspace, *, batch: bool = False) -> None:
        self.ws = ws
        self.batch = batch
        self.asked = 0
        """Questions noted while batching."""
        self._wanted: dict[str, dict[str, tuple[str, ...]]] = {}
        """Anchor commit -> name asked -> the paths its file had since."""
        self._hits: dict[str, list[Touch]] = {}
        self._renamed: dict[str, list[tuple[str, str]]] = {}
        self._counts: dict[tuple[str, str], tuple[Counter[str], Counter[str]]] = {}
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
        if key in self._traced:
            return self._traced[key]
        if self.batch:
            if self._askable(commit, symbol):
                self.asked += 1
                lineage = self._wanted.setdefault(commit, {}).setdefault(simple(symbol), ())
                self._wanted[commit][simple(symbol)] = (*lineage, *self._lineage(commit, path))
            return None
        started = time.perf_counter()
        try:
            self._traced[key] = self._trace(commit, path, symbol, MAX_HOPS)
        finally:
            self._spent += time.perf_counter() - started
        return self._traced[key]

    def answer(self) -> None:
        """Ask git about every noted question at once: one pickaxe per anchor commit over
        every name and every path their files had, then the files of the commits found."""
        started = time.perf_counter()
        self.batch = False
        try:
            for commit, asked in sorted(self._wanted.items()):
                paths = sorted({p for lineage in asked.values() for p in lineage})
                self._hits[commit] = self._touches(sorted(asked), commit, paths)
        finally:
            self._spent += time.perf_counter() - started

    def _lineage(self, commit: str, path: str) -> tuple[str, ...]:
        """Every path the file at `path` in `commit` had since then (renamed by git,
        whether or not it is still there)."""
        if commit not in self._renamed:
            git, left = self.ws.git, self._left()
            try:
                self._renamed[commit] = git.renames_since(commit, timeout=left) if git else []
            except GitError:
                self._renamed[commit] = []
        paths = [path]
        for old, new in self._renamed[commit]:
            if old == paths[-1]:
                paths.append(new)
        now = self._path_now(commit, path)
        return tuple(sorted({*paths, *([now] if now else [])}))

    def _touches(self, names: list[str], commit: str, paths: list[str]) -> list[Touch]:
        """The commits since `commit` that changed how often one of `names` occurs in
        `paths`, with every file each changed."""
        git, left = self.ws.git, self._left()
        if git is None or left <= 0 or not paths:
            return []
        try:
            found = git.pickaxe(names, commit, paths, timeout=left)
            files = git.commit_files([sha for sha, _ in found], timeout=max(self._left(), 1))
        except GitError:
            self._left()
            return []
        return [Touch(sha, subject, files.get(sha, {})) for sha, subject in found]

    def _askable(self, commit: str, symbol: str) -> bool:
        name = simple(symbol)
        return not self.unavailable(commit) and re.fullmatch(r"[\w$]+", name) is not None

    def _left(self) -> float:
        left = HISTORY_BUDGET_S - self._spent
        if left <= 0:
            self.cut = True
        return left

    def _trace(self, commit: str, path: str, symbol: str, hops: int) -> Rename | None:
        if not self._askable(commit, symbol):
            return None
        touches = self._hits.get(commit)
        if touches is None:
            touches = self._touches([simple(symbol)], commit, list(self._lineage(commit, path)))
        for touch in touches:
            if self._left() <= 0:
                return None
            step = self._renamed_in(touch, symbol)
            if step is None:
                continue
            since = Since(touch.sha, touch.subject)
            where_now = self._path_now(touch.sha, step.path)
            file = self.ws.readable(where_now) if where_now else None
            found = self.ws.index(file).by_id.get(step.new_id) if file else None
            if file is not None and found is not None:
                return Rename(symbol, file, found, since)
            later = self._trace(touch.sha, step.path, step.new_id, hops - 1) if hops > 1 else None
            return None if later is None else Rename(symbol, later.file, later.symbol, since)
        return None

    def _path_now(self, commit: str, path: str) -> str | None:
        """Where the file at `path` in `commit` is now (None: deleted since)."""
        change = (self.ws.changes(commit) or {}).get(path)
        if change is None or change.kind == "modified":
            return path
        return change.new_path if change.kind == "renamed" else None

    def _renamed_in(self, touch: Touch, symbol: str) -> _Step | None:
        """The symbol `symbol` took another name in the commit `touch`: its new ID and file."""
        history, name, sha = self.ws.history, simple(symbol), touch.sha
        pairs: dict[str, str | None] = {}
        for old, change in touch.files.items():
            if change.kind == "renamed" and change.new_path:
                pairs[change.new_path] = old
            elif change.kind == "modified":
                pairs[old] = old
        for old, change in touch.files.items():
            if change.kind == "added":
                pairs.setdefault(old, None)
        for old, change in touch.files.items():
            if change.kind == "added" or language_for(old) is None:
                continue
            before = history.file_at(f"{sha}^", old)
            if before is None or not self.ws.mentions(before, name):
                continue
            after_path = change.new_path or old
            after = history.file_at(sha, after_path) if change.kind != "deleted" else None
            if after is not None and not self._fewer(before, after, name):
                continue  # the commit touched another name asked about, not this one
            was = self.ws.index(before).by_id.get(symbol)
            if was is None:
                continue
            if after is not None and symbol in self.ws.index(after).by_id:
                return None
            return self._likeliest(sha, before, was, pairs, after_path)
        return None

    def _fewer(self, before: FileNow, after: FileNow, name: str) -> bool:
        """True when `after` defines `name` fewer times than `before` (with a keyword:
        `def`, `class`, `func`, ...; a rename may keep the old name in a deprecation shim),
        or, where no keyword defined it, has it fewer times as a word: a commit that only
        changed how often the name is used is not parsed."""
        (words_then, defined_then), (words_now, defined_now) = map(self._counts_of, (before, after))
        if defined_then[name]:
            return defined_now[name] < defined_then[name]
        return words_now[name] < words_then[name]

    def _counts_of(self, file: FileNow) -> tuple[Counter[str], Counter[str]]:
        """The file's words and the names it defines with a keyword, counted once per content."""
        key = (file.path, file.hash)
        if key not in self._counts:
            defined = Counter(a or b for a, b in _DEFINED.findall(file.text))
            self._counts[key] = (Counter(_WORD.findall(file.text)), defined)
        return self._counts[key]

    def _likeliest(
        self, sha: str, before: FileNow, was: Symbol, pairs: dict[str, str | None], own: str
    ) -> _Step | None:
        """The one symbol commit `sha` added that is `was` under another name."""
        history = self.ws.history
        old_tokens = _masked(symbol_text(before, was), was.name)
        old_members = _members(self.ws, before, was)
        scored: list[tuple[bool, float, str, str]] = []
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
                    scored.append((close, score, new_id, new_path))
        if not scored:
            return None
        scored.sort(reverse=True)  # the same file and container first
        best, second = scored[0], scored[1] if len(scored) > 1 else None
        if second is not None and second[0] == best[0] and best[1] - second[1] < TIE_MARGIN:
            return None
        return _Step(best[2], best[3])


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
