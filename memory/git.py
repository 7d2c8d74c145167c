"""Git plumbing for anchoring and checking, through the `git` command.

Paths in and out are relative to the workspace root (which may be a
subdirectory of the repository), POSIX form. A root outside any repository,
or a machine without git, gives `GitRepo.discover(root) is None`: the check
then runs on hashes alone.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

FileChangeKind = Literal["modified", "deleted", "renamed", "added"]
GIT_TIMEOUT_S = 60


class GitError(Exception):
    """A git command failed; the message carries git's own words."""


@dataclass(frozen=True, slots=True)
class CommitStamp:
    """The commit a check ran at, and its committer time (seconds since the epoch)."""

    sha: str
    time: int


@dataclass(frozen=True, slots=True)
class Change:
    """How one path changed between a commit and the working tree."""

    kind: FileChangeKind
    new_path: str | None = None
    """For renames: where the file is now."""
    similarity: int | None = None
    """For renames: git's similarity score, 0-100."""


@dataclass(frozen=True, slots=True)
class GitRepo:
    """A git work tree seen from the workspace root."""

    root: Path

    @classmethod
    def discover(cls, root: Path) -> GitRepo | None:
        """The repository `root` is in, or None (no git, or not a repository)."""
        if shutil.which("git") is None:
            return None
        try:
            inside = _run(root, "rev-parse", "--is-inside-work-tree").strip()
        except GitError:
            return None
        return cls(root) if inside == "true" else None

    def run(self, *args: str, stdin: str | None = None, timeout: float = GIT_TIMEOUT_S) -> str:
        """Run one git command in the root; raises GitError when it fails or times out."""
        return _run(self.root, *args, stdin=stdin, timeout=timeout)

    def head(self) -> str | None:
        """The commit checked out, or None before the first commit."""
        try:
            return self.run("rev-parse", "--verify", "-q", "HEAD^{commit}").strip() or None
        except GitError:
            return None

    def stamp(self) -> CommitStamp | None:
        """HEAD and its committer time, or None before the first commit."""
        try:
            sha, time = self.run("log", "-1", "--format=%H %ct", "HEAD").split()
        except (GitError, ValueError):
            return None
        return CommitStamp(sha, int(time))

    def branch(self) -> str | None:
        """The current branch name, or None when HEAD is detached."""
        try:
            return self.run("symbolic-ref", "-q", "--short", "HEAD").strip() or None
        except GitError:
            return None

    def tracked(self) -> set[str]:
        """Every tracked path under the root."""
        return _split_z(self.run("ls-files", "-z"))

    def untracked(self) -> set[str]:
        """Untracked, not ignored paths under the root."""
        return _split_z(self.run("ls-files", "-z", "--others", "--exclude-standard"))

    def worktree_changes(self) -> dict[str, Change]:
        """Paths whose working-tree content differs from HEAD (staged renames detected)."""
        return self.changes("HEAD")

    def changes(self, start: str, end: str | None = None) -> dict[str, Change]:
        """Paths changed from commit `start` to `end` (None: the working tree), renames
        detected; untracked files are not included."""
        out = self.run(
            "diff", "--relative", "--name-status", "-z", "-M", "--no-ext-diff", start,
            *([end] if end else []),
        )  # fmt: skip
        found, _ = _parse_name_status(out.split("\0"), 0)
        return found

    def known_commits(self, commits: Sequence[str]) -> set[str]:
        """Those of `commits` this repository has, asked in one git process."""
        lines = "".join(f"{c}^{{commit}}\n" for c in commits)
        out = self.run("cat-file", "--batch-check=%(objectname)", stdin=lines)
        return {c for c, answer in zip(commits, out.splitlines(), strict=True) if answer == c}

    def tree_changes(self, commits: Sequence[str], head: str) -> dict[str, dict[str, Change]]:
        """For each commit, the paths changed from it to `head`, in one git process.

        Compares committed trees only (the working tree is `worktree_changes`).
        Every commit must be known (see `known_commits`).
        """
        if not commits:
            return {}
        # A stdin line "X Y" diffs Y -> X; --always prints X's header even for no change.
        lines = "".join(f"{head} {c}\n" for c in commits)
        out = self.run(
            "diff-tree",
            "--stdin",
            "--always",
            "-r",
            "-M",
            "--name-status",
            "-z",
            "--relative",
            stdin=lines,
        )
        fields = out.split("\0")
        found: dict[str, dict[str, Change]] = {}
        index = 0
        for commit in commits:
            if index >= len(fields) or fields[index] != head:
                raise GitError(f"git diff-tree: unexpected output for {commit}")
            found[commit], index = _parse_name_status(fields, index + 1, stop=head)
        return found

    def ancestors_of(self, commits: Sequence[str], head: str) -> set[str]:
        """Those of `commits` (full IDs) reachable from `head`.

        Walks history from `head` once and stops as soon as all are found, so
        anchors on the current branch cost only the history since the oldest.
        """
        wanted = set(commits)
        found: set[str] = set()
        if not wanted:
            return found
        with subprocess.Popen(
            ["git", "rev-list", head],
            cwd=self.root,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        ) as walk:
            if walk.stdout is not None:
                for line in walk.stdout:
                    commit = line.strip().decode()
                    if commit in wanted:
                        found.add(commit)
                        if found == wanted:
                            break
            walk.kill()
        return found

    def walk(self, since: str, *, limit: int) -> tuple[list[WalkCommit], bool]:
        """Every commit after `since` up to HEAD, parents before children, with the files
        each changed against its first parent (renames detected; none for merges), and
        True when there were more than `limit` (the oldest are then left out)."""
        out = self.run(
            "log", "--reverse", "--topo-order", "-M", "--raw", "--no-abbrev", "-z",
            "--relative", "--format=%x01%H%x00%P%x00%s", f"--max-count={limit + 1}",
            f"{since}..HEAD",
        )  # fmt: skip
        commits = [_walk_commit(block) for block in out.split("\1")[1:]]
        return commits[-limit:] if limit else [], len(commits) > limit

    def octopus_base(self, commits: Sequence[str]) -> str | None:
        """The best common ancestor of all `commits`, or None when there is none."""
        try:
            return self.run("merge-base", "--octopus", *commits).strip() or None
        except GitError:
            return None

    def merge_base(self, commit: str, other: str) -> str | None:
        """The best common ancestor of two commits, or None when there is none."""
        try:
            return self.run("merge-base", commit, other).strip() or None
        except GitError:
            return None


