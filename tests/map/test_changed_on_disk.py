"""CodeMap.changed_on_disk: stat first, content hash decides."""

from __future__ import annotations

import os
from pathlib import Path

from map.live.codemap import CodeMap


def test_changes_are_seen_by_content_not_by_stat(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("def f():\n    return 1\n")
    (tmp_path / "b.py").write_text("def g():\n    return 2\n")
    code_map = CodeMap.open(tmp_path)
    assert not code_map.changed_on_disk("a.py")

    (tmp_path / "b.py").touch()  # stamp moved, content did not
    assert not code_map.changed_on_disk("b.py")

    st = (tmp_path / "a.py").stat()
    (tmp_path / "a.py").write_text("def f():\n    return 9\n")  # same size, mtime restored
    os.utime(tmp_path / "a.py", ns=(st.st_atime_ns, st.st_mtime_ns))
    assert code_map.changed_on_disk("a.py")

    (tmp_path / "b.py").unlink()
    (tmp_path / "c.py").write_text("x = 1\n")
    assert code_map.changed_on_disk("b.py") and code_map.changed_on_disk("c.py")
    assert not code_map.changed_on_disk("never.py")


def test_changed_files_lists_the_held_files_that_differ_by_content(tmp_path: Path) -> None:
    for name in ("a", "b", "c", "d"):
        (tmp_path / f"{name}.py").write_text(f"def {name}():\n    return 1\n")
    code_map = CodeMap.open(tmp_path)
    (tmp_path / "a.py").touch()  # stamp moved, content did not
    (tmp_path / "b.py").write_text("def b():\n    return 2\n")
    (tmp_path / "c.py").unlink()
    (tmp_path / "d.py").unlink()
    (tmp_path / "d.py").mkdir()  # no longer a file
    (tmp_path / "new.py").write_text("x = 1\n")  # not held: a rebuild's business
    assert code_map.changed_files() == ["b.py", "c.py", "d.py"]
