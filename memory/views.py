"""The JSON shapes of the memory answers (docs/contracts.md), built from the model.

One serializer for both surfaces: `--json` prints these and the memory_*
MCP tools return them as `data` (bridge/memory_shapes.py publishes them as
output schemas). Keys are camelCase; enumerations are `Literal`s (and
`Confidence`), so the schema lists their values. Outside scripts depend on
the key names: they change only with the contract.
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from memory.confidence import Confidence
from memory.live import live_of
from memory.model import (
    Anchor,
    ChangeKind,
    LiveReason,
    Memory,
    MemoryCheck,
    MemoryStatus,
    Origin,
    RefCheck,
    RefReason,
    RefStatus,
    RefType,
)
from memory.recall import Hit, Recalled

SHORT_COMMIT = 10
"""Characters of a commit ID shown (`since`)."""


class SinceView(TypedDict):
    """The commit that renamed the symbol (or its container): short ID and subject."""

    commit: str
    subject: str


class RefResultView(TypedDict):
    """One reference checked: where it is now, why it has this status, what the
    language server said of the symbol found; for a modified one, what kind of change
    (`change`, `changedLines`); for one followed through a rename in history, the
    commit that made it (`since`)."""

    ref: str
    status: RefStatus
    path: str | None
    symbol: str | None
    startLine: int | None
    endLine: int | None
    confidence: Confidence | None
    reason: RefReason
    liveConfirmed: bool | None
    liveReason: LiveReason
    candidates: NotRequired[list[str]]
    """An ambiguous result's equally good places (`path#Qual.Name lines A-B`)."""
    change: NotRequired[ChangeKind]
    changedLines: NotRequired[int]
    since: NotRequired[SinceView]


class MemoryCheckView(TypedDict):
    """A memory's status and its references' results (`warnings` is an addition)."""

    id: str
    status: MemoryStatus
    refs: list[RefResultView]
    warnings: list[str]


class StoredRefView(TypedDict):
    """A reference as stored: what it pointed at, where, when, with what content."""

    ref: str
    type: RefType
    path: str
    symbol: str | None
    startLine: int | None
    endLine: int | None
    commit: str | None
    branch: str | None
    dirty: bool
    contentHash: str
    fingerprint: str
    text: str


class SavedView(TypedDict):
    """What `memory add` (and save, verify) answer."""

    id: str
    refs: list[StoredRefView]


class SupersededView(TypedDict):
    """What supersede answers: the new memory, the one it replaces, its references."""

    id: str
    supersedes: str
    refs: list[StoredRefView]


class RetiredView(TypedDict):
    """What retire answers."""

    id: str
    status: MemoryStatus


class MemoryView(TypedDict):
    """A memory as listed or shown."""

    id: str
    text: str
    kind: str
    tags: list[str]
    origin: Origin
    status: MemoryStatus
    createdAt: str
    lastUsedAt: str | None
    lastVerifiedAt: str | None
    supersededBy: str | None
    refs: list[str]


class RecallHitView(TypedDict):
    """A recalled memory, its freshness-adjusted score, its check and what to do."""

    id: str
    text: str
    kind: str
    tags: list[str]
    status: MemoryStatus
    score: float
    lastVerifiedAt: str | None
    warning: str | None
    check: MemoryCheckView


class RecallView(TypedDict):
    """What recall answers: the hits, best first, and how many stale ones were left out."""

    query: str
    hits: list[RecallHitView]
    staleHidden: int


class ChecksView(TypedDict):
    """What check answers: one result per memory."""

    memories: list[MemoryCheckView]


