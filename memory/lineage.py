"""One walk of git history per check: the commits since the anchor commits, and a file's path chain.

`git log --raw -M` from the anchor commits' best common ancestor to HEAD, in
one git process, gives every commit (parents before children) with the files
it changed, their blob IDs and git's renames. Everything else is read from it:

    after(C)         the commits in C..HEAD (those the walk has that C does
                     not reach; for a commit HEAD does not contain, from its
                     merge base with HEAD)
    touches(C, P)    the commits after C that changed the file at P, following
                     its renames (a file moved after a symbol's rename, or
                     before it, is one chain)
    path_now(C, P)   where that file is now: the chain's end, then the
                     working tree's own renames (None: deleted)

The walk holds at most WALK_LIMIT commits; a longer history is cut at its
oldest end, and `truncated` says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from memory.git import Change, FileStep, GitError, GitRepo, WalkCommit

WALK_LIMIT = 20_000
"""Commits one walk holds (git's own cost: about 0.25 s per 1,000 on click)."""


class Walk:
    """The commits from a base commit to HEAD, indexed for the questions above."""

    def __init__(
        self, git: GitRepo, base: str, worktree: Mapping[str, Change], *, limit: int = WALK_LIMIT
    ) -> None:
        self.git = git
        self.base = base
        self.worktree = worktree
        try:
            self.commits, self.truncated = git.walk(base, limit=limit)
        except GitError:
            self.commits, self.truncated = [], True
        self._at = {c.sha: i for i, c in enumerate(self.commits)}
        self._after: dict[str, list[WalkCommit]] = {}
        self._bases: dict[str, str | None] = {}
        self._touches: dict[tuple[str, str], list[tuple[WalkCommit, FileStep]]] = {}

    def covers(self, commit: str) -> bool:
        """True when the walk holds every commit in `commit`..HEAD."""
        start = self._start(commit)
        return start is not None and not (self.truncated and start == self.base)

    def subject(self, sha: str) -> str:
        """The first line of the message of a commit in the walk."""
        return self.commits[self._at[sha]].subject

    def after(self, commit: str) -> list[WalkCommit]:
        """The commits in `commit`..HEAD, parents before children."""
        start = self._start(commit)
        if start is None:
            return []
        if start not in self._after:
            if start == self.base:
                self._after[start] = self.commits
            else:
                reached = self._ancestors(start)
                self._after[start] = [c for c in self.commits if c.sha not in reached]
        return self._after[start]

    def touches(self, commit: str, path: str) -> list[tuple[WalkCommit, FileStep]]:
        """The commits after `commit` that changed the file at `path` then, oldest first,
        with what each did to it (its path followed through git's renames)."""
        key = (commit, path)
        if key not in self._touches:
            paths = {path}
            found = []
            for each in self.after(commit):
                for step in each.files:
                    if step.old_path in paths:
                        found.append((each, step))
                        if step.new_path is not None:
                            paths.add(step.new_path)
            self._touches[key] = found
        return self._touches[key]

    def path_now(self, commit: str, path: str) -> str | None:
        """Where the file at `path` in `commit` is now (None: deleted since)."""
        now: str | None = path
        for each in self.after(commit):
            for step in each.files:
                if now is not None and step.old_path == now:
                    now = step.new_path
                    break
        if now is None:
            return None
        change = self.worktree.get(now)
        if change is None or change.kind in ("modified", "added"):
            return now
        return change.new_path if change.kind == "renamed" else None

    def _start(self, commit: str) -> str | None:
        """`commit` when the walk has it (or it is the base), else its merge base with HEAD
        when the walk has that; None when the walk cannot answer for it."""
        if commit == self.base or commit in self._at:
            return commit
        if commit not in self._bases:
            base = self.git.merge_base(commit, "HEAD")
            self._bases[commit] = base if base == self.base or base in self._at else None
        return self._bases[commit]

    def _ancestors(self, start: str) -> set[str]:
        """The walk's commits `start` reaches (itself included)."""
        seen = {start}
        todo = [start]
        while todo:
            for parent in self.commits[self._at[todo.pop()]].parents:
                if parent in self._at and parent not in seen:
                    seen.add(parent)
                    todo.append(parent)
        return seen


def walk_base(git: GitRepo, commits: Sequence[str]) -> str | None:
    """The commit a walk for all of `commits` starts from: their best common ancestor."""
    if len(commits) == 1:
        return commits[0]
    return git.octopus_base(commits)
