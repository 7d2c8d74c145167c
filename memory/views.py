"""The JSON shapes of the CLI contract (docs/contracts.md), built from the model.

These TypedDicts are what `--json` prints and what the MCP tools return as
data; outside scripts depend on the key names, so they change only with the
contract.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from memory.model import (
    Anchor,
    LiveAnswer,
    Memory,
    MemoryCheck,
    MemoryStatus,
    RefCheck,
    RefStatus,
)
from memory.recall import Hit


class RefResultView(TypedDict):
    """One reference checked: where it is now, and why it has this status."""

    ref: str
    status: RefStatus
    path: str | None
    symbol: str | None
    start_line: int | None
    end_line: int | None
    confidence: float | None
    reason: str
    candidates: NotRequired[list[str]]
    """An ambiguous result's equally good places (`path#Qual.Name lines A-B`)."""
    live: NotRequired[LiveAnswer]
    """confirmed, refuted or unavailable: what a language server said of the symbol
    found (present when one was asked: relocated, renamed, modified symbols)."""


class MemoryCheckView(TypedDict):
    """A memory's status and its references' results (`warnings` is an addition)."""

    id: str
    status: MemoryStatus
    refs: list[RefResultView]
    warnings: list[str]


class StoredRefView(TypedDict):
    """A reference as stored: what it pointed at, where, when, with what content."""

    ref: str
    type: str
    path: str
    symbol: str | None
    start_line: int | None
    end_line: int | None
    commit: str | None
    branch: str | None
    dirty: bool
    content_hash: str
    fingerprint: str
    text: str


class SavedView(TypedDict):
    """What `memory add` (and save, supersede, verify) answer."""

    id: str
    refs: list[StoredRefView]


class MemoryView(TypedDict):
    """A memory as listed or shown."""

    id: str
    text: str
    kind: str
    tags: list[str]
    origin: str
    status: MemoryStatus
    created_at: str
    last_used_at: str | None
    last_verified_at: str | None
    superseded_by: str | None
    refs: list[str]


class RecallHitView(TypedDict):
    """A recalled memory, its freshness-adjusted score, its check and what to do."""

    id: str
    text: str
    kind: str
    tags: list[str]
    status: MemoryStatus
    score: float
    last_verified_at: str | None
    warning: str | None
    check: MemoryCheckView


def ref_result(result: RefCheck) -> RefResultView:
    """The contract shape of one reference check."""
    place = result.place
    view = RefResultView(
        ref=result.anchor.ref,
        status=result.status,
        path=place.path if place else None,
        symbol=place.symbol if place else None,
        start_line=place.start_line if place else None,
        end_line=place.end_line if place else None,
        confidence=result.confidence,
        reason=result.reason,
    )
    if result.candidates:
        view["candidates"] = [str(c) for c in result.candidates]
    if result.live is not None:
        view["live"] = result.live
    return view


def memory_check(result: MemoryCheck) -> MemoryCheckView:
    """The contract shape of one memory's check."""
    return MemoryCheckView(
        id=result.memory.id,
        status=result.status,
        refs=[ref_result(r) for r in result.refs],
        warnings=list(result.warnings),
    )


def stored_ref(anchor: Anchor) -> StoredRefView:
    """The contract shape of one stored reference."""
    return StoredRefView(
        ref=anchor.ref,
        type=anchor.spec.type,
        path=anchor.spec.path,
        symbol=anchor.spec.symbol,
        start_line=anchor.start_line,
        end_line=anchor.end_line,
        commit=anchor.commit,
        branch=anchor.branch,
        dirty=anchor.dirty,
        content_hash=anchor.content_hash,
        fingerprint=anchor.fingerprint,
        text=anchor.text,
    )


def saved(memory: Memory) -> SavedView:
    """The answer to add/save: the ID and the references as stored."""
    return SavedView(id=memory.id, refs=[stored_ref(a) for a in memory.anchors])


def memory_view(memory: Memory) -> MemoryView:
    """A memory for listing and showing."""
    return MemoryView(
        id=memory.id,
        text=memory.text,
        kind=memory.kind,
        tags=list(memory.tags),
        origin=memory.origin,
        status=memory.status,
        created_at=memory.created_at,
        last_used_at=memory.last_used_at,
        last_verified_at=memory.last_verified_at,
        superseded_by=memory.superseded_by,
        refs=[a.ref for a in memory.anchors],
    )


def recall_hit(hit: Hit) -> RecallHitView:
    """A recall hit: the memory, its score, its check and the warning to act on."""
    memory = hit.check.memory
    return RecallHitView(
        id=memory.id,
        text=memory.text,
        kind=memory.kind,
        tags=list(memory.tags),
        status=hit.check.status,
        score=hit.score,
        last_verified_at=memory.last_verified_at,
        warning=hit.warning,
        check=memory_check(hit.check),
    )


def ref_line(result: RefCheck) -> str:
    """One line for people: status, reference, reason, and where it is now when it moved."""
    line = f"{result.status:<9} {result.anchor.ref} ({result.reason})"
    if result.place is not None and result.status != "valid":
        line += f" -> {result.place}"
    return line


def hidden_line(count: int) -> str:
    """The line that says stale matches were left out of a recall."""
    noun = "memory" if count == 1 else "memories"
    return f"{count} stale {noun} hidden: recall with include_stale (--include-stale) to see them"
