"""Content fingerprints: an exact hash and one that survives reformatting.

`normalized` hashes the code's tokens with comments dropped, joined by single
spaces, so whitespace-only and comment-only edits keep it. Tokens are
words, string literals written on one line (whitespace inside a string
matters), and single punctuation characters; `a+b` and `a + b` tokenize
alike. Docstrings are strings, not comments: editing one changes both hashes
(a string spanning lines is tokenized like code, so re-indenting one keeps
`normalized`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from functools import cache

from tree_sitter import Parser, Query, QueryCursor

from disk.stamps import content_hash
from map.extraction.extract_matches import comment_types
from map.extraction.languages import grammar
from map.model import Fingerprint

_TOKEN = re.compile(
    rb'"(?:\\.|[^"\\\n])*"'  # a double-quoted string on one line
    rb"|'(?:\\.|[^'\\\n])*'"  # a single-quoted string on one line
    rb"|\w+"
    rb"|\S"
)


class TokenIndex:
    """The comment-free tokens of one file, cut at given byte offsets.

    Every byte is tokenized once; the normalized hash of a span that starts
    and ends at cuts joins the tokens of its segments. Cuts must fall between
    tokens (symbol boundaries do).
    """

    def __init__(self, data: bytes, comments: Sequence[tuple[int, int]], cuts: Iterable[int]):
        """`comments`: sorted, non-overlapping (start, end) byte spans to drop."""
        points = set(cuts)
        points.update((0, len(data)))
        for c_start, c_end in comments:
            points.update((c_start, c_end))
        self._starts = sorted(points)
        self._segments: list[bytes] = []
        """Each segment's tokens joined by spaces, once (b"": none)."""
        comment_index = 0
        for here, there in zip(self._starts, self._starts[1:], strict=False):
            while comment_index < len(comments) and comments[comment_index][1] <= here:
                comment_index += 1
            inside = comment_index < len(comments) and comments[comment_index][0] <= here
            self._segments.append(b"" if inside else b" ".join(_TOKEN.findall(data, here, there)))

    def normalized(self, start: int, end: int) -> str:
        """The normalized hash of the bytes from cut `start` to cut `end`."""
        first = bisect_left(self._starts, start)
        last = bisect_left(self._starts, end)
        return content_hash(b" ".join(part for part in self._segments[first:last] if part))


@cache
def _comment_query(language: str) -> Query:
    alternatives = " ".join(f"({kind})" for kind in sorted(comment_types(language)))
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
    tokens = TokenIndex(data, comment_spans(language, data), ())
    return Fingerprint(content_hash(data), tokens.normalized(0, len(data)))
