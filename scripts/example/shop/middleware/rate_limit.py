"""Rate limiting: at most N requests per client per window."""

from __future__ import annotations

import time
from collections import defaultdict, deque


class RateLimiter:
    """A sliding-window limiter keyed by client id."""

    def __init__(self, limit: int, window_s: float = 60.0) -> None:
        self.limit = limit
        self.window_s = window_s
        self.calls: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, client: str) -> bool:
        """True when `client` may make another request now."""
        now = time.monotonic()
        recent = self.calls[client]
        while recent and now - recent[0] > self.window_s:
            recent.popleft()
        if len(recent) >= self.limit:
            return False
        recent.append(now)
        return True
