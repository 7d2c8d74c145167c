"""A restarted server answers lookups from the map store before the graph is loaded.

The server's background graph load is held at a gate (the only stand-in
here: everything else is the real AppContext and tools on a real store), so
the answers provably did not wait for it; once released, ranking and impact
run on the graph and agree with a fresh build.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bridge.context import AppContext
from bridge.tools.mapgraph import IMPACT_DEPTH, map_impact, map_neighbors
from bridge.tools.mapping import map_outline, map_search, map_status
from map.live.codemap import CodeMap
from tests.map.gates import hold_at_gate
from tests.map.graph_state import copy_repo, fresh, graph_state
from tests.map.polling import wait_until
from verify import map_entry

GATE_TIMEOUT_S = 30.0


@pytest.fixture
def gated(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """Hold every `CodeMap.load_graph` until the event is set."""
    gate = hold_at_gate(monkeypatch, "load_graph", GATE_TIMEOUT_S)
    yield gate
    gate.set()


def _data(envelope: Any) -> Any:
    assert envelope["ok"], envelope
    return envelope["data"]


def test_a_restarted_server_answers_from_the_store_before_the_graph_loads(
    tmp_path: Path, gated: threading.Event
) -> None:
    root = copy_repo(tmp_path)
    (root / "codeanchor.toml").write_text("watch = false\n")
    built = CodeMap.open(root)  # the store a previous server left
    expected_callers = {n.node_id for n in built.neighbors("pkg/core.py#start", "in")}

    async def scenario() -> None:
        app = AppContext(root, serving=True)
        try:
            hits = _data(await map_search(app, "helper"))["hits"]
            code_map = await app.code_map()
            assert not code_map.graph_loaded  # answered while the graph is held back
            assert hits[0]["nodeId"] == "pkg/core.py#helper"
            assert hits[0]["lines"] == list(built.graph.nodes["pkg/core.py#helper"]["lines"])
            outline = _data(await map_outline(app, "pkg/core.py"))["symbols"]
            assert [s["nodeId"] for s in outline][:3] == [
                "pkg/core.py#Engine",
                "pkg/core.py#Engine.run",
                "pkg/core.py#Engine.step",
            ]
            status = _data(await map_status(app))
            assert (status["files"], status["symbols"]) == (6, built.status().symbols)
            callers = _data(await map_neighbors(app, "pkg/core.py#start", direction="in"))
            assert {n["nodeId"] for n in callers["neighbors"]} == expected_callers
            assert all(n["at"] and "lines" in n for n in callers["neighbors"])
            # from the store, the uses linking left open are not known: said, not hidden
            assert callers["completeness"] == "partial"
            assert [r["code"] for r in callers["completenessReasons"]] == ["graph_not_loaded"]
            entry = map_entry(code_map, "pkg/core.py#Engine.step")
            assert entry is not None and entry.path == "pkg/core.py"
            assert not code_map.graph_loaded
            gated.set()
            await wait_until(lambda: code_map.graph_loaded, "the graph loads in the background")
            impact = _data(await map_impact(app, "pkg/core.py#helper"))
            assert "graph_not_loaded" not in [r["code"] for r in impact["completenessReasons"]]
            callers = _data(await map_neighbors(app, "pkg/core.py#start", direction="in"))
            assert "graph_not_loaded" not in [r["code"] for r in callers["completenessReasons"]]
            assert {d["nodeId"] for d in impact["dependents"]} == {
                n.node_id for n in built.impact("pkg/core.py#helper", IMPACT_DEPTH)
            }
        finally:
            await app.aclose()

    asyncio.run(asyncio.wait_for(scenario(), GATE_TIMEOUT_S * 2))


OFFLINE_ADDITION = "\n\ndef offline_added():\n    return helper()\n"


def _edit_while_no_server_runs(root: Path) -> None:
    """What a branch switch does to a stopped server's repository: an edit, a removal."""
    core = root / "pkg" / "core.py"
    core.write_text(core.read_text() + OFFLINE_ADDITION)
    (root / "pkg" / "util.py").unlink()


def test_files_edited_while_no_server_ran_answer_before_the_graph_loads(
    tmp_path: Path, gated: threading.Event
) -> None:
    root = copy_repo(tmp_path)
    (root / "codeanchor.toml").write_text("watch = false\n")
    CodeMap.open(root)  # the store a previous server left
    _edit_while_no_server_runs(root)

    async def scenario() -> None:
        app = AppContext(root, serving=True)
        try:
            answer = await map_search(app, "offline_added")
            code_map = await app.code_map()
            assert not code_map.graph_loaded  # answered while the graph is held back
            assert [h["nodeId"] for h in _data(answer)["hits"]] == ["pkg/core.py#offline_added"]
            assert any("being refreshed" in w and "pkg/core.py" in w for w in answer["warnings"])
            assert _data(await map_search(app, "util.py"))["hits"] == []  # removed meanwhile
            outline = _data(await map_outline(app, "pkg/core.py"))["symbols"]
            assert outline[-1]["nodeId"] == "pkg/core.py#offline_added"
            assert not code_map.graph_loaded
            gated.set()
            await wait_until(lambda: code_map.graph_loaded, "the graph loads in the background")
            callers = _data(await map_neighbors(app, "pkg/core.py#helper", direction="in"))
            assert "pkg/core.py#offline_added" in {n["nodeId"] for n in callers["neighbors"]}
            answer = await map_search(app, "offline_added")
            assert not any("being refreshed" in w for w in answer["warnings"])
            await wait_until(lambda: _stored_has(root, "offline_added"), "the linked edit is saved")
        finally:
            await app.aclose()

    asyncio.run(asyncio.wait_for(scenario(), GATE_TIMEOUT_S * 2))


def _stored_has(root: Path, name: str) -> bool:
    """Whether the map store (as a one-shot reader sees it) holds a symbol named `name`."""
    return any(h.name == name for h in CodeMap.open(root, refresh=False).search(name))


def test_offline_edits_are_linked_as_a_fresh_build_would_once_the_graph_loads(
    tmp_path: Path,
) -> None:
    root = copy_repo(tmp_path)
    CodeMap.open(root)
    _edit_while_no_server_runs(root)
    codemap = CodeMap.open(root, link_later=True)
    assert codemap.unlinked_files() == {"pkg/core.py", "pkg/util.py"}
    assert codemap.search("offline_added")[0].node_id == "pkg/core.py#offline_added"
    assert not codemap.graph_loaded
    assert not _stored_has(root, "offline_added")  # nothing saved before it is linked
    assert codemap.load_graph()
    assert codemap.unlinked_files() == frozenset()
    expected = fresh(root, tmp_path)
    assert graph_state(codemap) == graph_state(expected)
    codemap.save()
    reopened = CodeMap.open(root)
    assert reopened.last_report is not None and reopened.last_report.files_changed == []
    assert graph_state(reopened) == graph_state(expected)
