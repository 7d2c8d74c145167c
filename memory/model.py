"""The memory vocabulary of DESIGN.md as plain, typed data.

A `Memory` holds text and one or more `Anchor`s: a reference (`RefSpec`:
file, symbol or line range) plus everything captured at save time to find
it again. A check yields one `RefCheck` per anchor and one `MemoryCheck`
per memory, worst case first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, get_args

RefType = Literal["file", "symbol", "line_range"]
RefStatus = Literal["valid", "relocated", "renamed", "modified", "deleted", "unknown"]
MemoryStatus = Literal["active", "stale", "historical", "superseded", "retired", "draft"]
Origin = Literal["agent", "human"]
RefReason = Literal[
    "unchanged", "whitespace_only",  # valid
    "lines_moved", "git_rename", "content_moved", "container_changed",
    "moved_to_other_file",  # relocated (whitespace_only too, when reformatted elsewhere)
    "same_body_new_name",  # renamed
    "file_changed_since_commit", "file_changed", "renamed_with_edits", "symbol_changed",
    "lines_changed", "moved_with_edits", "container_changed_with_edits",  # modified
    "file_deleted", "symbol_not_found", "lines_gone", "not_found_no_history",
    "not_found_history_cut",  # deleted
    "unreadable", "invalid_ref", "ambiguous",  # unknown
]  # fmt: skip
"""Why a reference has its status (docs/contracts.md#reference-statuses)."""
ChangeKind = Literal["cosmetic", "annotations", "signature", "body"]
"""What kind of change a modified reference went through (`memory.kinds`)."""
LiveReason = Literal[
    "listed", "not_listed", "no_server", "server_failed", "over_budget", "skipped", "not_needed"
]
"""Why a live confirmation says what it says (see `LiveCheck`)."""

REF_REASONS: frozenset[str] = frozenset(get_args(RefReason))

MEMORY_STATUSES: tuple[MemoryStatus, ...] = (
    "active",
    "stale",
    "historical",
    "superseded",
    "retired",
    "draft",
)
DERIVED_STATUSES: frozenset[MemoryStatus] = frozenset({"active", "stale", "historical"})
"""Statuses a check may change; the others are set by people or agents and stay."""

ORIGINS: tuple[Origin, ...] = ("agent", "human")


@dataclass(frozen=True, slots=True)
class RefSpec:
    """A parsed reference: `path`, `path#Qual.Name` or `path:START-END`.

    `path` is repo-relative POSIX; lines are 1-based and inclusive.
    """

    type: RefType
    path: str
    symbol: str | None = None
    start_line: int | None = None
    end_line: int | None = None

    def __str__(self) -> str:
        if self.type == "symbol":
            return f"{self.path}#{self.symbol}"
        if self.type == "line_range":
            return f"{self.path}:{self.start_line}-{self.end_line}"
        return self.path


@dataclass(frozen=True, slots=True)
class Anchor:
    """A reference as stored: where it pointed, at which commit, with what content.

    `content_hash` is the exact hash of the referenced text, `fingerprint`
    its normalized hash (blind to whitespace and comments), `body_fingerprint`
    the normalized hash with the symbol's own name masked (finds renames),
    `file_hash` the hash of the whole file. `text` is the referenced text,
    capped at `TEXT_CAP` characters (`truncated` says so). Lines are where the
    referenced text was at save time (for symbols too).
    """

    spec: RefSpec
    commit: str | None
    branch: str | None
    dirty: bool
    content_hash: str
    fingerprint: str
    file_hash: str
    text: str
    truncated: bool = False
    start_line: int | None = None
    end_line: int | None = None
    body_fingerprint: str | None = None
    container: tuple[str, ...] = ()

    @property
    def ref(self) -> str:
        """The reference as written (`path#Qual.Name`, ...)."""
        return str(self.spec)


@dataclass(frozen=True, slots=True)
class Memory:
    """A note tied to code. Times are ISO 8601 UTC strings."""

    id: str
    text: str
    kind: str
    tags: tuple[str, ...]
    origin: Origin
    status: MemoryStatus
    created_at: str
    anchors: tuple[Anchor, ...]
    last_used_at: str | None = None
    last_verified_at: str | None = None
    superseded_by: str | None = None


@dataclass(frozen=True, slots=True)
class Place:
    """Where a reference points now: path, symbol and 1-based inclusive lines."""

    path: str
    symbol: str | None = None
    start_line: int | None = None
    end_line: int | None = None

    def __str__(self) -> str:
        where = f"{self.path}#{self.symbol}" if self.symbol else self.path
        if self.start_line is None:
            return where
        return f"{where} lines {self.start_line}-{self.end_line}"


@dataclass(frozen=True, slots=True)
class LiveCheck:
    """What a language server said of a symbol the check found (docs/contracts.md).

    `confirmed` is True when its document symbols list the symbol at the
    reported lines (`listed`), False when they do not (`not_listed`), None
    when nobody could say: `no_server` (none installed for the file's
    language), `server_failed` (crashed, refused, no answer in time),
    `over_budget` (the check's files or time for live questions were spent),
    `skipped` (not asked: live confirmation off, or a surface that does not
    confirm), `not_needed` (nothing was found elsewhere to confirm: valid,
    deleted, unknown, a file or a line range).
    """

    confirmed: bool | None
    reason: LiveReason


@dataclass(frozen=True, slots=True)
class Since:
    """The commit that renamed a reference's symbol (or its container), found in history."""

    commit: str
    """The full commit ID."""
    subject: str
    """The first line of its message."""


@dataclass(frozen=True, slots=True)
class CodeChange:
    """What kind of change a modified reference went through (`memory.kinds`)."""

    kind: ChangeKind
    lines: int
    """How many lines hold something that changed (the larger side's count)."""


@dataclass(frozen=True, slots=True)
class RefCheck:
    """One reference checked against the code as it is now.

    `place` is where it is now when found (the proposed new anchor), else
    None. `confidence` (a `memory.confidence.Confidence` level) is set when
    the place was inferred: relocated, renamed, modified elsewhere.
    `candidates` lists the equally good places of an ambiguous result
    (`unknown`, reason `ambiguous`). `live` is what a language server said
    of the symbol at `place` (`memory.live`); None when it was not asked.
    `change` says what kind of change a `modified` result went through;
    `since` names the commit that renamed the symbol or its container, when
    history told.
    """

    anchor: Anchor
    status: RefStatus
    reason: RefReason
    place: Place | None = None
    confidence: float | None = None
    warnings: tuple[str, ...] = field(default=())
    candidates: tuple[Place, ...] = field(default=())
    live: LiveCheck | None = None
    change: CodeChange | None = None
    since: Since | None = None


@dataclass(frozen=True, slots=True)
class MemoryCheck:
    """A memory's references checked, and the status that follows from them."""

    memory: Memory
    status: MemoryStatus
    refs: tuple[RefCheck, ...]
    warnings: tuple[str, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class CheckSettings:
    """`[tool.codeanchor.memory]`: how a check weighs what changed."""

    cosmetic_changes_stale: bool = False
    """A reference changed only cosmetically (whitespace, comments, docstrings) or in its
    type annotations makes its memory stale (by default such a memory stays active)."""


def derive_status(statuses: tuple[RefStatus, ...]) -> MemoryStatus:
    """Worst case first: all deleted -> historical; any problem -> stale; else active."""
    if statuses and all(s == "deleted" for s in statuses):
        return "historical"
    if all(s in ("valid", "relocated") for s in statuses):
        return "active"
    return "stale"


def effective_status(stored: MemoryStatus, derived: MemoryStatus) -> MemoryStatus:
    """Superseded, retired and draft stay; otherwise the check decides."""
    return derived if stored in DERIVED_STATUSES else stored
