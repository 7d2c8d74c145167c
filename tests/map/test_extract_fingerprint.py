"""Fingerprints: what keeps `normalized`, what changes it, and `exact`."""

from __future__ import annotations

import pytest

from map.extract import extract_file
from map.fingerprint import fingerprint_text
from map.model import Fingerprint

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
