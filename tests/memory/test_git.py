"""Changes since many anchor commits, composed from committed trees and the working tree."""

from __future__ import annotations

from memory.git import Change, FileChangeKind, GitRepo, compose
from memory.workspace import Workspace
from tests.memory.conftest import Repo


def test_compose_follows_renames_through_both_steps() -> None:
    earlier = {
        "a.py": Change("renamed", new_path="b.py", similarity=100),
        "b.py": Change("added"),
        "c.py": Change("modified"),
        "d.py": Change("deleted"),
    }
    later = {
        "b.py": Change("renamed", new_path="e.py", similarity=90),
        "e.py": Change("added"),
        "c.py": Change("deleted"),
        "f.py": Change("modified"),
    }
    assert compose(earlier, later) == {
        "a.py": Change("renamed", new_path="e.py", similarity=90),
        "c.py": Change("deleted"),
        "d.py": Change("deleted"),
        "e.py": Change("added"),
        "f.py": Change("modified"),
    }


def test_changes_since_each_commit_match_a_direct_diff(repo: Repo) -> None:
    repo.write("a.py", "A = 1\n" + "X = 0\n" * 20)
    repo.write("b.py", "B = 1\n")
    repo.write("c.py", "C = 1\n" * 20)
    repo.commit("one")
    first = repo.git("rev-parse", "HEAD").strip()
    repo.git("mv", "a.py", "moved_a.py")
    repo.write("b.py", "B = 2\n")
    repo.commit("two")
    second = repo.git("rev-parse", "HEAD").strip()
    repo.git("mv", "c.py", "moved_c.py")
    repo.write("moved_a.py", "A = 2\n" + "X = 0\n" * 20)
    ws = Workspace(repo.root)
    ws.prefetch([first, second, "0" * 40])
    assert ws.changes("0" * 40) is None
    for commit in (first, second):
        composed = ws.changes(commit)
        assert composed is not None
        assert _shape(composed) == _shape(_direct(repo, commit))
    assert ws.changes(first) == {
        "a.py": Change("renamed", new_path="moved_a.py", similarity=100),
        "moved_a.py": Change("added"),
        "b.py": Change("modified"),
        "c.py": Change("renamed", new_path="moved_c.py", similarity=100),
        "moved_c.py": Change("added"),
    }
    assert GitRepo(repo.root).known_commits([first, "0" * 40]) == {first}


def _shape(changes: dict[str, Change]) -> dict[str, tuple[str, str | None]]:
    """Changes without git's similarity scores (they differ by path taken)."""
    return {path: (c.kind, c.new_path) for path, c in changes.items()}


def _direct(repo: Repo, commit: str) -> dict[str, Change]:
    """What one `git diff COMMIT` (commit to working tree) says, as Changes."""
    changes: dict[str, Change] = {}
    for line in repo.git("diff", "--name-status", "-M", commit).splitlines():
        status, *paths = line.split("\t")
        if status.startswith("R"):
            changes[paths[0]] = Change("renamed", new_path=paths[1], similarity=int(status[1:]))
            changes[paths[1]] = Change("added")
        else:
            kinds: dict[str, FileChangeKind] = {"D": "deleted", "A": "added"}
            changes[paths[0]] = Change(kinds.get(status, "modified"))
    return changes


def test_ancestry_of_many_commits_in_one_walk(repo: Repo) -> None:
    commits = []
    for number in range(4):
        repo.write("a.py", f"A = {number}\n")
        repo.commit(f"c{number}")
        commits.append(repo.git("rev-parse", "HEAD").strip())
    repo.git("checkout", "-q", "-b", "side", commits[1])
    repo.write("b.py", "B = 1\n")
    repo.commit("side work")
    side = repo.git("rev-parse", "HEAD").strip()
    repo.git("checkout", "-q", "main")
    found = GitRepo(repo.root).ancestors_of([*commits, side], commits[-1])
    assert found == set(commits)
    ws = Workspace(repo.root)
    ws.prefetch([commits[0], side])
    assert ws.merge_base(commits[0]) == commits[0]
    assert ws.merge_base(side) == commits[1]
