"""How the live layer behaves: timeouts, limits and the restart policy."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LiveSettings:
    """Tunables of the server pool; every duration is in seconds."""

    request_timeout: float = 10.0
    """How long one request may take before it fails alone with RequestTimeoutError."""
    hang_after_timeouts: int = 2
    """Requests in a row left unanswered after which a server is presumed hung,
    killed and restarted (the kill counts as a crash)."""
    cold_start_deadline: float = 8.0
    """Until a server's first non-empty answer, empty answers are retried this long."""
    max_open_documents: int = 64
    """Documents kept open per server; the least recently queried is closed first."""
    restart_limit: int = 3
    """After this many crashes within `restart_window`, the server is given up."""
    restart_window: float = 60.0
    """The window, in seconds, in which `restart_limit` crashes give a server up."""
    max_server_mb: int = 4096
    """A server whose processes hold more resident memory than this (MB) is restarted
    before the next query (0: no such cap)."""
    max_server_growth_mb: int = 32
    """A server whose processes grew past what they held once it first answered (its
    working size) by more than this (MB), or by a quarter of that size when more, is
    restarted before the next query (0: never for growth). Language servers keep
    memory for every edit they answered about (ty: about 25 KB per edit and
    references query); a restart gives it back."""
    recycle_interval: float = 60.0
    """Seconds a server runs after a start before its size can restart it, so a server
    that needs more is slowed, never stopped."""
