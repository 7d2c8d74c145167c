"""Document sync against a recording sink: what a server is told, and when."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from lsprotocol import types

from disk.errors import MissingFileError
from disk.stamps import FileStamp
from lsp import documents
from lsp.documents import Documents


class Recorder:
    """A DocumentSink that keeps (event, file name, version, text) tuples."""

    def __init__(self) -> None:
        self.events: list[tuple[str, str, int | None, str | None]] = []

    def did_open(self, params: types.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        self.events.append(("open", _name(doc.uri), doc.version, doc.text))

    def did_change(self, params: types.DidChangeTextDocumentParams) -> None:
        [change] = params.content_changes
        assert isinstance(change, types.TextDocumentContentChangeWholeDocument)
        doc = params.text_document
        self.events.append(("change", _name(doc.uri), doc.version, change.text))

    def did_close(self, params: types.DidCloseTextDocumentParams) -> None:
        self.events.append(("close", _name(params.text_document.uri), None, None))

    def take(self) -> list[tuple[str, str, int | None, str | None]]:
        events, self.events = self.events, []
        return events


def _name(uri: str) -> str:
    return uri.rsplit("/", 1)[-1]


@pytest.fixture
def sink() -> Recorder:
    return Recorder()


def _docs(limit: int = 64) -> Documents:
    return Documents({".py": "python"}, limit)


def _opened(tmp_path: Path, sink: Recorder) -> tuple[Path, Documents]:
    """a.py ("x = 1\\n") opened by a fresh Documents; the sink starts empty."""
    path = tmp_path / "a.py"
    path.write_text("x = 1\n", encoding="utf-8")
    docs = _docs()
    docs.current(path, sink)
    sink.take()
    return path, docs


def test_first_query_opens_and_an_unchanged_file_sends_nothing(
    tmp_path: Path, sink: Recorder
) -> None:
    path = tmp_path / "a.py"
    path.write_text("x = 1\n", encoding="utf-8")
    docs = _docs()
    doc = docs.current(path, sink)
    assert (doc.language_id, doc.text) == ("python", "x = 1\n")
    assert sink.take() == [("open", "a.py", 1, "x = 1\n")]
    docs.current(path, sink)
    docs.refresh(sink)
    assert sink.take() == []


def test_a_touch_without_new_content_sends_nothing(tmp_path: Path, sink: Recorder) -> None:
    path, docs = _opened(tmp_path, sink)
    path.write_text("x = 1\n", encoding="utf-8")
    os.utime(path, ns=(1, 1))
    docs.refresh(sink)
    assert sink.take() == []


def test_new_content_is_a_full_text_change_with_the_next_version(
    tmp_path: Path, sink: Recorder
) -> None:
    path, docs = _opened(tmp_path, sink)
    for version, text in ((2, "x = 2\n"), (3, "x = 3\ny = 4\n")):
        path.write_text(text, encoding="utf-8")
        docs.refresh(sink)
        assert sink.take() == [("change", "a.py", version, text)]


def test_same_size_same_mtime_edit_is_still_a_change(tmp_path: Path, sink: Recorder) -> None:
    path, docs = _opened(tmp_path, sink)
    old = path.stat()
    path.write_text("x = 2\n", encoding="utf-8")
    os.utime(path, ns=(old.st_atime_ns, old.st_mtime_ns))
    assert docs.current(path, sink).text == "x = 2\n"
    assert sink.take() == [("change", "a.py", 2, "x = 2\n")]


def test_a_vanished_file_is_closed(tmp_path: Path, sink: Recorder) -> None:
    path, docs = _opened(tmp_path, sink)
    path.unlink()
    docs.refresh(sink)
    assert sink.take()[-1] == ("close", "a.py", None, None)
    assert path not in docs
    with pytest.raises(MissingFileError):
        docs.current(path, sink)


def test_a_file_that_turned_binary_is_closed(tmp_path: Path, sink: Recorder) -> None:
    path, docs = _opened(tmp_path, sink)
    path.write_bytes(b"\x00\x01\x02")
    docs.refresh(sink)
    assert sink.take()[-1] == ("close", "a.py", None, None)


def test_the_least_recently_queried_document_is_closed_first(
    tmp_path: Path, sink: Recorder
) -> None:
    paths = []
    for name in ("a", "b", "c"):
        path = tmp_path / f"{name}.py"
        path.write_text(f"{name} = 1\n", encoding="utf-8")
        paths.append(path)
    docs = _docs(limit=2)
    docs.current(paths[0], sink)
    docs.current(paths[1], sink)
    docs.current(paths[0], sink)  # a is now the most recent
    sink.take()
    docs.current(paths[2], sink)
    assert sink.take() == [("open", "c.py", 1, "c = 1\n"), ("close", "b.py", None, None)]
    assert len(docs) == 2


def test_an_overlaid_document_is_never_closed_to_make_room_until_refreshed(
    tmp_path: Path, sink: Recorder
) -> None:
    """A baseline sends a changed file's old text: closing it to make room would have
    the server read the disk in its place."""
    paths = []
    for name in ("a", "b", "c", "d"):
        path = tmp_path / f"{name}.py"
        path.write_text(f"{name} = 1\n", encoding="utf-8")
        paths.append(path)
    docs = _docs(limit=2)
    docs.current(paths[0], sink)
    docs.overlay(paths[0], "a = 0\n", sink)
    sink.take()
    docs.current(paths[1], sink)
    docs.current(paths[2], sink)
    assert sink.take() == [
        ("open", "b.py", 1, "b = 1\n"),
        ("open", "c.py", 1, "c = 1\n"),
        ("close", "b.py", None, None),
    ]
    docs.refresh(sink)
    sink.take()
    docs.current(paths[3], sink)
    assert ("close", "a.py", None, None) in sink.take()


def test_a_touch_for_a_server_that_needs_new_text_adds_a_blank_line_until_the_next_sync(
    tmp_path: Path, sink: Recorder
) -> None:
    path = tmp_path / "a.c"
    path.write_text("int x;\n", encoding="utf-8")
    docs = Documents({".c": "c"}, 64, touch_with_new_text=True)
    docs.current(path, sink)
    docs.touch(path, sink)
    docs.current(path, sink)
    assert sink.take() == [
        ("open", "a.c", 1, "int x;\n"),
        ("change", "a.c", 2, "int x;\n\n"),
        ("change", "a.c", 3, "int x;\n"),
    ]


def test_replay_opens_everything_again_from_the_disk(tmp_path: Path, sink: Recorder) -> None:
    a, b = tmp_path / "a.py", tmp_path / "b.py"
    a.write_text("a = 1\n", encoding="utf-8")
    b.write_text("b = 1\n", encoding="utf-8")
    docs = _docs()
    docs.current(a, sink)
    docs.current(b, sink)
    a.write_text("a = 2\n", encoding="utf-8")
    b.unlink()
    sink.take()
    docs.replay(sink)
    assert sink.take() == [("open", "a.py", 1, "a = 2\n")]
    assert len(docs) == 1


def test_a_write_within_one_clock_tick_is_caught_by_hashing(
    tmp_path: Path, sink: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Coarse timestamps: two same-size writes in one tick keep the stat key."""
    path = tmp_path / "a.py"
    path.write_text("x = 1\n", encoding="utf-8")
    frozen = FileStamp.of(path)
    monkeypatch.setattr(documents, "_stat", lambda p: (frozen, time.time_ns()))
    docs = _docs()
    docs.current(path, sink)
    sink.take()
    path.write_text("x = 2\n", encoding="utf-8")
    docs.refresh(sink)
    assert sink.take() == [("change", "a.py", 2, "x = 2\n")]


def test_a_deleted_file_is_blanked_then_closed(tmp_path: Path, sink: Recorder) -> None:
    """Open or not, a deleted file reaches the server as an empty document."""
    opened, docs = _opened(tmp_path, sink)
    never = tmp_path / "b.py"
    opened.unlink()
    for path in (opened, never):
        docs.close_blank(docs.blank(path, sink), sink)
    assert sink.take() == [
        ("change", "a.py", 2, ""),
        ("close", "a.py", None, None),
        ("open", "b.py", 1, ""),
        ("close", "b.py", None, None),
    ]
    assert opened not in docs
