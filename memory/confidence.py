"""What a check's `confidence` means: named levels, each tied to the evidence behind it.

A check sets a confidence whenever the place it reports was *inferred*
(relocated, renamed, or modified somewhere other than the anchored place).
Each level names the evidence that produced it; nothing else produces it:

    level       value  evidence
    IDENTITY    1.0    the same thing by identity: same node ID in the file or
                       in its git rename, or a unique exact copy of the file or
                       lines, with the exact same text
    REFORMATTED 0.95   as IDENTITY, but only the normalized text (blind to
                       whitespace and comments) is the same
    NAMED       0.9    same name (and kind), new since the anchor commit, found
                       by name in a file changed since then; same normalized text
    NEAREST     0.8    one of several exact copies of a line range in its own
                       file: the nearest to where it was (the others are listed)
    RENAMED     0.75   another name, same name-blind body, the only such symbol
                       new since the anchor commit, in the same file lineage and
                       container, or elsewhere with a name close to the old one;
                       or the symbol a commit in history renamed it to, same body
    SIMILAR     0.7    same name, new since the anchor commit, text changed but
                       token similarity >= SIMILAR_HIGH (the same container, or
                       another one from OTHER_CONTAINER_MIN on), or a block of
                       lines with similarity >= SIMILAR_HIGH, or a symbol renamed
                       with edits in history (`memory.renames`) that close
    RESEMBLES   0.5    as SIMILAR with similarity between SIMILAR_LOW and
                       SIMILAR_HIGH

Similarity is rapidfuzz's normalized Indel similarity (0-1) over the
comment-free tokens (`memory.similarity`). No level is ever given on equal
content alone: a candidate must also be new since the anchor commit (when
git can tell) and have name affinity or lineage; two equally good
candidates (the same evidence, similarities within TIE_MARGIN) are reported
as ambiguous (`unknown`, with the candidates), never picked between.
"""

from __future__ import annotations

from enum import Enum


class Confidence(float, Enum):
    """A named confidence level (see the module docstring for the evidence of each)."""

    IDENTITY = 1.0
    REFORMATTED = 0.95
    NAMED = 0.9
    NEAREST = 0.8
    RENAMED = 0.75
    SIMILAR = 0.7
    RESEMBLES = 0.5


SIMILAR_HIGH = 0.75
"""Token similarity from which changed code counts as SIMILAR."""
SIMILAR_LOW = 0.5
"""Token similarity below which changed code is not the anchored code at all."""
OTHER_CONTAINER_MIN = 0.6
"""A symbol found by name under another container (a method moved to another class
or out of one) needs this similarity, or equal text."""
TIE_MARGIN = 0.05
"""Two candidates with the same evidence whose similarities are closer than this are a tie."""
BLOCK_MIN = 0.6
"""A changed block of lines is followed only from this similarity on (no name to go by)."""


def for_similarity(similarity: float) -> Confidence:
    """SIMILAR or RESEMBLES for changed code found with this similarity (>= SIMILAR_LOW)."""
    return Confidence.SIMILAR if similarity >= SIMILAR_HIGH else Confidence.RESEMBLES
