"""A call that needs the map's graph waits for it off the event loop.

While a restarted server loads its graph in the background, `map_impact`
(which walks the graph) must wait for the load without stalling the server:
other calls still answer meanwhile, and `map_status` says the graph is not
loaded yet. The load is held at a gate; everything
else is the real AppContext and tools on a real store.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bridge.context import AppContext
from bridge.tools.mapgraph import IMPACT_DEPTH, map_impact
from bridge.tools.mapping import map_search, map_status
from map.live.codemap import CodeMap
from tests.map.gates import hold_at_gate
from tests.map.graph_state import copy_repo

GATE_TIMEOUT_S = 10.0
TARGET = "pkg/core.py#helper"


def test_impact_waits_for_the_graph_while_other_calls_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = copy_repo(tmp_path)
    (root / "codeanchor.toml").write_text("watch = false\n")
    expected = {n.node_id for n in CodeMap.open(root).impact(TARGET, IMPACT_DEPTH)}  # stored
    held_load = hold_at_gate(monkeypatch, "_take_graph", GATE_TIMEOUT_S)  # however reached

    async def scenario() -> None:
        app = AppContext(root, serving=True)
        try:
            assert (await map_search(app, "helper"))["ok"]  # opens the map, starts the load
            impact = asyncio.create_task(map_impact(app, TARGET))
            status = await asyncio.wait_for(map_status(app), GATE_TIMEOUT_S / 2)
            assert status["ok"] and status["data"]["graphLoaded"] is False
            assert not impact.done()  # still waiting for the graph, not blocking the loop
            held_load.set()
            answer = await impact
            assert answer["ok"], answer
            assert {d["nodeId"] for d in answer["data"]["dependents"]} == expected
            assert (await map_status(app))["data"]["graphLoaded"] is True
        finally:
            await app.aclose()

    asyncio.run(asyncio.wait_for(scenario(), GATE_TIMEOUT_S * 3))