@dataclass(frozen=True, slots=True)
class FileStep:
    """One file a commit changed: its path and content (blob ID) before and after it."""

    old_path: str | None
    """None: added by the commit."""
    new_path: str | None
    """None: deleted by the commit."""
    old_blob: str
    new_blob: str


@dataclass(frozen=True, slots=True)
class WalkCommit:
    """A commit of a history walk, with the files it changed."""

    sha: str
    parents: tuple[str, ...]
    subject: str
    files: tuple[FileStep, ...]


def _walk_commit(block: str) -> WalkCommit:
    """One commit of `git log --raw -z --format=%x01%H%x00%P%x00%s` (the \\1 taken off)."""
    fields = block.split("\0")
    sha, parents, subject = fields[0], tuple(fields[1].split()), fields[2]
    files: list[FileStep] = []
    index = 3
    while index < len(fields) and fields[index].strip().startswith(":"):
        _, _, old_blob, new_blob, status = fields[index].strip()[1:].split()
        letter = status[0]
        if letter in "RC":
            old, new = fields[index + 1], fields[index + 2]
            index += 3
            files.append(FileStep(old if letter == "R" else None, new, old_blob, new_blob))
            continue
        path = fields[index + 1]
        index += 2
        files.append(
            FileStep(
                None if letter == "A" else path, None if letter == "D" else path, old_blob, new_blob
            )
        )
    return WalkCommit(sha, parents, subject, tuple(files))


