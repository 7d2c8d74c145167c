"""Languages: extensions, grammars, and the query files that drive extraction."""

from __future__ import annotations

from typing import get_args

import pytest

from map.languages import LANGUAGES, extraction_query, language_for
from map.model import SymbolKind

ROLES = {"name", "qualifier", "prefix", "container", "import", "comment", "skip", "ref.types"}
REFERENCE_KINDS = {"ref.calls", "ref.inherits", "ref.references"}


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
        and name not in ROLES | REFERENCE_KINDS
        and not (name.startswith("def.") and name[4:] in kinds)
    }
    assert unknown == set()
