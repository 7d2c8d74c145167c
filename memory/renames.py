"""Follow a symbol's name through git history: the commit that renamed or moved it, and where.

Asked when a symbol is no longer under its node ID and its text is not
found elsewhere as it was. The check's one walk of history (`memory.lineage`)
lists the commits since the anchor commit that changed the anchored file,
along every path git's rename detection gave it since (a file moved before
or after the symbol's rename, or deleted, is one chain). In each (oldest
first) where the file defines the name fewer times after it (a `def`,
`class`, `func`, ... keyword; for a name no keyword defines, fewer times as a
word), counted from the two blobs, the commit is where the symbol went when
it was in the file just before it and is not after, and the commit added one
symbol of the same kind (a function and a method are one), in any file it
changed, that is like it:

    its name-blind tokens      SIMILAR_LOW or more alike in the same file and
                               container, OTHER_CONTAINER_MIN or more elsewhere
    its members (a class)      as many alike by name (one story per rename: a
                               class whose methods moved into another class is
                               that class renamed)

One in the same file and container is taken before any elsewhere (a method
renamed alike in several classes), and then one under the same name (moved to
another file or class); two with the same evidence within TIE_MARGIN are no
answer. The new name is then looked for where that file is now; moved or
renamed again later, it is followed again (up to MAX_HOPS steps), so a symbol
moved to another file and renamed there is found.

The work is bounded, not the time: a check reads at most HISTORY_VERSIONS old
file versions to count names in and parses at most HISTORY_PARSES. A search
the bound cut short is known as such (`cut_short` says why), never taken for
a deletion.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from map import Symbol, language_for
from memory.bodies import SymbolIndex, symbol_id, symbol_text
from memory.confidence import OTHER_CONTAINER_MIN, SIMILAR_HIGH, SIMILAR_LOW, TIE_MARGIN
from memory.files import FileNow
from memory.git import FileStep, WalkCommit
from memory.lineage import WALK_LIMIT, Walk, walk_base
from memory.model import Since
from memory.similarity import similarity, tokens
from memory.workspace import Workspace

HISTORY_VERSIONS = 6_000
"""Old file versions one check may read to count a name's definitions in them."""
HISTORY_PARSES = 800
"""Old file versions one check may parse to see where a name went."""
MAX_HOPS = 3
"""Renames and moves of one symbol followed one after the other."""
TINY_TOKENS = 24
"""Below this many tokens a symbol renamed needs SIMILAR_HIGH: `def f(x): return None`
resembles every other one-liner by its skeleton alone."""
_MASK = "__renamed_symbol__"
_NO_BLOB = "0" * 40
_CALLABLES = frozenset({"function", "method"})
_DEFINED = re.compile(
    rb"\b(?:def|class|func|function|fn|struct|interface|type|enum|trait)\s+([\w$]+)"
    rb"|\bfunc\s*\([^)]*\)\s*([\w$]+)"
)
"""A definition of a name, in the languages that spell one with a keyword."""


@dataclass(frozen=True, slots=True)
class Rename:
    """Where a renamed (or moved) symbol is now, and the commit that renamed it."""

    old_id: str
    """The symbol part of the node ID it had (`Qual.Name`)."""
    file: FileNow
    """The file that holds it now."""
    symbol: Symbol
    """The symbol now."""
    since: Since
    """The first commit that renamed it (moved only: the first that moved it)."""
    renamed: bool
    """True when its name changed on the way (False: moved under its own name)."""


@dataclass(frozen=True, slots=True)
class _Step:
    new_id: str
    path: str
    """The path of the file holding it, at the commit that moved it."""
    renamed: bool


class _Spent(Exception):
    """The check's work for history is spent; the message says which bound."""


def simple(symbol: str) -> str:
    """A symbol ID's own name (`issue` for `TokenStore.issue~2`)."""
    return symbol.rpartition(".")[2].partition("~")[0]


