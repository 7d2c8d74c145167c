"""A file's symbols alone: extraction without imports, references or assignments.

Callers that ask only which symbols a file has, where, and their
fingerprints (the memory check, which parses every file a diff touched and
old versions of some) need none of the edges. `outline_file` parses once and
runs only the patterns symbols come from (`@def.*`, `@container`) and the
comments fingerprints leave out (`@comment`), then qualifies and numbers
them as `extract_file` does, so its symbols are the same: same node IDs,
ranges and fingerprints, at about half the cost. It keeps the comments' byte
spans too (the ones `map.extraction.fingerprint.comment_spans` finds), so fingerprinting
other spans of the file needs no second parse.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from tree_sitter import Parser, Query, QueryCursor

from disk.stamps import content_hash
from map.extraction.extract import qualified_symbols, source_of
from map.extraction.extract_matches import collect
from map.extraction.languages import grammar, query_source
from map.extraction.positions import Positions
from map.model import FileExtract, Symbol

_KEPT_ROLES = re.compile(r"@(?:def\.|container\b|comment\b)")
_QUERY_COMMENT = re.compile(r';[^\n"]*$', re.MULTILINE)


@dataclass(frozen=True, slots=True)
class Outline:
    """A file's symbols as extraction gives them (no imports, references or assignments)."""

    path: str
    language: str
    content_hash: str
    symbols: tuple[Symbol, ...]
    comments: tuple[tuple[int, int], ...] | None
    """The sorted (start, end) byte spans of its comments (BOM left out); None when
    unknown (an outline of the map's extraction)."""

    @classmethod
    def of(cls, extract: FileExtract) -> Outline:
        """The outline of a full extraction (the map's): its comments are not known."""
        return cls(extract.path, extract.language, extract.content_hash, extract.symbols, None)


def outline_file(path: str, data: bytes) -> Outline:
    """The symbols of one file, exactly as `map.extraction.extract.extract_file` gives them.

    Raises ValueError for an unsupported extension and
    disk.errors.UndecodableFileError when `data` is not UTF-8.
    """
    language, source = source_of(path, data)
    tree = Parser(grammar(language)).parse(source)
    found = collect(QueryCursor(outline_query(language)).matches(tree.root_node), language)
    symbols = qualified_symbols(path, source, language, Positions(source), found)
    return Outline(path, language, content_hash(data), symbols, tuple(sorted(found.comments)))


@cache
def outline_query(language: str) -> Query:
    """`language`'s extraction query with only its definition, container and comment
    patterns enabled (its own compiled copy: the extraction query stays whole)."""
    source = query_source(language)
    encoded = source.encode()
    query = Query(grammar(language), source)
    for index in range(query.pattern_count):
        start, end = query.start_byte_for_pattern(index), query.end_byte_for_pattern(index)
        pattern = _QUERY_COMMENT.sub("", encoded[start:end].decode())
        if not _KEPT_ROLES.search(pattern):
            query.disable_pattern(index)
    return query
