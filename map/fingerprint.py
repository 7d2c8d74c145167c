"""Content fingerprints: an exact hash and one that survives reformatting.

`normalized` hashes the code's tokens with comments dropped, joined by single
spaces, so whitespace-only and comment-only edits keep it. Tokens are
words, string literals written on one line (whitespace inside a string
matters), and single punctuation characters; `a+b` and `a + b` tokenize
alike. Docstrings are strings, not comments: editing one changes both hashes.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import cache
from types import MappingProxyType

from tree_sitter import Parser, Query, QueryCursor

from disk.stamps import content_hash
from map.languages import grammar
from map.model import Fingerprint

_TOKEN = re.compile(
    rb'"(?:\\.|[^"\\\n])*"'  # a double-quoted string on one line
    rb"|'(?:\\.|[^'\\\n])*'"  # a single-quoted string on one line
    rb"|\w+"
    rb"|\S"
)

_COMMENT_TYPES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "rust": ("line_comment", "block_comment"),
        "java": ("line_comment", "block_comment"),
    }
)


def normalized_hash(data: bytes, start: int, end: int, comments: Sequence[tuple[int, int]]) -> str:
    """The normalized hash of `data[start:end]`.

    `comments` are the (start, end) byte spans of the comments in `data`,
    sorted by start and not nested.
    """
    pieces: list[bytes] = []
    position = start
    index = max(bisect_right(comments, (start, start)) - 1, 0)
    while index < len(comments) and comments[index][0] < end:
        c_start, c_end = comments[index]
        index += 1
        if c_end <= position:
            continue
        pieces.append(data[position : max(c_start, position)])
        position = c_end
    if position < end:
        pieces.append(data[position:end])
    return content_hash(b" ".join(_TOKEN.findall(b" ".join(pieces))))


@cache
def _comment_query(language: str) -> Query:
    types = _COMMENT_TYPES.get(language, ("comment",))
    alternatives = " ".join(f"({kind})" for kind in types)
    return Query(grammar(language), f"[{alternatives}] @comment")


def comment_spans(language: str, data: bytes) -> list[tuple[int, int]]:
    """The sorted (start, end) byte spans of comments in `data` parsed as `language`."""
    query = _comment_query(language)
    tree = Parser(grammar(language)).parse(data)
    found = QueryCursor(query).captures(tree.root_node).get("comment", [])
    return sorted((node.start_byte, node.end_byte) for node in found)


def fingerprint_text(text: str, language: str | None) -> Fingerprint:
    """The fingerprint of an arbitrary piece of code (e.g. a line range).

    With a language, comments are found by parsing `text` alone and the
    normalized hash equals the one extraction gives a symbol whose text this
    is. Without one (unknown language) only whitespace is collapsed.
    """
    data = text.encode("utf-8")
    if language is None:
        return Fingerprint(content_hash(data), content_hash(b" ".join(data.split())))
    return Fingerprint(
        content_hash(data), normalized_hash(data, 0, len(data), comment_spans(language, data))
    )
