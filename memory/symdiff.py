"""The symbols a change added, removed, modified, moved and renamed, file by file.

The matching is the memory check's (`memory.follow`), applied to two sides of a
diff instead of an anchor and the code now:

    same node ID       normalized text differs -> modified (a reformat or a
                       comment edit is no change)
    same name          elsewhere (another file or container): equal normalized
                       text, or similar text (SIMILAR_LOW and up in the same
                       container, OTHER_CONTAINER_MIN under another) -> moved
    another name       the same name-blind body, in the same file lineage and
                       container, or with a name close to the old one -> renamed
    left over          removed (old side), added (new side)

A container whose members changed is not listed as modified for that alone,
and members of a container listed as added, removed, moved or renamed are
left out (the container stands for them).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from map import Outline, Symbol
from memory.bodies import body_fingerprint
from memory.confidence import OTHER_CONTAINER_MIN, SIMILAR_LOW
from memory.similarity import name_affinity, similarity, tokens

SymbolChangeKind = Literal["added", "removed", "modified", "moved", "renamed"]


@dataclass(frozen=True, slots=True)
class Side:
    """One file on one side of the diff: its symbols and its text."""

    outline: Outline
    text: str
    lines: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "lines", tuple(self.text.splitlines()))

    def lines_of(self, symbol: Symbol) -> str:
        """The whole lines `symbol` spans."""
        return "\n".join(self.lines[symbol.range.first_line - 1 : symbol.range.last_line])


@dataclass(frozen=True, slots=True)
class SymbolChange:
    """One changed symbol: where it is now (`node_id`) and where it was (`old_id`)."""

    change: SymbolChangeKind
    node_id: str | None
    old_id: str | None
    kind: str
    lines: tuple[int, int] | None
    """Where it is now (1-based, inclusive); for a removed symbol, where it was."""
    similarity: float | None = None
    """For moved and renamed symbols: how alike the two texts are (1.0 equal)."""


@dataclass(frozen=True, slots=True)
class _Entry:
    side: Side
    symbol: Symbol


def diff_symbols(
    old: Mapping[str, Side], new: Mapping[str, Side], renamed: Mapping[str, str]
) -> list[SymbolChange]:
    """The symbol changes between `old` and `new` files (keyed by path; `renamed`
    maps an old path to its new one), in new-path order."""
    olds = {s.node_id: _Entry(side, s) for side in old.values() for s in side.outline.symbols}
    news = {s.node_id: _Entry(side, s) for side in new.values() for s in side.outline.symbols}
    found: list[SymbolChange] = []
    for node_id in [n for n in olds if n in news]:
        before, after = olds.pop(node_id), news.pop(node_id)
        if before.symbol.fingerprint.normalized != after.symbol.fingerprint.normalized:
            found.append(_change("modified", after, after=after, before=before))
    found.extend(_moved(olds, news))
    found.extend(_renamed(olds, news, renamed))
    found.extend(_change("removed", e, after=None, before=e) for e in olds.values())
    found.extend(_change("added", e, after=e, before=None) for e in news.values())
    return sorted(_outermost(found), key=_order)


def _moved(olds: dict[str, _Entry], news: dict[str, _Entry]) -> Iterable[SymbolChange]:
    """Same name, other file or container: equal first, then the most similar."""
    for old_id, before in list(olds.items()):
        same_name = [e for e in news.values() if e.symbol.name == before.symbol.name]
        best: tuple[float, _Entry] | None = None
        wanted: list[str] | None = None
        for after in same_name:
            if after.symbol.fingerprint.normalized == before.symbol.fingerprint.normalized:
                score = 1.0
            else:
                wanted = tokens(before.side.lines_of(before.symbol)) if wanted is None else wanted
                score = similarity(wanted, tokens(after.side.lines_of(after.symbol)))
                same = after.symbol.container == before.symbol.container
                if score < (SIMILAR_LOW if same else OTHER_CONTAINER_MIN):
                    continue
            if best is None or score > best[0]:
                best = (score, after)
        if best is not None:
            del olds[old_id], news[best[1].symbol.node_id]
            yield _change("moved", best[1], after=best[1], before=before, score=round(best[0], 2))


def _renamed(
    olds: dict[str, _Entry], news: dict[str, _Entry], renamed: Mapping[str, str]
) -> Iterable[SymbolChange]:
    """Another name, the same name-blind body: in the same file lineage and container
    (the old name may still appear in the body, as the memory check allows), or
    anywhere with a name close to the old one."""
    bodies: dict[str, list[_Entry]] = {}
    for entry in news.values():
        text = entry.side.lines_of(entry.symbol)
        bodies.setdefault(body_fingerprint(text, entry.symbol.name), []).append(entry)
    for old_id, before in list(olds.items()):
        old = before.symbol
        body = body_fingerprint(before.side.lines_of(old), old.name)
        lineage = renamed.get(before.side.outline.path, before.side.outline.path)
        candidates = [
            e
            for e in news.values()
            if e.side.outline.path == lineage
            and e.symbol.container == old.container
            and body_fingerprint(e.side.lines_of(e.symbol), e.symbol.name, old.name) == body
        ] or [
            e
            for e in bodies.get(body, [])
            if e.symbol.node_id in news and name_affinity(old.name, e.symbol.name)
        ]
        if len(candidates) == 1:
            del olds[old_id], news[candidates[0].symbol.node_id]
            yield _change("renamed", candidates[0], after=candidates[0], before=before, score=1.0)


def _outermost(found: list[SymbolChange]) -> list[SymbolChange]:
    """Leave out members of containers that stand for them, and containers modified
    only through their members."""
    whole = {c.node_id for c in found if c.change != "modified"} | {
        c.old_id for c in found if c.change != "modified"
    }
    changed_members = {_parent(i) for c in found for i in (c.node_id, c.old_id) if i is not None}
    kept = []
    for c in found:
        parents = {_parent(i) for i in (c.node_id, c.old_id) if i is not None}
        if parents & whole:
            continue
        if c.change == "modified" and c.node_id in changed_members:
            continue
        kept.append(c)
    return kept


def _parent(node_id: str) -> str:
    """The node ID of the symbol containing `node_id` (the file for a top-level one)."""
    path, _, qual = node_id.partition("#")
    head = qual.partition("~")[0].rpartition(".")[0]
    return f"{path}#{head}" if head else path


def _change(
    change: SymbolChangeKind,
    shown: _Entry,
    *,
    after: _Entry | None,
    before: _Entry | None,
    score: float | None = None,
) -> SymbolChange:
    """`shown` gives the kind and lines: the new side, or the old one when removed."""
    symbol = shown.symbol
    return SymbolChange(
        change=change,
        node_id=None if after is None else after.symbol.node_id,
        old_id=None if before is None else before.symbol.node_id,
        kind=symbol.kind,
        lines=(symbol.range.first_line, symbol.range.last_line),
        similarity=score,
    )


def _order(change: SymbolChange) -> tuple[str, int]:
    return (change.node_id or change.old_id or "", change.lines[0] if change.lines else 0)
