"""Git plumbing for anchoring and checking, through the `git` command.

Paths in and out are relative to the workspace root (which may be a
subdirectory of the repository), POSIX form. A root outside any repository,
or a machine without git, gives `GitRepo.discover(root) is None`: the check
then runs on hashes alone.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

ChangeKind = Literal["modified", "deleted", "renamed", "added"]
GIT_TIMEOUT_S = 60


class GitError(Exception):
    """A git command failed; the message carries git's own words."""


@dataclass(frozen=True, slots=True)
class Change:
    """How one path changed between a commit and the working tree."""

    kind: ChangeKind
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

    def run(self, *args: str) -> str:
        """Run one git command in the root; raises GitError when it fails."""
        return _run(self.root, *args)

    def head(self) -> str | None:
        """The commit checked out, or None before the first commit."""
        try:
            return self.run("rev-parse", "--verify", "-q", "HEAD^{commit}").strip() or None
        except GitError:
            return None

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

    def changes_since(self, commit: str) -> dict[str, Change]:
        """Paths changed between `commit` and the working tree, renames detected.

        Keys are the paths as they were at `commit` (for additions, the new
        path). Raises GitError when the commit is unknown here.
        """
        out = self.run(
            "diff", "--relative", "--name-status", "-z", "-M", "--no-ext-diff", commit, "--"
        )
        fields = out.split("\0")
        changes: dict[str, Change] = {}
        index = 0
        while index < len(fields) and fields[index]:
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
        return changes

    def merge_base(self, commit: str, other: str) -> str | None:
        """The best common ancestor of two commits, or None when there is none."""
        try:
            return self.run("merge-base", commit, other).strip() or None
        except GitError:
            return None


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
        stdin.write(f"{commit}:./{path}\n".encode())
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


def _run(root: Path, *args: str) -> str:
    try:
        done = subprocess.run(
            ["git", "-c", "core.quotepath=off", *args],
            cwd=root,
            capture_output=True,
            timeout=GIT_TIMEOUT_S,
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
