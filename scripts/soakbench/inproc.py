"""The soak loop in this process, for finding what grows: the tools are called as
`codeanchor serve` calls them (one AppContext, serving), and each minute the
growth since the last is printed by allocation site (tracemalloc) and by type of
live object (the garbage collector's view, frozen objects left out).

Slower than the MCP loop (tracemalloc keeps a traceback per allocation, and its
own RSS grows with them: read the sites, not this process's RSS) and without the
transport, whose own records the MCP loop's RSS covers.
"""

from __future__ import annotations

import gc
import sys
import tracemalloc
from collections import Counter
from dataclasses import dataclass
from typing import Any

import orjson

from bridge.context import AppContext
from bridge.contract.translate import as_tool_error
from bridge.server.registry import all_tools

FRAMES = 6
SHOWN = 12


@dataclass(frozen=True)
class Text:
    text: str


@dataclass(frozen=True)
class Answer:
    """What the loop reads of an MCP tool result."""

    content: list[Text]
    is_error: bool


class InProcessClient:
    """Every tool, called in this process on `app` (a `call_tool` like the MCP client's)."""

    def __init__(self, app: AppContext) -> None:
        self.app = app
        self.tools = {spec.fn.__name__: spec.fn for spec in all_tools()}

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Answer:
        try:
            envelope = await self.tools[name](self.app, **arguments)
        except Exception as exc:
            error = as_tool_error(exc)
            return Answer([Text(error.message if error else repr(exc))], True)
        return Answer([Text(orjson.dumps(envelope).decode())], False)


class Growth:
    """What grew in this process between two calls of `report`."""

    def __init__(self) -> None:
        tracemalloc.start(FRAMES)
        self._snapshot = tracemalloc.take_snapshot()
        self._types = self._count()

    @staticmethod
    def _count() -> Counter[str]:
        gc.collect()
        return Counter(type(o).__qualname__ for o in gc.get_objects())

    def report(self) -> None:
        """Print the allocation sites and the object types that grew most since last time."""
        snapshot = tracemalloc.take_snapshot()
        types = self._count()
        out = sys.stderr
        print(f"  traced now {tracemalloc.get_traced_memory()[0] / 1e6:.1f} MB", file=out)
        for stat in snapshot.compare_to(self._snapshot, "traceback")[:SHOWN]:
            frames = list(stat.traceback)  # oldest first
            ours = [f for f in frames if "/site-packages/" not in f.filename] or frames
            where = " <- ".join(
                f"{'/'.join(f.filename.rsplit('/', 2)[-2:])}:{f.lineno}" for f in ours[-3:]
            )
            print(f"  {stat.size_diff / 1024:+9.0f} KiB {stat.count_diff:+7d} at {where}", file=out)
        grown = sorted(((types[k] - self._types.get(k, 0), k) for k in types), reverse=True)
        print("  objects: " + ", ".join(f"{k} {d:+d}" for d, k in grown[:SHOWN] if d), file=out)
        self._snapshot, self._types = snapshot, types
