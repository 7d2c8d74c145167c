"""Recall: full-text search (FTS5, BM25), each hit checked, ranked with freshness.

Every hit carries its check and a one-line warning an agent can act on.
Stale memories are left out unless asked for; historical ones come labelled;
superseded and retired ones never come back from recall (list and show
still find them).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from memory.check import DependencyProbe, check_memories
from memory.model import CheckSettings, MemoryCheck, MemoryStatus
from memory.stores import MemoryBackend
from memory.workspace import Workspace

FRESH_DAYS = 30
"""A verification younger than this counts as fresh."""
VERIFIED_FRESH_BONUS = 1.25
ALL_VALID_BONUS = 1.1
STALE_PENALTY = 0.6
HISTORICAL_PENALTY = 0.4
DELETED_REF_PENALTY = 0.8
CANDIDATES_PER_HIT = 5
MIN_CANDIDATES = 50
NEVER_RECALLED: frozenset[MemoryStatus] = frozenset({"superseded", "retired"})


@dataclass(frozen=True, slots=True)
class Hit:
    """A recalled memory with its check, adjusted score and warning."""

    check: MemoryCheck
    score: float
    warning: str | None


@dataclass(frozen=True, slots=True)
class Recalled:
    """The hits of one recall, and how many stale matches were left out of them."""

    hits: list[Hit]
    stale_hidden: int
    """Stale memories that matched but were left out (`include_stale` shows them)."""


def recall(
    store: MemoryBackend,
    ws: Workspace,
    query: str,
    *,
    limit: int = 10,
    include_stale: bool = False,
    now: datetime | None = None,
    dependencies: DependencyProbe | None = None,
    settings: CheckSettings | None = None,
) -> Recalled:
    """The best `limit` memories for `query`, checked now, freshest first among equals.

    A hit's score is its BM25 relevance relative to the best match (0-1],
    times its freshness factor.
    """
    when = now or datetime.now(UTC)
    found = store.search(query, max(limit * CANDIDATES_PER_HIT, MIN_CANDIDATES))
    best = max((score for _, score in found), default=0.0)
    relevance = {m.id: score / best if best > 0 else 1.0 for m, score in found}
    candidates = [m for m, _ in found if m.status not in NEVER_RECALLED]
    hits, hidden = [], 0
    for result in check_memories(
        ws, candidates, dependencies=dependencies, settings=settings or CheckSettings()
    ):
        if result.status == "stale" and not include_stale:
            hidden += 1
            continue
        score = relevance[result.memory.id] * freshness(result, when)
        hits.append(Hit(result, round(score, 4), warning(result)))
    hits.sort(key=lambda h: -h.score)
    return Recalled(hits[:limit], hidden)


def freshness(result: MemoryCheck, now: datetime) -> float:
    """The factor a hit's relevance is multiplied by: bonus when fresh, penalty when not."""
    factor = 1.0
    statuses = [r.status for r in result.refs]
    if result.status == "stale":
        factor *= STALE_PENALTY
    elif result.status == "historical":
        factor *= HISTORICAL_PENALTY
    elif all(s == "valid" for s in statuses):
        factor *= ALL_VALID_BONUS
        verified = result.memory.last_verified_at
        if verified and now - _parse(verified) <= timedelta(days=FRESH_DAYS):
            factor *= VERIFIED_FRESH_BONUS
    factor *= DELETED_REF_PENALTY ** statuses.count("deleted")
    return factor


def warning(result: MemoryCheck) -> str | None:
    """One line saying how far to trust the memory and what to do next, or None."""
    memory_id = result.memory.id
    parts: list[str] = []
    if result.status == "historical":
        parts.append(
            "HISTORICAL: all the code this describes was deleted; treat it as history, "
            f"or retire {memory_id}"
        )
    else:
        for r in result.refs:
            where = str(r.place) if r.place else "nowhere"
            if r.status == "modified":
                parts.append(f"{r.anchor.ref} changed since saved (now {where}): re-read it")
            elif r.status == "renamed":
                parts.append(f"{r.anchor.ref} was renamed (now {where})")
            elif r.status == "deleted":
                parts.append(f"{r.anchor.ref} no longer exists")
            elif r.status == "unknown":
                parts.append(f"{r.anchor.ref} could not be checked ({r.reason})")
            elif r.status == "relocated":
                parts.append(f"{r.anchor.ref} moved to {where}")
        if parts:
            action = (
                f"then verify {memory_id} if it still holds, else supersede it"
                if result.status == "stale"
                else f"verify {memory_id} to re-anchor it"
            )
            prefix = "STALE: " if result.status == "stale" else ""
            parts = [prefix + "; ".join(parts) + "; " + action]
    parts.extend(result.warnings)
    return " | ".join(parts) if parts else None


def _parse(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))
