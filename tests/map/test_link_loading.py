"""A restarted map loads its graph first and its link after: in between, ranking,
paths and walks answer from the graph, and the uses linking left open come from
the store (for answers that read a few files) or are said not weighed."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from map import CodeMap
from map.store import link_stand_in
from tests.map.restart_child import Questions, settings
from tests.map.restart_edits import write_repo
from verify.mapcheck import judge_callees, judge_dependents

GATE_TIMEOUT_S = 30.0
OPEN_USES = (
    "import json\n\nfrom lib.m0 import f0\n\n\n"
    "def run(shape, callback):\n"
    "    json.dumps(shape)\n"
    "    shape.step()\n"
    "    callback()\n"
    "    mystery()\n"
    "    return f0()\n"
)
"""Two modules whose uses linking leaves open (outside, a receiver, a local, undefined)."""
ASKED = Questions(
    node_ids=(
        "lib/m0.py#f0",
        "lib/m0.py#C0",
        "lib/m3.py#C3.step",
        "lib/m5.py#f5",
        "lib/open_uses.py#run",
    ),
)


def _answers(code_map: CodeMap) -> tuple[dict[str, tuple[Any, ...]], Any]:
    """What needs the graph, and the open uses around each node; the overview."""
    found: dict[str, tuple[Any, ...]] = {}
    for node_id in ASKED.node_ids:
        impact = code_map.impact(node_id, 2)
        callees = code_map.neighbors(node_id, "out", None, 2)
        found[node_id] = (
            impact,
            callees,
            code_map.path(node_id, ASKED.node_ids[0]),
            code_map.unresolved_named([node_id.partition("#")[2].rpartition(".")[2]]),
            code_map.unresolved_within([node_id]),
            judge_dependents(code_map, node_id, impact, 2),
            judge_callees(code_map, node_id, callees, 2, {"calls", "references"}),
        )
    return found, code_map.overview(512)


@pytest.fixture
def restarted(tmp_path: Path) -> Iterator[Callable[[], CodeMap]]:
    root, store = tmp_path / "repo", tmp_path / "store"
    write_repo(root, modules=12, padding=3)
    for module in ("open_uses", "more_open_uses"):
        (root / "lib" / f"{module}.py").write_text(OPEN_USES)
    CodeMap.open(root, settings(store))  # builds and saves the store

    def reopen() -> CodeMap:
        code_map = CodeMap.open(root, settings(store), link_later=True)
        assert not code_map.graph_loaded and not code_map.link_loaded
        return code_map

    yield reopen


def _while_linking(code_map: CodeMap, ask: Callable[[CodeMap], Any]) -> Any:
    """`ask` while the load is held at its first progress report (the link's: the
    graph is in by then); the load goes on once answered."""
    reported, answered = threading.Event(), threading.Event()
    during: list[Any] = []

    def hold(*_: object) -> None:
        if not reported.is_set():
            reported.set()
            answered.wait(GATE_TIMEOUT_S)

    loader = threading.Thread(target=code_map.load_graph, args=(hold,))
    loader.start()
    try:
        assert reported.wait(GATE_TIMEOUT_S), "the link never started loading"
        assert code_map.graph_loaded and not code_map.link_loaded
        during.append(ask(code_map))
    finally:
        answered.set()
        loader.join(GATE_TIMEOUT_S)
    assert code_map.link_loaded
    return during[0]


def test_graph_answers_and_open_uses_while_the_link_loads_are_the_answers_after(
    restarted: Callable[[], CodeMap],
) -> None:
    code_map = restarted()
    during = _while_linking(code_map, _answers)
    after = _answers(code_map)
    assert during == after
    assert any(answers[4] for answers in after[0].values()), "no use was left open"


def test_the_graph_alone_loads_without_the_link(restarted: Callable[[], CodeMap]) -> None:
    code_map = restarted()
    assert code_map.load_graph(link=False)
    assert code_map.graph_loaded and not code_map.link_loaded
    impact = code_map.impact("lib/m0.py#f0", 2)
    assert impact, "the generated repository calls f0"
    assert code_map.load_graph()
    assert code_map.impact("lib/m0.py#f0", 2) == impact


def test_open_uses_in_too_many_files_are_said_not_weighed_while_the_link_loads(
    restarted: Callable[[], CodeMap], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(link_stand_in, "VIEW_FILES", 1)
    code_map = restarted()
    names = ["step"]  # open in two files
    impact = code_map.impact("lib/m3.py#C3.step", 2)  # loads the graph alone

    def ask(loading: CodeMap) -> tuple[Any, ...]:
        verdict = judge_dependents(loading, "lib/m3.py#C3.step", impact, 2)
        return loading.unresolved_named(names), verdict

    during, verdict = _while_linking(code_map, ask)
    assert during is None
    assert not verdict.complete and [r.code for r in verdict.reasons] == ["link_not_loaded"]
    assert code_map.unresolved_named(names) is not None
    linked = judge_dependents(code_map, "lib/m3.py#C3.step", impact, 2)
    assert "link_not_loaded" not in [r.code for r in linked.reasons]


def test_a_process_that_loads_no_link_in_the_background_loads_it_for_open_uses(
    restarted: Callable[[], CodeMap], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(link_stand_in, "VIEW_FILES", 1)
    code_map = restarted()  # as a one-shot CLI command opens it
    assert code_map.load_graph(link=False)
    found = code_map.unresolved_named(["step"])
    assert found is not None and {use.path for use in found} == {
        "lib/open_uses.py",
        "lib/more_open_uses.py",
    }
    assert code_map.link_loaded


def _edit_open_uses(code_map: CodeMap) -> None:
    """Call `enigma` where lib/open_uses.py called `mystery`, relinked in the store."""
    edited = code_map.root / "lib" / "open_uses.py"
    edited.write_text(OPEN_USES.replace("mystery()", "enigma()"))
    code_map.rebuild(paths=["lib/open_uses.py"])
    assert not code_map.graph_loaded


def _open_in(code_map: CodeMap, name: str) -> list[str]:
    return [use.path for use in code_map.unresolved_named([name]) or []]


def test_open_uses_read_from_the_store_follow_an_edit_relinked_and_saved_in_it(
    restarted: Callable[[], CodeMap],
) -> None:
    code_map = restarted()
    assert _open_in(code_map, "mystery") == ["lib/more_open_uses.py", "lib/open_uses.py"]
    _edit_open_uses(code_map)
    code_map.save()
    assert _open_in(code_map, "enigma") == ["lib/open_uses.py"]
    assert _open_in(code_map, "mystery") == ["lib/more_open_uses.py"]
    assert not code_map.link_loaded  # read from the store


def test_open_uses_of_an_edit_relinked_but_not_saved_yet_are_the_edits(
    restarted: Callable[[], CodeMap],
) -> None:
    code_map = restarted()
    assert _open_in(code_map, "mystery") == ["lib/more_open_uses.py", "lib/open_uses.py"]
    _edit_open_uses(code_map)
    assert _open_in(code_map, "enigma") == ["lib/open_uses.py"]
    assert _open_in(code_map, "mystery") == ["lib/more_open_uses.py"]


def test_a_map_relinked_in_its_store_but_not_saved_answers_with_the_edit(
    restarted: Callable[[], CodeMap],
) -> None:
    code_map = restarted()
    assert [n.node_id for n in code_map.neighbors("lib/m0.py#f0", "in") if "open_uses" in n.node_id]
    edited = code_map.root / "lib" / "open_uses.py"
    edited.write_text(OPEN_USES.replace("def run(", "def walk("))
    code_map.rebuild(paths=["lib/open_uses.py"])  # relinked in the store, not saved
    callers = {n.node_id for n in code_map.neighbors("lib/m0.py#f0", "in")}
    assert "lib/open_uses.py#walk" in callers and "lib/open_uses.py#run" not in callers
    assert [hit.node_id for hit in code_map.search("walk")] == ["lib/open_uses.py#walk"]
    assert "lib/open_uses.py#walk" in {n.node_id for n in code_map.impact("lib/m0.py#f0", 1)}
