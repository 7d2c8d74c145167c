"""The map's callers of a symbol, judged call site by call site against the ground truth.

For the languages no server here answers a call hierarchy for (issue 24's), the
oracle is the parse alone: the truth's call sites of the symbol (its
occurrences that a call calls, one per line) against the lines at which
`map_neighbors(direction="in", kinds=["calls"])` says its callers call it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from accuracy.measure import BUDGET
from accuracy.sample import Symbol
from bridge.context import AppContext
from bridge.tools import mapgraph


@dataclass(frozen=True)
class SitesJudged:
    """One symbol's map callers against the truth's call sites, by (path, line)."""

    node_id: str
    expected: frozenset[tuple[str, int]]
    """The truth's call lines."""
    direct: frozenset[tuple[str, int]]
    """Of those, the lines of calls the parse ties to the symbol (Occurrence.direct)."""
    listed: frozenset[tuple[str, int]]
    """The lines the map's callers call it at."""
    wait_ms: float

    @property
    def confirmed(self) -> int:
        return len(self.expected & self.listed)

    @property
    def confirmed_direct(self) -> int:
        return len(self.direct & self.listed)

    @property
    def missed(self) -> frozenset[tuple[str, int]]:
        return self.expected - self.listed

    @property
    def extra(self) -> frozenset[tuple[str, int]]:
        """Lines the map lists that the truth has no call of the symbol at."""
        return self.listed - self.expected


async def map_sites(app: AppContext, symbol: Symbol) -> SitesJudged:
    """map_neighbors' callers of `symbol`, as call lines, against its truth."""
    started = time.perf_counter()
    answer = await mapgraph.map_neighbors(
        app, symbol.node_id, direction="in", kinds=["calls"], budget=BUDGET
    )
    wait_ms = (time.perf_counter() - started) * 1000
    listed = frozenset(
        (neighbor["nodeId"].partition("#")[0], line)
        for neighbor in answer["data"]["neighbors"]
        for line in neighbor["at"]
    )
    calls = symbol.calls
    return SitesJudged(
        symbol.node_id,
        frozenset((o.path, o.line) for o in calls),
        frozenset((o.path, o.line) for o in calls if o.direct),
        listed,
        wait_ms,
    )
