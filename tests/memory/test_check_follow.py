"""Code that moved AND changed is followed; code that is gone is deleted; look-alikes are not it."""

from __future__ import annotations

from dataclasses import replace

from memory.check import check_anchor, check_memories
from memory.model import LiveCheck, RefSpec
from memory.workspace import Workspace
from tests.memory.conftest import Repo

PARSER = '''"""Parsing."""


def parse_header(line):
    name, _, value = line.partition(":")
    name = name.strip().lower()
    value = value.strip()
    return name, value


def keep(value):
    return value
'''

EDITED_HEADER = """def parse_header(line, *, strict=False):
    name, _, value = line.partition(":")
    name = name.strip().lower()
    if strict and not name:
        raise ValueError(line)
    value = value.strip()
    return name, value
"""

BLOCK = """def render(rows):
    out = []
    for row in rows:
        out.append(" | ".join(str(cell) for cell in row))
    return "\\n".join(out)
"""


def _without_header(text: str) -> str:
    start = text.index("def parse_header")
    return text[:start] + text[text.index("def keep") :]


def test_moved_to_another_file_and_edited_is_modified_at_its_new_place(repo: Repo) -> None:
    repo.write("pkg/parser.py", PARSER)
    repo.commit("start")
    memory = repo.remember("pkg/parser.py#parse_header", "pkg/parser.py:4-8")
    repo.write("pkg/parser.py", _without_header(PARSER))
    repo.write("pkg/headers.py", "import re\n\n\n" + EDITED_HEADER)
    repo.commit("move parse_header to headers.py, with a strict mode")
    symbol, lines = repo.check(memory).refs
    assert (symbol.status, symbol.reason) == ("modified", "moved_with_edits")
    assert symbol.place is not None
    assert (symbol.place.path, symbol.place.symbol) == ("pkg/headers.py", "parse_header")
    assert (symbol.place.start_line, symbol.place.end_line) == (4, 10)
    assert symbol.confidence is not None and 0.5 <= symbol.confidence < 0.9
    assert (lines.status, lines.reason) == ("modified", "moved_with_edits")
    assert lines.place is not None and lines.place.path == "pkg/headers.py"
    assert lines.place.start_line == 4


def test_line_range_whose_text_is_gone_is_deleted(repo: Repo) -> None:
    repo.write("pkg/parser.py", PARSER)
    repo.commit("start")
    memory = repo.remember("pkg/parser.py:4-8")
    repo.write("pkg/parser.py", _without_header(PARSER) + "\n\nX = [1, 2, 3]\nY = 4\n")
    repo.commit("drop parse_header")
    result = repo.check_ref(memory)
    assert (result.status, result.reason, result.place) == ("deleted", "lines_gone", None)
    assert repo.check(memory).status == "historical"


def test_line_range_edited_after_lines_moved_is_modified_where_it_is_now(repo: Repo) -> None:
    repo.write("pkg/parser.py", PARSER)
    repo.commit("start")
    memory = repo.remember("pkg/parser.py:4-8")
    edited = PARSER.replace(
        PARSER[PARSER.index("def parse_header") : PARSER.index("def keep")], EDITED_HEADER + "\n\n"
    )
    repo.write("pkg/parser.py", "import os\nimport sys\n" + edited)
    repo.commit("imports, strict mode")
    result = repo.check_ref(memory)
    assert (result.status, result.reason) == ("modified", "lines_changed")
    assert result.place is not None
    assert (result.place.start_line, result.place.end_line) == (6, 12)


def test_line_range_moved_to_another_file_is_followed(repo: Repo) -> None:
    repo.write("pkg/table.py", "import os\n\n\n" + BLOCK)
    repo.write("pkg/other.py", "Z = 0\n")
    repo.commit("start")
    memory = repo.remember("pkg/table.py:4-8")
    repo.write("pkg/table.py", "import os\n")
    repo.write("pkg/other.py", "Z = 0\n\n\n" + BLOCK)
    repo.commit("move render")
    result = repo.check_ref(memory)
    assert (result.status, result.reason) == ("relocated", "moved_to_other_file")
    assert result.place is not None
    assert (result.place.path, result.place.start_line, result.place.end_line) == (
        "pkg/other.py",
        4,
        8,
    )


def test_deleted_symbol_is_not_found_in_an_older_twin(repo: Repo) -> None:
    twin = "def keep_copy(value):\n    return value\n"
    repo.write("pkg/parser.py", PARSER)
    repo.write("pkg/util.py", twin + "\n\ndef keep(value):\n    return value\n")
    repo.commit("start: the same code lives in three places")
    memory = repo.remember("pkg/parser.py#keep")
    repo.write("pkg/parser.py", PARSER[: PARSER.index("def keep")])
    repo.write("pkg/util.py", twin + "\n\ndef keep(value):\n    return value\n\n\nY = 1\n")
    repo.commit("drop parser.keep; util changes too")
    result = repo.check_ref(memory)
    assert (result.status, result.reason, result.place) == ("deleted", "symbol_not_found", None)