def ref_result(result: RefCheck) -> RefResultView:
    """The contract shape of one reference check."""
    place = result.place
    live = live_of(result)
    view = RefResultView(
        ref=result.anchor.ref,
        status=result.status,
        path=place.path if place else None,
        symbol=place.symbol if place else None,
        startLine=place.start_line if place else None,
        endLine=place.end_line if place else None,
        confidence=None if result.confidence is None else Confidence(result.confidence),
        reason=result.reason,
        liveConfirmed=live.confirmed,
        liveReason=live.reason,
    )
    if result.candidates:
        view["candidates"] = [str(c) for c in result.candidates]
    if result.change is not None:
        view["change"] = result.change.kind
        view["changedLines"] = result.change.lines
    if result.since is not None:
        view["since"] = SinceView(
            commit=result.since.commit[:SHORT_COMMIT], subject=result.since.subject
        )
    return view


def memory_check(result: MemoryCheck) -> MemoryCheckView:
    """The contract shape of one memory's check."""
    return MemoryCheckView(
        id=result.memory.id,
        status=result.status,
        refs=[ref_result(r) for r in result.refs],
        warnings=list(result.warnings),
    )


def checks(results: list[MemoryCheck]) -> ChecksView:
    """The answer to check, in the order given."""
    return ChecksView(memories=[memory_check(r) for r in results])


def stored_ref(anchor: Anchor) -> StoredRefView:
    """The contract shape of one stored reference."""
    return StoredRefView(
        ref=anchor.ref,
        type=anchor.spec.type,
        path=anchor.spec.path,
        symbol=anchor.spec.symbol,
        startLine=anchor.start_line,
        endLine=anchor.end_line,
        commit=anchor.commit,
        branch=anchor.branch,
        dirty=anchor.dirty,
        contentHash=anchor.content_hash,
        fingerprint=anchor.fingerprint,
        text=anchor.text,
    )


def saved(memory: Memory) -> SavedView:
    """The answer to add/save/verify: the ID and the references as stored."""
    return SavedView(id=memory.id, refs=[stored_ref(a) for a in memory.anchors])


def superseded(new: Memory, old_id: str) -> SupersededView:
    """The answer to supersede: the new memory and the ID it replaces."""
    return SupersededView(id=new.id, supersedes=old_id, refs=[stored_ref(a) for a in new.anchors])


def retired(memory: Memory) -> RetiredView:
    """The answer to retire."""
    return RetiredView(id=memory.id, status=memory.status)


def memory_view(memory: Memory) -> MemoryView:
    """A memory for listing and showing."""
    return MemoryView(
        id=memory.id,
        text=memory.text,
        kind=memory.kind,
        tags=list(memory.tags),
        origin=memory.origin,
        status=memory.status,
        createdAt=memory.created_at,
        lastUsedAt=memory.last_used_at,
        lastVerifiedAt=memory.last_verified_at,
        supersededBy=memory.superseded_by,
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
        lastVerifiedAt=memory.last_verified_at,
        warning=hit.warning,
        check=memory_check(hit.check),
    )


def recalled(query: str, found: Recalled) -> RecallView:
    """The answer to recall."""
    return RecallView(
        query=query, hits=[recall_hit(h) for h in found.hits], staleHidden=found.stale_hidden
    )


def ref_line(result: RefCheck) -> str:
    """One line for people: status, reference, reason (and the kind of change), where it
    is now when it moved, the commit that renamed it, and what the language server said
    of it when asked."""
    why: str = result.reason
    if result.change is not None:
        lines = result.change.lines
        why += f"; {result.change.kind}, {lines} line{'' if lines == 1 else 's'} changed"
    line = f"{result.status:<9} {result.anchor.ref} ({why})"
    if result.place is not None and result.status != "valid":
        line += f" -> {result.place}"
    if result.since is not None:
        line += f" since {result.since.commit[:SHORT_COMMIT]} ({result.since.subject})"
    if result.live is not None:
        line += f" [live: {result.live.reason.replace('_', ' ')}]"
    return line


def hidden_line(count: int) -> str:
    """The line that says stale matches were left out of a recall."""
    noun = "memory" if count == 1 else "memories"
    return f"{count} stale {noun} hidden: recall with include_stale (--include-stale) to see them"
