"""The outline (symbols only) gives exactly the symbols full extraction gives."""

from __future__ import annotations

from pathlib import Path

import pytest

from disk.errors import UndecodableFileError
from map.extraction.extract import extract_file, source_of
from map.extraction.fingerprint import comment_spans
from map.extraction.outline import Outline, outline_file

REPO = Path(__file__).parents[2]
SAMPLES = sorted(p for p in (REPO / "tests" / "fixtures" / "extract").glob("*/*") if p.is_file())
OWN_SOURCE = [
    p
    for d in ("map", "memory")
    for p in sorted((REPO / d).rglob("*.py"))
    if p.stat().st_size > 2000
]


@pytest.mark.parametrize("path", SAMPLES + OWN_SOURCE, ids=lambda p: p.relative_to(REPO).as_posix())
def test_outline_has_the_symbols_of_full_extraction(path: Path) -> None:
    rel = path.relative_to(REPO).as_posix()
    data = path.read_bytes()
    full = extract_file(rel, data)
    outline = outline_file(rel, data)
    assert outline.symbols == full.symbols
    assert (outline.path, outline.language, outline.content_hash) == (
        full.path,
        full.language,
        full.content_hash,
    )
    language, source = source_of(rel, data)
    assert outline.comments == tuple(comment_spans(language, source))


def test_a_header_holding_cpp_and_a_bom_are_outlined_as_extraction_does() -> None:
    data = (
        b"\xef\xbb\xbfnamespace geo {\nclass Shape {\n public:\n  int area();\n};\n}\n"
        b"int geo::Shape::area() { return 1; }\n"
    )
    outline = outline_file("include/shape.h", data)
    assert outline.language == "cpp"
    assert outline.symbols == extract_file("include/shape.h", data).symbols
    assert Outline.of(extract_file("include/shape.h", data)).comments is None
    assert "include/shape.h#geo.Shape.area" in [s.node_id for s in outline.symbols]


def test_bad_input_is_refused_as_extraction_refuses_it() -> None:
    with pytest.raises(ValueError, match="no extractor"):
        outline_file("notes.txt", b"hello")
    with pytest.raises(UndecodableFileError):
        outline_file("a.py", b"def f():\n    return '\xff'\n")
