"""Languages: extensions, grammars, and the query files that drive extraction."""

from __future__ import annotations

import re
from typing import get_args

import pytest

from map.extraction.extract import extract_file
from map.extraction.languages import LANGUAGES, extraction_query, language_for, query_source
from map.model import SymbolKind

PARTS = {"name", "qualifier", "prefix", "value", "elements", "each"}
ROLES = {
    "container",
    "import",
    "comment",
    "skip",
    "ref.types",
    "assign.call",
    "assign.value",
    "assign.alias",
    "assign.doc",
    "assign.narrow",
    "assign.type",
    "assign.other",
    "assign.gives",
    "assign.gives.alias",
    "attr.call",
    "attr.alias",
    "attr.type",
    "assign.returns",
    "assign.returns.own",
    "assign.enter",
}
REFERENCE_KINDS = {"ref.calls", "ref.inherits", "ref.references", "ref.values"}


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("src/a.py", "python"),
        ("types/a.pyi", "python"),
        ("web/App.tsx", "tsx"),
        ("web/app.ts", "typescript"),
        ("web/app.mjs", "javascript"),
        ("web/App.jsx", "javascript"),
        ("cmd/main.go", "go"),
        ("lib/a.c", "c"),
        ("lib/a.h", "c"),
        ("lib/a.hpp", "cpp"),
        ("lib/A.CPP", "cpp"),
        ("src/lib.rs", "rust"),
        ("src/Main.java", "java"),
        ("lib/shop.rb", "ruby"),
        ("Rakefile.rake", "ruby"),
        ("src/Cart.php", "php"),
        ("src/Cart.cs", "csharp"),
        ("src/Cart.kt", "kotlin"),
        ("build.gradle.kts", "kotlin"),
        ("Sources/Cart.swift", "swift"),
        ("src/Cart.scala", "scala"),
        ("shop/cart.lua", "lua"),
        ("bin/deploy.sh", "bash"),
        ("bin/env.bash", "bash"),
        ("README.md", None),
        ("Makefile", None),
    ],
)
def test_language_follows_the_extension(path: str, language: str | None) -> None:
    assert language_for(path) == language


@pytest.mark.parametrize("language", LANGUAGES)
def test_query_compiles_and_uses_only_known_captures(language: str) -> None:
    query = extraction_query(language)
    names = {query.capture_name(index) for index in range(query.capture_count)}
    kinds = set(get_args(SymbolKind))
    unknown = {
        name
        for name in names
        if not name.startswith("_")
        and name not in PARTS | ROLES | REFERENCE_KINDS
        and not (name.startswith("def.") and name[4:] in kinds)
    }
    assert unknown == set()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_pattern_has_exactly_one_role(language: str) -> None:
    query = extraction_query(language)
    source = query_source(language).encode("utf-8")
    for index in range(query.pattern_count):
        text = source[query.start_byte_for_pattern(index) : query.end_byte_for_pattern(index)]
        names = set(re.findall(rb"@([\w.]+)", text)) - {part.encode() for part in PARTS}
        roles = {name for name in names if not name.startswith(b"_")}
        assert len(roles) == 1, text.decode()


def test_a_header_holding_cpp_is_extracted_as_cpp() -> None:
    source = b"namespace geo {\nclass Shape {\n public:\n  double area() const;\n};\n}\n"
    found = extract_file("include/shape.h", source)
    assert found.language == "cpp"
    assert [s.node_id for s in found.symbols] == [
        "include/shape.h#geo",
        "include/shape.h#geo.Shape",
        "include/shape.h#geo.Shape.area",
    ]


def test_a_plain_c_header_stays_c() -> None:
    found = extract_file(
        "include/point.h", b"struct point { int x; };\nint norm(struct point p);\n"
    )
    assert found.language == "c"
    assert [s.qualname for s in found.symbols] == ["point", "norm"]


def test_a_c_header_whose_comment_says_namespace_stays_c() -> None:
    source = (
        b'#ifdef __cplusplus\nextern "C" {\n#endif\n/* Turns on\n   namespace processing as '
        b"described above. */\nXMLPARSEAPI(enum XML_Error)\nXML_GetErrorCode(XML_Parser p);\n"
        b"#ifdef __cplusplus\n}\n#endif\n"
    )
    found = extract_file("lib/expat.h", source)
    assert found.language == "c"
    assert [s.qualname for s in found.symbols] == ["XML_GetErrorCode"]
