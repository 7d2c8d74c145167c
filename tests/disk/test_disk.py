"""Path confinement, stamps, safe reading, UTF-16 columns and the lazy front door."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from disk.columns import byte_to_utf16, from_utf16, to_utf16, utf16_length
from disk.errors import (
    BinaryFileError,
    FileTooLargeError,
    MissingFileError,
    OutsideRootError,
    UndecodableFileError,
)
from disk.front_door import lazy_getattr
from disk.paths import relative_posix, resolve_in_root
from disk.stamps import FileStamp, content_hash
from disk.text import read_source


def test_paths_inside_the_root_resolve(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/a.py").write_text("x = 1\n")
    found = resolve_in_root(tmp_path, "pkg/a.py")
    assert relative_posix(tmp_path, found) == "pkg/a.py"
    assert resolve_in_root(tmp_path, found) == found


def test_escapes_are_refused(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (tmp_path / "secret.py").write_text("x = 1\n")
    (root / "link.py").symlink_to(tmp_path / "secret.py")
    with pytest.raises(OutsideRootError, match=r"outside the workspace root .*\(it is elsewhere"):
        resolve_in_root(root, "../secret.py")
    with pytest.raises(OutsideRootError, match="symlink"):
        resolve_in_root(root, "link.py")
    with pytest.raises(OutsideRootError):
        resolve_in_root(root, str(tmp_path / "secret.py"))
    with pytest.raises(MissingFileError):
        resolve_in_root(root, "nothing.py")


def test_stamp_moves_when_mtime_is_restored(tmp_path: Path) -> None:
    path = tmp_path / "a.py"
    path.write_text("x = 1\n")
    before = FileStamp.of(path)
    st = path.stat()
    path.write_text("x = 2\n")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    after = FileStamp.of(path)
    assert before is not None and after is not None
    assert after.mtime_ns == before.mtime_ns and after != before
    assert FileStamp.of(tmp_path / "gone.py") is None and FileStamp.of(tmp_path) is None
    assert content_hash(b"a") != content_hash(b"b")


def test_read_source_refuses_what_is_not_source(tmp_path: Path) -> None:
    (tmp_path / "bin.dat").write_bytes(b"\x00\x01\x02")
    (tmp_path / "latin.py").write_bytes("caf\xe9 = 1\n".encode("latin-1"))
    (tmp_path / "big.py").write_text("x" * 100)
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbfx = 1\n")
    with pytest.raises(BinaryFileError):
        read_source(tmp_path / "bin.dat")
    with pytest.raises(UndecodableFileError, match="not valid UTF-8"):
        read_source(tmp_path / "latin.py")
    with pytest.raises(FileTooLargeError):
        read_source(tmp_path / "big.py", max_bytes=10)
    with pytest.raises(MissingFileError):
        read_source(tmp_path / "none.py")
    assert read_source(tmp_path / "bom.py") == "x = 1\n"


def test_utf16_columns() -> None:
    line = "a😀b"
    assert utf16_length(line) == 4
    assert to_utf16(line, 2) == 3 and from_utf16(line, 3) == 2
    assert from_utf16(line, 99) == 3
    assert byte_to_utf16(line.encode(), len("a😀".encode())) == 3


def test_front_door_loads_a_name_on_first_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "door_home.py").write_text("ANSWER = 42\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    getattr_ = lazy_getattr("door", {"door_home": ("ANSWER",)})
    assert "door_home" not in sys.modules
    assert getattr_("ANSWER") == 42
    assert "door_home" in sys.modules
    monkeypatch.delitem(sys.modules, "door_home")
    with pytest.raises(AttributeError, match="module 'door' has no attribute 'QUESTION'"):
        getattr_("QUESTION")
