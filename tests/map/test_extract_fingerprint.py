"""Fingerprints: what keeps `normalized`, what changes it, and `exact`."""

from __future__ import annotations

from pathlib import Path

import pytest

from map.extraction.extract import extract_file
from map.extraction.fingerprint import fingerprint_text
from map.model import Fingerprint
from tests.map.test_extract_golden import FIXTURES, SAMPLES

ORIGINAL = '''
def area(width, height):
    """Area of a rectangle."""
    total = width*height  # no units
    return total
'''


def print_of(source: str, qualname: str = "area") -> Fingerprint:
    found = extract_file("geo.py", source.encode("utf-8"))
    return next(s.fingerprint for s in found.symbols if s.qualname == qualname)


@pytest.mark.parametrize(
    "edited",
    [
        pytest.param(ORIGINAL.replace("width*height", "width * height"), id="spaces"),
        pytest.param(ORIGINAL.replace("    return", "\n    return"), id="blank-line"),
        pytest.param(ORIGINAL.replace("# no units", "# square metres"), id="comment"),
        pytest.param(ORIGINAL.replace("  # no units", ""), id="comment-removed"),
    ],
)
def test_whitespace_and_comment_edits_keep_normalized(edited: str) -> None:
    before, after = print_of(ORIGINAL), print_of(edited)
    assert after.normalized == before.normalized
    assert after.exact != before.exact


@pytest.mark.parametrize(
    "edited",
    [
        pytest.param(ORIGINAL.replace("return total", "return total + 1"), id="body"),
        pytest.param(ORIGINAL.replace("Area of", "The area of"), id="docstring"),
    ],
)
def test_code_and_docstring_edits_change_both(edited: str) -> None:
    before, after = print_of(ORIGINAL), print_of(edited)
    assert after.normalized != before.normalized
    assert after.exact != before.exact


def test_whitespace_inside_a_string_matters() -> None:
    source = "def f():\n    return 'a b'\n"
    assert print_of(source, "f").normalized != print_of(source.replace("a b", "ab"), "f").normalized


def test_text_fingerprint_matches_the_symbol_fingerprint() -> None:
    found = extract_file("geo.py", ORIGINAL.encode("utf-8"))
    area = next(s for s in found.symbols if s.qualname == "area")
    lines = ORIGINAL.splitlines(keepends=True)
    text = "".join(lines[area.range.start_line : area.range.last_line])
    assert fingerprint_text(text, "python").normalized == area.fingerprint.normalized


def test_text_fingerprint_without_language_collapses_whitespace_only() -> None:
    one = fingerprint_text("a  b\n\tc # d", None)
    two = fingerprint_text("a b c # d", None)
    three = fingerprint_text("a b c # e", None)
    assert one.normalized == two.normalized != three.normalized
    assert one.exact != two.exact


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.parent.name)
def test_reformatting_any_language_keeps_every_normalized_fingerprint(sample: Path) -> None:
    relative = sample.relative_to(FIXTURES).as_posix()
    source = sample.read_text(encoding="utf-8")
    # trailing blanks, but not on preprocessor lines: tree-sitter-c then takes the
    # next line as the macro's value
    reformatted = "".join(
        line if line.startswith("#") else line.replace(", ", ",   ").replace("\n", "  \n")
        for line in source.splitlines(keepends=True)
    )
    before = {s.node_id: s.fingerprint for s in extract_file(relative, source.encode()).symbols}
    after = {s.node_id: s.fingerprint for s in extract_file(relative, reformatted.encode()).symbols}
    assert after.keys() == before.keys()
    assert {i: f.normalized for i, f in after.items()} == {
        i: f.normalized for i, f in before.items()
    }
    assert any(after[i].exact != before[i].exact for i in before)
