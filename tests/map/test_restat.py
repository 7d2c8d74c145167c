"""A whole rebuild after the first takes the last listing as it stands while no
directory moved, and stats each file against its recorded stamp (map.intake.walk.moved_since):
every kind of edit must still be seen, and the map must equal a fresh one."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from map.intake.walk import moved_since
from map.live.codemap import CodeMap
from tests.map.graph_state import age, copy_repo, fresh, graph_state


@pytest.fixture
def settled(tmp_path: Path) -> tuple[Path, CodeMap]:
    """The fixture repo with settled directories and its map, rebuilt once (so the
    next rebuild has a listing to take as it stands)."""
    root = copy_repo(tmp_path)
    (root / "pkg" / ".gitignore").write_text("generated_*.py\n")
    codemap = CodeMap.open(root)
    age(root)  # its store's directory is new
    codemap.rebuild()
    return root, codemap


def _moved(codemap: CodeMap) -> list[str] | None:
    """What the shortcut finds (None: it lists the tree again)."""
    last = codemap._last_scan
    assert last is not None and last.listing is not None
    return moved_since(codemap.root, last.listing, codemap._stamps, codemap._skipped_files)


def test_nothing_moved_takes_the_listing_as_it_stands(settled: tuple[Path, CodeMap]) -> None:
    _, codemap = settled
    assert _moved(codemap) == []
    assert codemap.rebuild().files_changed == []


def test_an_edit_that_keeps_size_and_mtime_is_seen(
    settled: tuple[Path, CodeMap], tmp_path: Path
) -> None:
    root, codemap = settled
    path = root / "pkg" / "util.py"
    before = os.stat(path)
    text = path.read_text()
    path.write_text(text.replace("boot", "bolt"))  # same size, same directory entry
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # as `cp -p` would
    assert os.stat(path).st_size == before.st_size
    assert _moved(codemap) == ["pkg/util.py"]
    assert codemap.rebuild().files_changed == ["pkg/util.py"]
    assert "pkg/util.py#bolt" in codemap.graph
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))


def test_files_added_and_removed_are_seen(settled: tuple[Path, CodeMap], tmp_path: Path) -> None:
    root, codemap = settled
    (root / "pkg" / "extra.py").write_text("from pkg.core import helper\n\nhelper()\n")
    (root / "web" / "shapes.ts").unlink()
    assert _moved(codemap) is None  # their directories moved: listed again
    report = codemap.rebuild()
    assert report.files_added == ["pkg/extra.py"]
    assert report.files_removed == ["web/shapes.ts"]
    assert graph_state(codemap) == graph_state(fresh(root, tmp_path))


def test_a_directory_whose_mtime_is_put_back_is_read_again(
    settled: tuple[Path, CodeMap],
) -> None:
    root, codemap = settled
    folder = root / "pkg"
    before = os.stat(folder)
    (folder / "late.py").write_text("def late():\n    return 1\n")
    os.utime(folder, ns=(before.st_atime_ns, before.st_mtime_ns))  # its ctime still moves
    assert codemap.rebuild().files_added == ["pkg/late.py"]


def test_a_gitignore_edited_in_place_is_seen(settled: tuple[Path, CodeMap]) -> None:
    root, codemap = settled
    (root / "pkg" / "generated_x.py").write_text("x = 1\n")
    age(root)
    assert codemap.rebuild().files_added == []  # ignored
    ignore = root / "pkg" / ".gitignore"
    before = os.stat(root / "pkg")
    ignore.write_text("util.py\n")  # in place: the directory's stamp does not move
    assert os.stat(root / "pkg").st_ctime_ns == before.st_ctime_ns
    report = codemap.rebuild()
    assert report.files_added == ["pkg/generated_x.py"]
    assert report.files_removed == ["pkg/util.py"]


def test_a_touched_file_is_stored_with_its_new_stamp(settled: tuple[Path, CodeMap]) -> None:
    root, codemap = settled
    path = root / "pkg" / "core.py"
    later = os.stat(path).st_mtime_ns + 10**9
    os.utime(path, ns=(later, later))  # content as it was
    report = codemap.rebuild()
    assert (report.files_changed, report.restamped) == ([], 1)
    codemap.save()
    reopened = CodeMap.open(root, refresh=False)
    assert reopened.rebuild().restamped == 0  # the store had the new stamp: nothing re-hashed