class Renames:
    """The renames one check run traced, over one walk of history, within its work bounds."""

    def __init__(self, ws: Workspace, commits: Iterable[str] = ()) -> None:
        """`commits`: the run's anchor commits, so that one walk serves them all."""
        self.ws = ws
        self._starts = sorted(set(commits))
        self._walks: list[Walk] = []
        self._defined: dict[str, Counter[bytes]] = {}
        self._words: dict[tuple[str, bytes], int] = {}
        self._parsed: set[tuple[str, str]] = set()
        self._traced: dict[tuple[str, str, str], Rename | None] = {}
        self._short: dict[tuple[str, str, str], str] = {}
        self.versions_read = 0
        """Old file versions read so far (bounded by HISTORY_VERSIONS)."""

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
        and moves since then (None: nowhere history shows, or the search was cut short)."""
        key = (commit, path, symbol)
        if key not in self._traced:
            self._traced[key] = None
            if self._askable(commit, symbol):
                try:
                    self._traced[key] = self._trace(commit, path, symbol, MAX_HOPS)
                except _Spent as spent:
                    self._short[key] = str(spent)
        return self._traced[key]

    def file_now(self, commit: str | None, path: str) -> str | None:
        """Where the file at `path` in `commit` is now by the renames of the commits in
        between (None: deleted, or history cannot tell)."""
        if commit is None or self.unavailable(commit) is not None:
            return None
        try:
            return self._walk(commit).path_now(commit, path)
        except _Spent:
            return None

    def cut_short(self, commit: str, path: str, symbol: str) -> str | None:
        """Why the trace of that symbol stopped before the end of history (None: it did not)."""
        return self._short.get((commit, path, symbol))

    def _askable(self, commit: str, symbol: str) -> bool:
        name = simple(symbol)
        return not self.unavailable(commit) and re.fullmatch(r"[\w$]+", name) is not None

    def _walk(self, commit: str) -> Walk:
        """The walk that covers `commit`..HEAD: the run's first one covers every anchor
        commit git knows."""
        for walk in self._walks:
            if walk.covers(commit):
                return walk
        git = self.ws.git
        assert git is not None  # `_askable` said history is there
        known = [c for c in self._starts if self.ws.changes(c) is not None]
        base = (walk_base(git, [*known, commit]) if not self._walks else None) or commit
        walk = Walk(git, base, self.ws.worktree)
        self._walks.append(walk)
        if not walk.covers(commit):
            raise _Spent(f"its history is longer than the {WALK_LIMIT:,} commits a check walks")
        return walk

    def _trace(self, commit: str, path: str, symbol: str, hops: int) -> Rename | None:
        walk = self._walk(commit)
        name = simple(symbol).encode()
        start = self.ws.history.file_at(commit, path)
        keyword = start is not None and bool(self._definitions_in(start.data)[name])
        for each, step in walk.touches(commit, path):
            if keyword and not self._definitions(step.old_blob)[name]:
                continue  # not defined before it (a side branch, or gone already)
            if not self._fewer(step, name, keyword):
                continue
            found = self._moved_in(each, step, symbol)
            if found is None:
                continue
            since = Since(each.sha, each.subject)
            # a file a side branch deleted may be there still: its merge kept it
            where = walk.path_now(each.sha, found.path) or found.path
            file = self.ws.readable(where)
            now = self.ws.index(file).by_id.get(found.new_id) if file else None
            if file is not None and now is not None:
                return Rename(symbol, file, now, since, found.renamed)
            later = self._trace(each.sha, found.path, found.new_id, hops - 1) if hops > 1 else None
            if later is None:
                return None
            first = since if found.renamed or not later.renamed else later.since
            return Rename(symbol, later.file, later.symbol, first, found.renamed or later.renamed)
        return None

    def _fewer(self, step: FileStep, name: bytes, keyword: bool) -> bool:
        """True when the file defines `name` fewer times after the step than before (with a
        keyword: `def`, `class`, `func`, ...; a rename may keep the old name in a
        deprecation shim), or, for a name no keyword defines, has it fewer times as a word."""
        if keyword:
            return self._definitions(step.new_blob)[name] < self._definitions(step.old_blob)[name]
        return self._word_count(step.new_blob, name) < self._word_count(step.old_blob, name)

    def _definitions(self, blob: str) -> Counter[bytes]:
        """The names a file version defines with a keyword, counted once per blob."""
        if blob not in self._defined:
            self._defined[blob] = self._definitions_in(self._read(blob))
        return self._defined[blob]

    @staticmethod
    def _definitions_in(data: bytes) -> Counter[bytes]:
        return Counter(a or b for a, b in _DEFINED.findall(data))

    def _word_count(self, blob: str, name: bytes) -> int:
        if (blob, name) not in self._words:
            word = re.compile(rb"(?<![\w$])" + re.escape(name) + rb"(?![\w$])")
            self._words[(blob, name)] = len(word.findall(self._read(blob)))
        return self._words[(blob, name)]

    def _read(self, blob: str) -> bytes:
        if blob == _NO_BLOB:
            return b""
        if self.versions_read >= HISTORY_VERSIONS:
            raise _Spent(f"the check read the {HISTORY_VERSIONS:,} old file versions it may")
        self.versions_read += 1
        return self.ws.history.blob(blob) or b""

    def _index(self, file: FileNow) -> SymbolIndex:
        """An old file version's symbols, within the check's bound on parses."""
        key = (file.path, file.hash)
        if key not in self._parsed:
            if len(self._parsed) >= HISTORY_PARSES:
                raise _Spent(f"the check parsed the {HISTORY_PARSES:,} old file versions it may")
            self._parsed.add(key)
        return self.ws.index(file)

    def _moved_in(self, each: WalkCommit, step: FileStep, symbol: str) -> _Step | None:
        """Where the commit `each` put the symbol `symbol` its step took out of the file."""
        history, sha = self.ws.history, each.sha
        if step.old_path is None or language_for(step.old_path) is None:
            return None
        before = history.file_at(f"{sha}^", step.old_path)
        was = self._index(before).by_id.get(symbol) if before is not None else None
        if before is None or was is None:
            return None
        after = history.file_at(sha, step.new_path) if step.new_path else None
        if after is not None and symbol in self._index(after).by_id:
            return None  # still there: the commit removed another definition of the name
        return self._likeliest(each, before, was, step.new_path or step.old_path)

    def _likeliest(self, each: WalkCommit, before: FileNow, was: Symbol, own: str) -> _Step | None:
        """The one symbol commit `each` added that is `was`, under another name or
        elsewhere. Its own file is searched first: a candidate there in the same
        container outranks any other, so the other files are parsed only without one."""
        old_tokens = _masked(symbol_text(before, was), was.name)
        old_members = _members(self.ws, before, was)
        pairs = {s.new_path: s.old_path for s in each.files if s.new_path is not None}
        order = sorted(pairs, key=lambda path: path != own)
        scored: list[tuple[bool, bool, float, str, str]] = []
        for new_path in order:
            if new_path != own and any(close for close, *_ in scored):
                break
            scored.extend(self._candidates(each.sha, new_path, pairs[new_path], own, was,
                                           old_tokens, old_members))  # fmt: skip
        if not scored:
            return None
        scored.sort(reverse=True)  # the same file and container first, then the same name
        best, second = scored[0], scored[1] if len(scored) > 1 else None
        if second is not None and second[:2] == best[:2] and best[2] - second[2] < TIE_MARGIN:
            return None
        return _Step(best[3], best[4], renamed=not best[1])

    def _candidates(
        self,
        sha: str,
        new_path: str,
        old_path: str | None,
        own: str,
        was: Symbol,
        old_tokens: list[str],
        old_members: frozenset[str],
    ) -> list[tuple[bool, bool, float, str, str]]:
        """The symbols like `was` the commit added in one file: (same file and container,
        same name, score, new ID, path)."""
        history = self.ws.history
        if language_for(new_path) is None:
            return []
        file = history.file_at(sha, new_path)
        prior = history.file_at(f"{sha}^", old_path) if old_path else None
        if file is None:
            return []
        had = self._index(prior).by_id if prior is not None else {}
        found = []
        for candidate in self._index(file).symbols:
            new_id = symbol_id(candidate)
            if _family(candidate.kind) != _family(was.kind) or new_id in had:
                continue
            close = new_path == own and candidate.container == was.container
            score = similarity(old_tokens, _masked(symbol_text(file, candidate), candidate.name))
            if old_members:
                score = max(score, _overlap(old_members, _members(self.ws, file, candidate)))
            least = SIMILAR_LOW if close else OTHER_CONTAINER_MIN
            if len(old_tokens) < TINY_TOKENS and candidate.name != was.name:
                least = SIMILAR_HIGH  # a one-liner is like many another by its skeleton
            if score >= least:
                found.append((close, candidate.name == was.name, score, new_id, new_path))
        return found


def _family(kind: str) -> str:
    """Kinds a rename may turn into each other: a function that became a method is one."""
    return "callable" if kind in _CALLABLES else kind


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
