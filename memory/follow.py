"""Follow a symbol that is no longer under its node ID: moved, renamed, moved and edited.

Searched: the symbol's own file (or its git rename) first, then the files
git reports added, modified or renamed since the anchor commit (every file
outside git), each parsed only when it mentions the name (or, for renames,
every word of the body). A candidate is never accepted on equal content
alone; it must be new since the anchor commit (git can tell: it did not
exist in that file then) and have one more piece of evidence:

    by name   the same name: equal text, or similar text (SIMILAR_LOW and up
              in the same container, OTHER_CONTAINER_MIN under another one)
              -> relocated (equal) or modified (edited), with the new place
    by body   another name, the same name-blind body, in the same file
              lineage and container, or elsewhere with a name close to the
              old one -> renamed

When two candidates are equally good (same evidence, similarities within
TIE_MARGIN) the result is `unknown` (reason `ambiguous`) listing them all.
Confidence levels: `memory.confidence`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from map import Symbol
from memory.bodies import body_fingerprint, body_pattern, body_words, symbol_id, symbol_text
from memory.confidence import (
    OTHER_CONTAINER_MIN,
    SIMILAR_LOW,
    TIE_MARGIN,
    Confidence,
    for_similarity,
)
from memory.files import FileNow
from memory.model import Anchor, RefCheck, RefReason
from memory.results import ambiguous, place_of, whitespace_note
from memory.similarity import name_affinity, similarity, tokens
from memory.workspace import Workspace


@dataclass(frozen=True, slots=True)
class _Candidate:
    file: FileNow
    symbol: Symbol
    exact: bool
    equal: bool
    """Same normalized text (exact included)."""
    similarity: float
    same_container: bool
    same_file: bool

    @property
    def evidence(self) -> tuple[bool, bool, bool]:
        """Better evidence sorts higher: equal text, same container, same file."""
        return (self.equal, self.same_container, self.same_file)

    def ties(self, other: _Candidate) -> bool:
        """True when `other` is as good as this: same evidence, similarity within TIE_MARGIN."""
        close = abs(self.similarity - other.similarity) < TIE_MARGIN
        return other.evidence == self.evidence and close


def simple_name(anchor: Anchor) -> str:
    """The anchored symbol's own name (`issue` for `TokenStore.issue~2`)."""
    return (anchor.spec.symbol or "").rpartition(".")[2].partition("~")[0]


def _since(anchor: Anchor) -> str | None:
    """The commit the anchor's content is known at (None for a dirty anchor)."""
    return None if anchor.dirty else anchor.commit


def follow_symbol(ws: Workspace, anchor: Anchor, own: FileNow | None) -> RefCheck | None:
    """Where the anchored symbol went, or None when nothing qualifies (deleted)."""
    simple = simple_name(anchor)
    named = _by_name(ws, anchor, own, simple)
    if named:
        return _decide_by_name(anchor, named)
    return _by_body(ws, anchor, own, simple)


def _files(ws: Workspace, anchor: Anchor, own: FileNow | None) -> Iterator[FileNow]:
    """The own file first, then every other candidate file."""
    if own is not None:
        yield own
    for file in ws.candidate_files(anchor.commit):
        if own is None or file.path != own.path:
            yield file


def _by_name(ws: Workspace, anchor: Anchor, own: FileNow | None, simple: str) -> list[_Candidate]:
    found: list[_Candidate] = []
    wanted: list[str] | None = None
    for file in _files(ws, anchor, own):
        if not ws.mentions(file, simple):
            continue
        for symbol in ws.index(file).by_name(simple):
            exact = symbol.fingerprint.exact == anchor.content_hash
            equal = exact or symbol.fingerprint.normalized == anchor.fingerprint
            same_container = symbol.container == anchor.container
            if equal:
                score = 1.0
            else:
                wanted = tokens(anchor.text) if wanted is None else wanted
                score = similarity(wanted, tokens(symbol_text(file, symbol)))
                if score < (SIMILAR_LOW if same_container else OTHER_CONTAINER_MIN):
                    continue
            if not ws.history.symbol_is_new(_since(anchor), file.path, symbol_id(symbol)):
                continue
            same_file = own is not None and file.path == own.path
            found.append(_Candidate(file, symbol, exact, equal, score, same_container, same_file))
    return found


def _decide_by_name(anchor: Anchor, found: list[_Candidate]) -> RefCheck:
    best = max(found, key=lambda c: (c.evidence, c.similarity))
    ties = [c for c in found if best.ties(c)]
    if len(ties) > 1:
        places = [place_of(c.file.path, c.symbol) for c in ties]
        return ambiguous(anchor, places, f"{simple_name(anchor)} is found")
    place = place_of(best.file.path, best.symbol)
    if not best.equal:
        reason: RefReason = "container_changed_with_edits" if best.same_file else "moved_with_edits"
        return RefCheck(anchor, "modified", reason, place, for_similarity(best.similarity))
    note = () if best.exact else (whitespace_note(anchor),)
    moved: RefReason = "container_changed" if best.same_file else "moved_to_other_file"
    return RefCheck(anchor, "relocated", moved, place, Confidence.NAMED, warnings=note)


def _by_body(ws: Workspace, anchor: Anchor, own: FileNow | None, simple: str) -> RefCheck | None:
    body = anchor.body_fingerprint
    if body is None:
        return None

    def usable(file: FileNow, symbol: Symbol) -> bool:
        new = ws.history.symbol_is_new(_since(anchor), file.path, symbol_id(symbol))
        return symbol.name != simple and new

    found: list[tuple[FileNow, Symbol]] = []
    if own is not None:  # the old name may still be in the body: masked too
        found = [
            (own, symbol)
            for symbol in ws.index(own).symbols
            if (symbol.container == anchor.container or name_affinity(simple, symbol.name))
            and body_fingerprint(symbol_text(own, symbol), symbol.name, simple) == body
            and usable(own, symbol)
        ]
    words, pattern = body_words(anchor.text, simple), body_pattern(anchor.text, simple)
    for file in _files(ws, anchor, None) if not found else ():
        if own is not None and file.path == own.path:
            continue
        if ws.mentions_all(file, words) and pattern.search(ws.squeezed(file)):
            index = ws.index(file)
            found.extend(
                (file, s)
                for s in index.symbols
                if name_affinity(simple, s.name) and index.body(s) == body and usable(file, s)
            )
    if not found:
        return None
    places = [place_of(file.path, symbol) for file, symbol in found]
    if len(found) > 1:
        return ambiguous(anchor, places, f"the body of {simple} is found under another name")
    return RefCheck(anchor, "renamed", "same_body_new_name", places[0], Confidence.RENAMED)
