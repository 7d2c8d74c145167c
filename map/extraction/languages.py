"""Which language a file is in, and its compiled tree-sitter grammar and query.

Grammars come from the per-language wheels (tree-sitter-python, ...); the
extraction query of each language is `map/extraction/queries/<language>.scm` (the
JavaScript family's adds the patterns they share, `ecmascript.scm`; C and C++,
`cfamily.scm`). Compiled
grammars and queries are immutable, so each is loaded once per process.
"""

from __future__ import annotations

import importlib
import posixpath
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

from tree_sitter import Language, Query

EXTENSIONS: Mapping[str, str] = MappingProxyType(
    {
        ".py": "python",
        ".pyi": "python",
        ".ts": "typescript",
        ".mts": "typescript",
        ".cts": "typescript",
        ".tsx": "tsx",
        ".js": "javascript",
        ".jsx": "javascript",
        ".mjs": "javascript",
        ".cjs": "javascript",
        ".go": "go",
        ".c": "c",
        ".h": "c",
        ".cc": "cpp",
        ".cpp": "cpp",
        ".cxx": "cpp",
        ".c++": "cpp",
        ".hh": "cpp",
        ".hpp": "cpp",
        ".hxx": "cpp",
        ".h++": "cpp",
        ".ipp": "cpp",
        ".rs": "rust",
        ".java": "java",
        ".rb": "ruby",
        ".rake": "ruby",
        ".php": "php",
        ".cs": "csharp",
        ".kt": "kotlin",
        ".kts": "kotlin",
        ".swift": "swift",
        ".scala": "scala",
        ".sc": "scala",
        ".lua": "lua",
        ".sh": "bash",
        ".bash": "bash",
    }
)
"""File extension (lower case, with the dot) -> language name."""

# language -> (wheel module, function returning the grammar pointer)
_GRAMMARS: Mapping[str, tuple[str, str]] = MappingProxyType(
    {
        "python": ("tree_sitter_python", "language"),
        "typescript": ("tree_sitter_typescript", "language_typescript"),
        "tsx": ("tree_sitter_typescript", "language_tsx"),
        "javascript": ("tree_sitter_javascript", "language"),
        "go": ("tree_sitter_go", "language"),
        "c": ("tree_sitter_c", "language"),
        "cpp": ("tree_sitter_cpp", "language"),
        "rust": ("tree_sitter_rust", "language"),
        "java": ("tree_sitter_java", "language"),
        "ruby": ("tree_sitter_ruby", "language"),
        "php": ("tree_sitter_php", "language_php"),
        "csharp": ("tree_sitter_c_sharp", "language"),
        "kotlin": ("tree_sitter_kotlin", "language"),
        "swift": ("tree_sitter_swift", "language"),
        "scala": ("tree_sitter_scala", "language"),
        "lua": ("tree_sitter_lua", "language"),
        "bash": ("tree_sitter_bash", "language"),
    }
)

LANGUAGES: tuple[str, ...] = tuple(_GRAMMARS)
"""Every language extraction supports."""

_QUERY_DIR = Path(__file__).parent / "queries"
# The JavaScript-family grammars name most nodes alike: those patterns live once in
# ecmascript.scm, after each language's own. TSX is TypeScript plus the JSX patterns.
# C and C++ share cfamily.scm likewise.
_QUERY_FILES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "c": ("c", "cfamily"),
        "cpp": ("cpp", "cfamily"),
        "javascript": ("javascript", "ecmascript"),
        "typescript": ("typescript", "ecmascript"),
        "tsx": ("typescript", "ecmascript", "tsx"),
    }
)


def language_for(path: str) -> str | None:
    """The language of `path` by its extension, or None when unsupported."""
    return EXTENSIONS.get(posixpath.splitext(path)[1].lower())


def grammar_module(language: str) -> str:
    """The module of the grammar wheel of `language` (a name in LANGUAGES)."""
    return _grammar_of(language)[0]


def _grammar_of(language: str) -> tuple[str, str]:
    try:
        return _GRAMMARS[language]
    except KeyError:
        raise ValueError(
            f"no grammar for language {language!r}; supported: {', '.join(LANGUAGES)}"
        ) from None


@cache
def grammar(language: str) -> Language:
    """The compiled tree-sitter grammar of `language` (a name in LANGUAGES)."""
    module_name, function = _grammar_of(language)
    module = importlib.import_module(module_name)
    return Language(getattr(module, function)())


def query_source(language: str) -> str:
    """The text of the extraction query of `language` (queries/<language>.scm, plus
    the files it shares patterns from)."""
    names = _QUERY_FILES.get(language, (language,))
    return "\n".join((_QUERY_DIR / f"{name}.scm").read_text(encoding="utf-8") for name in names)


@cache
def extraction_query(language: str) -> Query:
    """The compiled extraction query of `language`."""
    return Query(grammar(language), query_source(language))


def compile_queries(paths: Iterable[str]) -> None:
    """Compile now the extraction queries of the languages of `paths` (~30 ms each),
    which the first extraction in each would otherwise wait for."""
    for language in {found for path in paths if (found := language_for(path)) is not None}:
        extraction_query(language)
