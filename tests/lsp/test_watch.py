"""The workspace index: which files came, changed or went since the last look.

Every behaviour holds both with the inotify queue and with full scans.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from lsprotocol.types import FileChangeType

from disk.stamps import FileStamp
from lsp import watch
from lsp.watch import WorkspaceIndex

Changes = set[tuple[str, FileChangeType]]


@pytest.fixture(params=[True, False], ids=["inotify", "scan"])
def make_index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[type[WorkspaceIndex]]:
    made: list[WorkspaceIndex] = []

    def make(root: Path, extensions: tuple[str, ...]) -> WorkspaceIndex:
        index = WorkspaceIndex(root, extensions, use_inotify=request.param)
        made.append(index)
        if request.param and sys.platform.startswith("linux"):
            assert index.watching
        return index

    yield make  # type: ignore[misc]
    for index in made:
        index.close()


def _changes(index: WorkspaceIndex, root: Path) -> Changes:
    return {(c.path.relative_to(root).as_posix(), c.kind) for c in index.changes()}


def test_created_changed_and_deleted_files_are_reported_once(
    tmp_path: Path, make_index: type[WorkspaceIndex]
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/a.py").write_text("a = 1\n", encoding="utf-8")
    (tmp_path / "pkg/b.py").write_text("b = 1\n", encoding="utf-8")
    index = make_index(tmp_path, (".py",))
    assert len(index) == 2
    assert _changes(index, tmp_path) == set()
    (tmp_path / "pkg/a.py").write_text("a = 22\n", encoding="utf-8")
    (tmp_path / "pkg/b.py").unlink()
    (tmp_path / "pkg/c.py").write_text("c = 1\n", encoding="utf-8")
    assert _changes(index, tmp_path) == {
        ("pkg/a.py", FileChangeType.Changed),
        ("pkg/b.py", FileChangeType.Deleted),
        ("pkg/c.py", FileChangeType.Created),
    }
    assert _changes(index, tmp_path) == set()


def test_folders_that_come_and_go_bring_and_take_their_files(
    tmp_path: Path, make_index: type[WorkspaceIndex]
) -> None:
    (tmp_path / "old").mkdir()
    (tmp_path / "old/a.py").write_text("a = 1\n", encoding="utf-8")
    index = make_index(tmp_path, (".py",))
    (tmp_path / "new/deep").mkdir(parents=True)
    (tmp_path / "new/deep/b.py").write_text("b = 1\n", encoding="utf-8")
    shutil.rmtree(tmp_path / "old")
    assert _changes(index, tmp_path) == {
        ("new/deep/b.py", FileChangeType.Created),
        ("old/a.py", FileChangeType.Deleted),
    }
    (tmp_path / "new/deep/b.py").write_text("b = 2\n", encoding="utf-8")
    (tmp_path / "new").rename(tmp_path / "renamed")
    assert _changes(index, tmp_path) == {
        ("new/deep/b.py", FileChangeType.Deleted),
        ("renamed/deep/b.py", FileChangeType.Created),
    }
    (tmp_path / "renamed/deep/c.py").write_text("c = 1\n", encoding="utf-8")
    assert _changes(index, tmp_path) == {("renamed/deep/c.py", FileChangeType.Created)}


def test_an_edit_that_restores_size_and_mtime_is_a_change(
    tmp_path: Path, make_index: type[WorkspaceIndex]
) -> None:
    path = tmp_path / "a.py"
    path.write_text("a = 1\n", encoding="utf-8")
    index = make_index(tmp_path, (".py",))
    old = path.stat()
    path.write_text("a = 2\n", encoding="utf-8")
    os.utime(path, ns=(old.st_atime_ns, old.st_mtime_ns))
    [change] = index.changes()
    assert (change.path, change.kind, change.mtime_kept) == (path, FileChangeType.Changed, True)
    path.write_text("a = 33\n", encoding="utf-8")
    assert [c.mtime_kept for c in index.changes()] == [False]


def test_other_extensions_hidden_and_vendored_folders_are_skipped(
    tmp_path: Path, make_index: type[WorkspaceIndex]
) -> None:
    (tmp_path / "pkg").mkdir()
    index = make_index(tmp_path, (".py", ".pyi"))
    for name in (
        "notes.txt",
        ".git/hook.py",
        ".venv/lib/site.py",
        "node_modules/x/y.py",
        "pkg/__pycache__/m.py",
        "pkg/stub.PYI",
    ):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "linked").symlink_to(tmp_path / "pkg", target_is_directory=True)
    assert _changes(index, tmp_path) == {("pkg/stub.PYI", FileChangeType.Created)}


def test_a_write_within_one_clock_tick_is_caught_by_hashing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Coarse timestamps: two same-size writes in one tick keep the stat key."""
    path = tmp_path / "a.py"
    path.write_text("a = 1\n", encoding="utf-8")
    frozen = FileStamp.of(path)
    assert frozen is not None
    monkeypatch.setattr(watch, "_scan", lambda root, ext, see: iter([(str(path), frozen)]))
    index = WorkspaceIndex(tmp_path, (".py",), use_inotify=False)
    assert _changes(index, tmp_path) == set()
    path.write_text("a = 2\n", encoding="utf-8")
    assert _changes(index, tmp_path) == {("a.py", FileChangeType.Changed)}
    assert _changes(index, tmp_path) == set()
