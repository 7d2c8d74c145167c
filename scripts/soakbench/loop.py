"""The soak loop: one `codeanchor serve` through the mcp SDK's stdio client, edited
and questioned in cycles, every answer checked (nothing lost) and timed.

A cycle: append a function to a file, `map_rebuild`, `map_search` for it (it must be
found), `map_neighbors` and `nav_references` on it, every fifth cycle `memory_save`
on a symbol of the corpus and `memory_check` of every memory (each one saved must be
listed), then undo the edit. Needs the repository root on sys.path.
"""

from __future__ import annotations

import asyncio
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from soakbench.corpus import Corpus, appended, edited_files

CALL_TIMEOUT_S = 120.0
MEMORY_EVERY = 5
CHECK_BUDGET = 50_000
"""memory_check's budget: the largest, so that the answer lists as many as it can."""


@dataclass
class Tally:
    """What the loop did since the last report: calls, their latencies, errors, losses."""

    cycles: int = 0
    calls: int = 0
    errors: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    checked_per_memory: list[float] = field(default_factory=list)
    """memory_check's seconds divided by the memories it checked."""


class ToolClient(Protocol):
    """What the loop calls tools through: the mcp SDK's Client, or the tools in-process."""

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> Any: ...


class Failed(Exception):
    """A call answered with an error (or none in time)."""


class Soak:
    """The loop's state: the client, the corpus, the memories saved so far."""

    def __init__(self, client: ToolClient, corpus: Corpus) -> None:
        self.client = client
        self.corpus = corpus
        self.files = edited_files(corpus)
        self.tally = Tally()
        self.memories: list[str] = []
        self.anchors: list[str] = []

    def take_tally(self) -> Tally:
        """What the loop did since the last call, and a fresh tally in its place."""
        taken, self.tally = self.tally, Tally()
        return taken

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        """Call `tool`, timed under its name; its envelope, or Failed."""
        started = time.perf_counter()
        try:
            result = await asyncio.wait_for(self.client.call_tool(tool, arguments), CALL_TIMEOUT_S)
        except TimeoutError as exc:
            raise Failed(f"{tool}: no answer in {CALL_TIMEOUT_S:.0f} s") from exc
        finally:
            self.tally.calls += 1
            self.tally.latency[tool].append(time.perf_counter() - started)
        text = result.content[0].text
        if result.is_error:
            raise Failed(f"{tool}: {text[:300]}")
        envelope: dict[str, Any] = orjson.loads(text)
        return envelope

    async def prepare(self) -> None:
        """Build the map once and pick the symbols memories will name."""
        await self.call("map_rebuild")
        found = await self.call("map_search", query="re:.", kind="function", limit=500)
        self.anchors = [hit["nodeId"] for hit in found["data"]["hits"]]
        if not self.anchors:
            raise SystemExit("the map found no functions in the corpus")

    async def servers(self) -> list[dict[str, Any]]:
        """The language servers as map_status tells them (restarts, recycles, MB);
        not timed with the loop's calls."""
        result = await asyncio.wait_for(self.client.call_tool("map_status", {}), CALL_TIMEOUT_S)
        status: dict[str, Any] = orjson.loads(result.content[0].text)
        servers: list[dict[str, Any]] = status["data"]["languageServers"]
        return servers

    async def cycle(self, n: int) -> None:
        """One cycle; an error is counted and the edit is undone all the same."""
        path = self.files[n % len(self.files)]
        file = self.corpus.root / path
        original = file.read_bytes()
        name, source = appended(self.corpus, n)
        try:
            file.write_bytes(original + source.encode())
            await self.questions(n, path, name)
        except Failed as exc:
            self.tally.errors.append(str(exc))
        finally:
            file.write_bytes(original)
        self.tally.cycles += 1

    async def questions(self, n: int, path: str, name: str) -> None:
        await self.call("map_rebuild")
        hits = (await self.call("map_search", query=name))["data"]["hits"]
        node = f"{path}#{name}"
        if node not in {hit["nodeId"] for hit in hits}:
            self.tally.lost.append(f"cycle {n}: map_search did not find {node}")
            return
        await self.call("map_neighbors", node_id=node, direction="in")
        await self.call("nav_references", target=node)
        if n % MEMORY_EVERY == 0:
            await self.memory_round(n)

    async def memory_round(self, n: int) -> None:
        anchor = self.anchors[(n // MEMORY_EVERY) % len(self.anchors)]
        saved = await self.call(
            "memory_save", text=f"soak note {n} about {anchor}", refs=[anchor], tags=["soak"]
        )
        self.memories.append(saved["data"]["id"])
        started = time.perf_counter()
        checked = await self.call("memory_check", budget=CHECK_BUDGET)
        seconds = time.perf_counter() - started
        listed = {m["id"] for m in checked["data"]["memories"]}
        dropped = (checked.get("truncated") or {}).get("dropped", 0)
        missing = len(set(self.memories) - listed)
        if missing > dropped:
            self.tally.lost.append(f"cycle {n}: memory_check left out {missing - dropped}")
        self.tally.checked_per_memory.append(seconds / max(1, len(self.memories)))


async def run_for(soak: Soak, seconds: float, stop: asyncio.Event) -> int:
    """Cycle until `seconds` have passed (or `stop` is set); the number of cycles."""
    deadline = time.monotonic() + seconds
    n = 0
    while time.monotonic() < deadline and not stop.is_set():
        await soak.cycle(n)
        n += 1
    return n
