"""When a running language server has outgrown its memory and is restarted.

A server's working size is the most its processes held at the weighings after it
first answered and within `recycle_interval` of its start (the workspace it
loaded), or at the first weighing after it answered when that came later. Past
its bound (`LiveSettings.max_server_mb`, and that working size plus
`max_server_growth_mb` or its catalog entry's `memory_swing` share of it, a
quarter unless told, whichever is more), the session restarts it between two
queries. Weighed at most every WEIGH_EVERY_S, and never
restarted within `recycle_interval` of its start.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from lsp.footprint import tree_rss_mb
from lsp.settings import LiveSettings

WEIGH_EVERY_S = 10.0
"""How often a running server's memory is read (before a query, never in between)."""


@dataclass(frozen=True, slots=True)
class Outgrown:
    """A server to restart: what it held, and the bound it passed (both in MB)."""

    held_mb: float
    bound_mb: float


class Recycler:
    """The memory of one server over its starts: working size, weighings, restarts."""

    def __init__(
        self,
        settings: LiveSettings,
        weigh: Callable[[int], float | None] = tree_rss_mb,
        *,
        swing: float = 0.25,
    ) -> None:
        self._settings = settings
        self._swing = swing
        self._weigh = weigh
        self._started_at = 0.0
        self._weighed_at = float("-inf")
        self.working_mb: float | None = None
        """The most the running server held once it answered, in its first
        `recycle_interval` (None before it answered)."""
        self.held_mb: float | None = None
        """What it held at the last weighing."""
        self.recycles = 0
        """How many times a server was restarted for its size."""

    def started(self, now: float) -> None:
        """A server (re)started at `now`: its working size is weighed anew."""
        self._started_at = now
        self.working_mb = self.held_mb = None

    def bound_mb(self) -> float | None:
        """The size the running server may not pass (None: no bound yet, or none set)."""
        cap = self._settings.max_server_mb or None
        growth = self._settings.max_server_growth_mb
        if not growth or self.working_mb is None:
            return cap
        grown = self.working_mb + max(growth, self.working_mb * self._swing)
        return grown if cap is None else min(cap, grown)

    def outgrown(self, pid: int, *, answered: bool, now: float) -> Outgrown | None:
        """Weigh the server `pid` (when due): Outgrown when it is to be restarted now.
        `answered`: it gave a non-empty answer since its start (its workspace is in)."""
        if now - self._weighed_at < WEIGH_EVERY_S:
            return None
        if not (self._settings.max_server_mb or self._settings.max_server_growth_mb):
            return None
        self._weighed_at = now
        held = self._weigh(pid)
        if held is None:
            return None
        self.held_mb = held
        young = now - self._started_at < self._settings.recycle_interval
        if answered and (young or self.working_mb is None):
            self.working_mb = max(held, self.working_mb or 0.0)
        bound = self.bound_mb()
        if young or bound is None or held <= bound:
            return None
        self.recycles += 1
        return Outgrown(held, bound)
