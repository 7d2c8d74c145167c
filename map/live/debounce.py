"""When to rebuild the map after file events: a pure, clock-free policy.

Events come in bursts (an editor save, a `git checkout` of thousands of
files). The map is rebuilt once per burst: after `quiet` seconds without a
new event, but never later than `max_wait` seconds after the burst's first
event, so a long stream of edits still gets rebuilds. One rebuild runs at a
time; whatever arrives while it runs is folded into exactly one more.

Time is passed in by the caller (any monotonic clock in seconds), which keeps
this module free of I/O and lets tests drive it with a fake clock.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_QUIET_S = 0.3
DEFAULT_MAX_WAIT_S = 2.0


@dataclass(frozen=True, slots=True)
class DebouncePolicy:
    """How long to wait: `quiet` seconds of silence, at most `max_wait` after the first event."""

    quiet: float = DEFAULT_QUIET_S
    max_wait: float = DEFAULT_MAX_WAIT_S

    def __post_init__(self) -> None:
        if self.quiet < 0 or self.max_wait < self.quiet:
            raise ValueError(
                f"debounce policy quiet={self.quiet}s, max_wait={self.max_wait}s: "
                "need 0 <= quiet <= max_wait"
            )


class RebuildScheduler:
    """Decides when a rebuild is due; the caller runs it and reports back.

    Use: `note_events(now)` for each batch of events; `deadline()` says when
    the next rebuild is due (None: nothing to do, or one is running); at or
    after it, `begin(now)` before running the rebuild and `finish()` after.
    """

    def __init__(self, policy: DebouncePolicy | None = None) -> None:
        self.policy = policy or DebouncePolicy()
        self._first: float | None = None
        self._last: float | None = None
        self._running = False

    @property
    def pending(self) -> bool:
        """True when events are waiting for a rebuild that has not started."""
        return self._first is not None

    @property
    def running(self) -> bool:
        """True between `begin` and `finish`."""
        return self._running

    def note_events(self, now: float) -> None:
        """Record that events arrived at `now`."""
        if self._first is None:
            self._first = now
        self._last = now

    def deadline(self) -> float | None:
        """When the next rebuild should start, or None when none should be scheduled now.

        While a rebuild runs this is None; events noted meanwhile make it due
        again once `finish` is called (at once, if `max_wait` has passed).
        """
        if self._running or self._first is None or self._last is None:
            return None
        return min(self._last + self.policy.quiet, self._first + self.policy.max_wait)

    def due(self, now: float) -> bool:
        """True when a rebuild should start at `now`."""
        deadline = self.deadline()
        return deadline is not None and now >= deadline

    def begin(self, now: float) -> None:
        """Start a rebuild covering every event noted so far.

        Raises RuntimeError when called while no rebuild is due, which is a
        bug in the caller, not a condition to handle.
        """
        if not self.due(now):
            raise RuntimeError(
                "RebuildScheduler.begin called when no rebuild is due; check due(now) first"
            )
        self._running = True
        self._first = None
        self._last = None

    def finish(self) -> None:
        """The running rebuild ended (successfully or not)."""
        self._running = False