def test_identical_code_in_two_new_places_is_ambiguous(repo: Repo) -> None:
    repo.write("pkg/parser.py", PARSER)
    repo.commit("start")
    memory = repo.remember("pkg/parser.py#keep")
    repo.write("pkg/parser.py", PARSER[: PARSER.index("def keep")])
    repo.write("pkg/a.py", "def keep(value):\n    return value\n")
    repo.write("pkg/b.py", "def keep(value):\n    return value\n")
    repo.commit("keep copied into two modules")
    result = repo.check_ref(memory)
    assert (result.status, result.reason, result.place) == ("unknown", "ambiguous", None)
    assert sorted(c.path for c in result.candidates) == ["pkg/a.py", "pkg/b.py"]
    assert "pkg/a.py" in result.warnings[0] and "not picking one" in result.warnings[0]


def test_deleted_file_is_followed_only_to_one_new_copy(repo: Repo) -> None:
    repo.write("pkg/parser.py", PARSER)
    repo.write("pkg/old.py", "OLD = 1\n")
    repo.write("pkg/twin.py", "TWIN = 1\n")
    repo.commit("start")
    memory = repo.remember("pkg/old.py", "pkg/parser.py")
    (repo.root / "pkg/old.py").unlink()
    repo.write("pkg/twin_copy.py", "TWIN = 1\n")
    (repo.root / "pkg/parser.py").unlink()
    repo.write("one/parser.py", PARSER)
    repo.write("two/parser.py", PARSER)
    old, parser = repo.check(memory).refs
    assert (old.status, old.reason) == ("deleted", "file_deleted")
    assert (parser.status, parser.reason) == ("unknown", "ambiguous")
    assert [c.path for c in parser.candidates] == ["one/parser.py", "two/parser.py"]


def test_stored_ref_outside_the_root_is_unknown_and_not_read(repo: Repo) -> None:
    repo.write("pkg/parser.py", PARSER)
    repo.commit("start")
    memory = repo.remember("pkg/parser.py", "pkg/parser.py#keep")
    ws = Workspace(repo.root)
    for anchor in memory.anchors:
        spec = anchor.spec
        for bad in ("../../etc/passwd", "/etc/passwd", "pkg/../../x.py"):
            edited = replace(anchor, spec=RefSpec(spec.type, bad, spec.symbol))
            result = check_anchor(ws, edited)
            assert (result.status, result.reason, result.place) == ("unknown", "invalid_ref", None)
            assert "not read" in result.warnings[0]


def test_symbols_found_elsewhere_are_confirmed_live_when_asked(repo: Repo) -> None:
    repo.write("pkg/parser.py", PARSER)
    repo.commit("start")
    memory = repo.remember(
        "pkg/parser.py#parse_header", "pkg/parser.py#keep", "pkg/parser.py:11-12"
    )
    moved_out = _without_header(PARSER).replace("def keep", "def keep_value")
    repo.write("pkg/parser.py", "import os\n" + moved_out)
    repo.write("pkg/headers.py", EDITED_HEADER)
    repo.commit("move parse_header, rename keep")
    asked: list[tuple[str, str, tuple[int, int]]] = []

    def live(path: str, symbol: str, lines: tuple[int, int]) -> LiveCheck:
        asked.append((path, symbol, lines))
        listed = path == "pkg/headers.py"
        return LiveCheck(True, "listed") if listed else LiveCheck(False, "not_listed")

    (result,) = check_memories(Workspace(repo.root), [memory], live=live)
    moved, renamed, lines = result.refs
    assert asked == [
        ("pkg/headers.py", "parse_header", (1, 7)),
        ("pkg/parser.py", "keep_value", (5, 6)),
    ]
    assert (moved.status, moved.live) == ("modified", LiveCheck(True, "listed"))
    assert (renamed.status, renamed.live) == ("renamed", LiveCheck(False, "not_listed"))
    assert "does not list keep_value" in renamed.warnings[-1]
    assert lines.live is None


def test_method_moved_out_of_its_class_into_another_file_with_edits(repo: Repo) -> None:
    tests = (
        "class TestParser:\n"
        "    def test_header(self):\n"
        "        name, value = parse_header('A: b')\n"
        "        assert name == 'a'\n"
        "        assert value == 'b'\n"
    )
    repo.write("tests/test_all.py", tests)
    repo.commit("start")
    memory = repo.remember("tests/test_all.py#TestParser.test_header")
    repo.write("tests/test_all.py", "")
    repo.write(
        "tests/test_parser.py",
        "def test_header():\n"
        "    name, value = parse_header('A: b')\n"
        "    assert name == 'a'\n"
        "    assert value == 'b'\n",
    )
    repo.commit("tests become functions")
    result = repo.check_ref(memory)
    assert (result.status, result.reason) == ("modified", "moved_with_edits")
    assert result.place is not None
    assert (result.place.path, result.place.symbol) == ("tests/test_parser.py", "test_header")


def test_git_rename_of_a_file_without_code_is_not_taken_when_copies_abound(repo: Repo) -> None:
    for package in ("a", "b", "c"):
        repo.write(f"{package}/__init__.py", "# package\n")
    repo.commit("start")
    memory = repo.remember("a/__init__.py")
    repo.git("rm", "-q", "a/__init__.py", "b/__init__.py")
    repo.write("x/__init__.py", "# package\n")
    repo.write("y/__init__.py", "# package\n")
    repo.commit("packages move")
    result = repo.check_ref(memory)
    assert (result.status, result.reason, result.place) == ("unknown", "ambiguous", None)
    assert [c.path for c in result.candidates] == ["x/__init__.py", "y/__init__.py"]
