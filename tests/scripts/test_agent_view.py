"""The agent-view benchmark's own judgement: what the source says a site is, the
edits it makes, and the cuts it finds in an answer. A wrong judgement here would
count a right answer as misleading (or the reverse)."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


@pytest.fixture
def source(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    return importlib.import_module("agentview.source")


@pytest.fixture
def tally(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    return importlib.import_module("agentview.tally")


def _sources(source: ModuleType, root: Path, language: str, files: dict[str, str]) -> object:
    for name, text in files.items():
        (root / name).write_text(text)
    return source.Sources(root, language)


def test_a_name_in_a_comment_or_string_is_text_and_code_is_not(
    source: ModuleType, tmp_path: Path
) -> None:
    code = 'x = obj.size + 2  # size\ny = "size"\nz = f"{obj.size} and size"\n'
    sources = _sources(source, tmp_path, "python", {"a.py": code})
    assert not sources.in_comment_or_string("a.py", 1, 9)  # obj.size
    assert sources.in_comment_or_string("a.py", 1, 22)  # the comment
    assert sources.in_comment_or_string("a.py", 2, 6)  # the string
    assert not sources.in_comment_or_string("a.py", 3, 12)  # f-string substitution
    assert sources.in_comment_or_string("a.py", 3, 23)  # f-string text


def test_a_c_macro_body_is_code_but_for_its_strings(source: ModuleType, tmp_path: Path) -> None:
    code = '#define PUT(e) (flush(e), puts("flush"))\n'
    sources = _sources(source, tmp_path, "c", {"a.c": code})
    assert not sources.in_comment_or_string("a.c", 1, 17)
    assert sources.in_macro_body("a.c", 1, 17)
    assert sources.in_comment_or_string("a.c", 1, 33)


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("def f(a, b=1):\n    pass\n", "def f(a, b=1, *, bench_extra):\n    pass\n"),
        ("def f(a, *args, **kw):\n    pass\n", "def f(a, *args, bench_extra, **kw):\n    pass\n"),
        ("def f(a, **kw):\n    pass\n", "def f(a, *, bench_extra, **kw):\n    pass\n"),
        ("def f():\n    pass\n", "def f(*, bench_extra):\n    pass\n"),
    ],
)
def test_python_gets_a_required_keyword_only_parameter(
    source: ModuleType, tmp_path: Path, before: str, after: str
) -> None:
    sources = _sources(source, tmp_path, "python", {"a.py": before})
    assert sources.add_parameter("a.py", "f", (1, 2)).after.decode() == after


@pytest.mark.parametrize(
    ("language", "name", "before", "after"),
    [
        (
            "typescript",
            "a.ts",
            "export const f = (x: number) => x\n",
            "export const f = (benchExtra: symbol, x: number) => x\n",
        ),
        ("go", "a.go", "package a\nfunc f() {}\n", "package a\nfunc f(benchExtra int) {}\n"),
        ("c", "a.c", "int f(void) { return 0; }\n", "int f(int bench_extra) { return 0; }\n"),
    ],
)
def test_other_languages_get_a_required_first_parameter(
    source: ModuleType, tmp_path: Path, language: str, name: str, before: str, after: str
) -> None:
    sources = _sources(source, tmp_path, language, {name: before})
    lines = (1, before.count("\n"))
    assert sources.add_parameter(name, "f", lines).after.decode() == after


def test_a_call_spreading_its_arguments_is_not_judged(source: ModuleType, tmp_path: Path) -> None:
    code = "f(1,\n  2)\nf(*xs)\n"
    sources = _sources(source, tmp_path, "python", {"a.py": code})
    assert list(sources.plain_call_lines("a.py", 1, 1)) == [1, 2]
    assert sources.plain_call_lines("a.py", 3, 1) is None


def test_a_cut_inside_data_counts_unless_the_envelope_names_it(tally: ModuleType) -> None:
    data = {"count": 3, "locations": [{}] * 3, "unconfirmed": [{}], "unconfirmedCount": 9}
    assert tally.unreported_cuts({"data": data, "truncated": None}) == ["unconfirmed"]
    said = {"items": "unconfirmed", "kept": 1, "dropped": 8}
    assert tally.unreported_cuts({"data": data, "truncated": said}) == []
    other = {"items": "locations", "kept": 1, "dropped": 2}
    assert tally.unreported_cuts({"data": data, "truncated": other}) == ["unconfirmed"]
    flagged = {"text": "...", "truncated": True}
    assert tally.unreported_cuts({"data": flagged, "truncated": None}) == ["data"]
    assert tally.unreported_cuts({"data": flagged, "truncated": {"dropped": 1}}) == []
