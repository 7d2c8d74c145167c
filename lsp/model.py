"""What live queries return: plain, typed, repo-relative results.

Positions are LSP positions (0-based line, UTF-16 column) in `Span`; each
result also carries the 1-based line a person reads and that line's text.
Paths are repo-relative POSIX paths, or absolute for files outside the root
(a standard library stub, a system header).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

DiagnosticsSource = Literal["pull", "published"]
"""How a document's diagnostics were had: asked for (pull), or as the server published them."""


@dataclass(frozen=True, slots=True)
class Span:
    """A range in LSP positions, end exclusive."""

    start_line: int
    start_char: int
    end_line: int
    end_char: int

    @property
    def last_line(self) -> int:
        """The 1-based, inclusive last line it covers (an end at column 0 of a later
        line ends on the line before)."""
        if self.end_char == 0 and self.end_line > self.start_line:
            return self.end_line
        return self.end_line + 1


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a file, as a server reported it."""

    path: str
    span: Span
    line: int
    """1-based line of the start."""
    text: str
    """The text of that line, stripped of its newline (capped)."""


@dataclass(frozen=True, slots=True)
class HoverInfo:
    """What the server shows on hover: markdown or plain text."""

    contents: str
    span: Span | None


@dataclass(frozen=True, slots=True)
class DocumentSymbolNode:
    """One node of a file's hierarchical outline."""

    name: str
    kind: str
    """The LSP SymbolKind name in lower case: "class", "method", ..."""
    detail: str | None
    span: Span
    selection: Span
    children: tuple[DocumentSymbolNode, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class WorkspaceSymbol:
    """A symbol found by name across the workspace."""

    name: str
    kind: str
    container: str | None
    location: Location


@dataclass(frozen=True, slots=True)
class CallSite:
    """A caller or callee in the call hierarchy, with where the calls are."""

    name: str
    kind: str
    detail: str | None
    location: Location
    """Where the caller/callee itself is defined (its selection range)."""
    call_spans: tuple[Span, ...]
    """Where the calls happen: in the caller's file for incoming calls,
    in the queried file for outgoing calls."""


@dataclass(frozen=True, slots=True)
class ServerStatus:
    """One language server of the pool, as `status()` reports it."""

    name: str
    language: str
    """The language it was first started for (a server may serve several)."""
    pid: int | None
    state: str
    """"running", "stopped" (not started, or crashed and not yet restarted) or "given_up"."""
    restarts: int
    """Starts after the first: after a crash, a hang, or outgrowing its memory bound."""
    recycles: int = 0
    """Of those, the restarts for its size (`LiveSettings.max_server_growth_mb`)."""
    held_mb: float | None = None
    """What its processes held at the last weighing (None: not weighed yet)."""
    bound_mb: float | None = None
    """The size past which it is restarted (None: no bound yet, or none set)."""