class BlobReader:
    """Files as they were at a commit, from one `git cat-file --batch` process.

    Started on first use; `close` ends it (also on leaving a `with` block).
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> BlobReader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def read(self, commit: str, path: str) -> bytes | None:
        """The content of `path` (relative to the root) at `commit`, or None when absent."""
        if "\n" in path:
            return None
        return self.object(f"{commit}:./{path}")

    def object(self, name: str) -> bytes | None:
        """The content of the blob `name` (a blob ID, or `commit:./path`), or None."""
        if self._process is None:
            self._process = subprocess.Popen(
                ["git", "cat-file", "--batch"],
                cwd=self.root,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        stdin, stdout = self._process.stdin, self._process.stdout
        if stdin is None or stdout is None:
            return None
        stdin.write(f"{name}\n".encode())
        stdin.flush()
        header = stdout.readline().split()
        if len(header) != 3 or not header[2].isdigit():
            return None
        data = stdout.read(int(header[2]))
        stdout.read(1)
        return data if header[1] == b"blob" else None

    def close(self) -> None:
        """End the git process."""
        if self._process is not None:
            if self._process.stdin is not None:
                self._process.stdin.close()
            self._process.wait(timeout=GIT_TIMEOUT_S)
            if self._process.stdout is not None:
                self._process.stdout.close()
            self._process = None


def compose(earlier: Mapping[str, Change], later: Mapping[str, Change]) -> dict[str, Change]:
    """Changes A -> C from changes A -> B (`earlier`) and B -> C (`later`).

    Keys are paths at A, plus paths new since A (as `added`).
    """
    result: dict[str, Change] = {}
    for path, change in earlier.items():
        after = later.get(path)
        if change.kind == "renamed" and change.new_path:
            result[path] = _follow(change, later.get(change.new_path))
        elif change.kind == "deleted":
            result[path] = Change("modified") if after is not None else change
        elif change.kind == "added":
            if after is None or after.kind == "modified":
                result[path] = change
        else:
            result[path] = change if after is None or after.kind == "modified" else after
    for path, change in later.items():
        if path not in earlier:
            result[path] = change
        if change.kind == "renamed" and change.new_path:
            result.setdefault(change.new_path, Change("added"))
    return result


def _follow(rename: Change, after: Change | None) -> Change:
    if after is None or after.kind in ("modified", "added"):
        return rename
    if after.kind == "renamed":
        return Change("renamed", new_path=after.new_path, similarity=after.similarity)
    return after


def _parse_name_status(
    fields: list[str], index: int, *, stop: str | None = None
) -> tuple[dict[str, Change], int]:
    """Read `--name-status -z` entries from `index` until the end, an empty field or `stop`."""
    changes: dict[str, Change] = {}
    while index < len(fields) and fields[index] and fields[index] != stop:
        status = fields[index]
        letter = status[0]
        if letter in "RC":
            old, new = fields[index + 1], fields[index + 2]
            index += 3
            if letter == "R":
                changes[old] = Change("renamed", new_path=new, similarity=int(status[1:]))
            changes.setdefault(new, Change("added"))
            continue
        path = fields[index + 1]
        index += 2
        if letter == "D":
            changes[path] = Change("deleted")
        elif letter == "A":
            changes[path] = Change("added")
        else:
            changes[path] = Change("modified")
    return changes, index


def _run(root: Path, *args: str, stdin: str | None = None, timeout: float = GIT_TIMEOUT_S) -> str:
    try:
        done = subprocess.run(
            ["git", "-c", "core.quotepath=off", *args],
            cwd=root,
            input=stdin.encode() if stdin is not None else None,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise GitError(f"git {args[0]}: {exc}") from exc
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip()
        raise GitError(f"git {' '.join(args)}: {message or f'exit {done.returncode}'}")
    return done.stdout.decode("utf-8", "surrogateescape")


def _split_z(out: str) -> set[str]:
    return {p for p in out.split("\0") if p}
