"""What a map search pattern matches, and how well: `re:REGEX` (or a pattern with
regex characters) a regex, one with `*`/`?` a glob, anything else a plain name
(map.graph.query.search says how each is scored).
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable, Mapping
from typing import Any

from map.errors import MapError

REGEX_CHARS = frozenset("^$()[]{}+\\|")
GLOB_CHARS = frozenset("*?")
REGEX_PREFIX = "re:"

Scorer = Callable[[str, Mapping[str, Any]], int | None]
"""(node ID, attributes) -> score, lower is better; None: no match."""


class BadPatternError(MapError):
    """A search pattern that is not a valid regular expression."""

    def __init__(self, pattern: str, reason: str) -> None:
        shown = pattern if len(pattern) <= 80 else pattern[:79] + "…"
        super().__init__(f"{shown!r} is not a valid regular expression: {reason}")
        self.pattern = pattern
        self.hint = (
            "fix the regex (Python syntax), or search for plain text without `re:` "
            "(a substring) or with * and ? (a glob)"
        )


def plain_text(pattern: str) -> str | None:
    """The lowercased text every match of a plain `pattern` holds in its name, qualified
    name or ID (None for a regex or a glob): a prefilter for `search_nodes`."""
    if _is_regex(pattern) or GLOB_CHARS & set(pattern):
        return None
    return pattern.lower()


def _tiered(matches: Callable[[str], bool]) -> Scorer:
    """A scorer: 0 when the name matches, 1 the qualified name, 2 the node ID."""

    def score(node_id: str, data: Mapping[str, Any]) -> int | None:
        name = data.get("name", data["path"])
        for tier, text in enumerate((name, data.get("qualname", name), node_id)):
            if matches(text):
                return tier
        return None

    return score


def _is_regex(pattern: str) -> bool:
    return pattern.startswith(REGEX_PREFIX) or bool(REGEX_CHARS & set(pattern))


def scorer_of(pattern: str) -> Scorer:
    """The scorer of `pattern` (regex, glob or plain name)."""
    if _is_regex(pattern):
        expression = pattern.removeprefix(REGEX_PREFIX)
        try:
            compiled = re.compile(expression)
        except (re.error, RecursionError, OverflowError) as exc:
            raise BadPatternError(expression, str(exc)) from None
        return _tiered(lambda text: compiled.search(text) is not None)
    if GLOB_CHARS & set(pattern):
        # compiled here, not by fnmatchcase: its cache keeps up to 32,768 patterns for
        # as long as the process runs; re's keeps the last few hundred
        glob = re.compile(fnmatch.translate(pattern))
        return _tiered(lambda text: glob.match(text) is not None)
    wanted = pattern.lower()

    def plain(node_id: str, data: Mapping[str, Any]) -> int | None:
        name = str(data.get("name", data["path"])).lower()
        qualname = str(data.get("qualname", name)).lower()
        if name == wanted:
            return 0
        if qualname == wanted or node_id.lower() == wanted:
            return 1
        if name.startswith(wanted):
            return 2
        if wanted in qualname:
            return 3
        return None

    return plain
