"""How alike two pieces of code are: rapidfuzz's Indel similarity over normalized tokens.

Tokens are words and single punctuation characters; whitespace and
line comments (`#` and `//` to the end of the line) are dropped, so a
reformat scores 1.0 and an edit scores by how many tokens it touched.
"""

from __future__ import annotations

import re

from rapidfuzz.distance import Indel

_COMMENT = re.compile(r"(?m)(?:#|//)(?![^\n]*[\"']).*$")
_TOKEN = re.compile(r"\w+|[^\w\s]")


def tokens(text: str) -> list[str]:
    """The comment-free tokens of `text` (a comment marker inside a string stays)."""
    return _TOKEN.findall(_COMMENT.sub("", text))


def similarity(a: list[str], b: list[str]) -> float:
    """0-1: the share of tokens two token lists have in common, in order."""
    if not a and not b:
        return 1.0
    return float(Indel.normalized_similarity(a, b))


def name_affinity(old: str, new: str) -> bool:
    """True when `new` reads like a rename of `old`: one contains the other
    (`parse` -> `_parse`, `parse_args`) or they share most of their characters."""
    a, b = old.strip("_").lower(), new.strip("_").lower()
    if not a or not b:
        return False
    return a in b or b in a or Indel.normalized_similarity(a, b) >= 0.6
