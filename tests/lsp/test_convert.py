"""lsprotocol answers become model results: paths, lines, texts, trees."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from lsp.convert import LINE_TEXT_CAP, Converter, nest_by_range
from lsp.handshake import configuration_answer
from lsp.model import DocumentSymbolNode, Span


def _range(start: int, end: int, end_char: int = 0) -> types.Range:
    return types.Range(
        start=types.Position(line=start, character=0),
        end=types.Position(line=end, character=end_char),
    )


def test_locations_are_repo_relative_sorted_unique_with_their_line_text(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    source = tmp_path / "pkg/m.py"
    source.write_text("first\nsecond " + "x" * 300 + "\n", encoding="utf-8")
    uri = source.as_uri()
    outside = "file:///usr/lib/python3/os.py"
    link = types.LocationLink(
        target_uri=uri, target_range=_range(0, 1), target_selection_range=_range(0, 0, 5)
    )
    found = Converter(tmp_path).locations(
        [
            types.Location(uri=uri, range=_range(1, 1)),
            link,
            types.Location(uri=uri, range=_range(1, 1)),
            types.Location(uri=outside, range=_range(0, 0)),
        ]
    )
    assert [(loc.path, loc.line) for loc in found] == [
        ("/usr/lib/python3/os.py", 1),
        ("pkg/m.py", 1),
        ("pkg/m.py", 2),
    ]
    assert found[1].text == "first"
    assert found[2].text.startswith("second xxx")
    assert len(found[2].text) == LINE_TEXT_CAP


def test_hover_joins_every_content_form(tmp_path: Path) -> None:
    convert = Converter(tmp_path)
    marked = types.Hover(
        contents=[
            types.MarkedStringWithLanguage(language="python", value="def f() -> int"),
            "Returns one.",
        ]
    )
    info = convert.hover(marked)
    assert info is not None
    assert info.contents == "```python\ndef f() -> int\n```\n\nReturns one."
    markup = types.MarkupContent(kind=types.MarkupKind.PlainText, value="x: int")
    assert convert.hover(types.Hover(contents=markup, range=_range(2, 2, 1))) is not None
    assert convert.hover(types.Hover(contents="  ")) is None
    assert convert.hover(None) is None


def _node(name: str, start: int, end: int) -> DocumentSymbolNode:
    span = Span(start, 0, end, 0)
    return DocumentSymbolNode(name=name, kind="function", detail=None, span=span, selection=span)


def _shape(nodes: list[DocumentSymbolNode] | tuple[DocumentSymbolNode, ...]) -> list[object]:
    return [(n.name, _shape(n.children)) if n.children else n.name for n in nodes]


def test_flat_symbols_nest_by_range_containment() -> None:
    flat = [
        _node("helper", 20, 22),
        _node("Outer", 0, 15),
        _node("method", 2, 8),
        _node("inner", 3, 5),
        _node("other", 10, 14),
    ]
    assert _shape(nest_by_range(flat)) == [
        ("Outer", [("method", ["inner"]), "other"]),
        "helper",
    ]


def test_flat_symbol_information_becomes_a_tree(tmp_path: Path) -> None:
    uri = (tmp_path / "m.py").as_uri()

    def info(name: str, kind: types.SymbolKind, start: int, end: int) -> types.SymbolInformation:
        return types.SymbolInformation(
            name=name, kind=kind, location=types.Location(uri=uri, range=_range(start, end))
        )

    tree = Converter(tmp_path).document_symbols(
        [
            info("Shape", types.SymbolKind.Class, 0, 9),
            info("area", types.SymbolKind.Method, 2, 4),
            info("main", types.SymbolKind.Function, 11, 12),
        ]
    )
    assert _shape(tree) == [("Shape", ["area"]), "main"]
    assert [n.kind for n in tree] == ["class", "function"]


def test_configuration_answers_by_exact_section_then_dotted_path() -> None:
    settings = {"python.analysis": {"mode": "open"}, "gopls": {"ui": {"hover": "full"}}}
    assert configuration_answer(settings, "python.analysis") == {"mode": "open"}
    assert configuration_answer(settings, "gopls.ui") == {"hover": "full"}
    assert configuration_answer(settings, "ty") is None
    assert configuration_answer(settings, None) == settings


def test_call_sites_merge_repeated_symbols_and_spans(tmp_path: Path) -> None:
    uri = (tmp_path / "m.py").as_uri()
    item = types.CallHierarchyItem(
        name="area",
        kind=types.SymbolKind.Method,
        uri=uri,
        range=_range(3, 4),
        selection_range=_range(3, 3, 8),
    )
    sites = Converter(tmp_path).call_sites(
        [(item, [_range(9, 9), _range(7, 7)]), (item, [_range(9, 9)])]
    )
    assert [(s.name, s.kind, s.location.line) for s in sites] == [("area", "method", 4)]
    assert [span.start_line for span in sites[0].call_spans] == [7, 9]
