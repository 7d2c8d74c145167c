"""Map graph answers say what they do not know: real maps of small repositories in
Python, TypeScript, Go and C, asked through the real tools on a real AppContext.

A call the map could not tie to a definition (an unknown receiver, a call through
a struct's function pointer, a method name too common to guess) is listed in
`unresolved` and makes the answer `partial`; a symbol whose every use resolved is
`complete`; map_impact walks two hops unless told otherwise, and says so.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, get_args

import pytest

from bridge.context import AppContext
from bridge.tools.mapgraph import map_impact, map_neighbors, map_path
from map import CodeMap, UnresolvedWhy
from tests.bridge.mcp_session import FULL_SCHEMAS, call, serve
from tests.bridge.schemas import key_faults, properties

TIMEOUT_S = 60.0
STORE_GET = "pkg/store.py#Store.get"
SIX = "ABCDEF"
"""More classes with one method name than the map guesses between (map.linking.resolution)."""

PYTHON = {
    "pkg/__init__.py": "",
    "pkg/store.py": (
        "class Store:\n"
        "    def get(self, key):\n"
        "        return key\n\n\n"
        "def helper(x):\n"
        "    return x + 1\n"
    ),
    "pkg/use.py": (
        "import json\n\n"
        "from pkg.store import Store, helper\n\n\n"
        "def direct():\n"
        "    return Store().get('a') + str(helper(1))\n\n\n"
        "def untyped(thing):\n"
        "    return json.dumps(thing.get('b'))\n"
    ),
    "pkg/chain.py": (
        "def base():\n    return 1\n\n\n"
        "def one():\n    return base()\n\n\n"
        "def two():\n    return one()\n\n\n"
        "def three():\n    return two()\n"
    ),
}
TYPESCRIPT = {
    "tsconfig.json": '{"include": ["src"]}\n',
    "src/views.ts": "".join(
        f"export class {c} {{\n  render(): number {{ return 1; }}\n}}\n" for c in SIX
    )
    + "\nexport function helper(x: number): number { return x + 1; }\n",
    "src/main.ts": (
        'import { helper } from "./views";\n\n'
        "export function paint(view) {\n  return view.render() + helper(1);\n}\n"
    ),
}
GO = {
    "go.mod": "module example.com/app\n\ngo 1.21\n",
    "shapes/shapes.go": "package shapes\n\n"
    + "".join(f"type {c} struct{{}}\n\nfunc ({c}) Area() float64 {{ return 1 }}\n\n" for c in SIX)
    + "func Scale(x float64) float64 { return x * 2 }\n",
    "main.go": (
        "package main\n\n"
        'import "example.com/app/shapes"\n\n'
        "type areaer interface{ Area() float64 }\n\n"
        "func total(items chan areaer) float64 {\n"
        "\tsum := 0.0\n"
        "\tfor item := range items {\n"
        "\t\tsum += item.Area()\n"
        "\t}\n"
        "\treturn shapes.Scale(sum)\n"
        "}\n"
    ),
}
C = {
    "shapes.h": "struct shape { double side; };\ndouble draw(struct shape *s);\n",
    "shapes.c": '#include "shapes.h"\n\ndouble draw(struct shape *s) { return s->side; }\n',
    "main.c": (
        "#include <stdio.h>\n"
        '#include "shapes.h"\n\n'
        "struct ops { double (*draw)(struct shape *); };\n\n"
        "static double twice(double x) { return 2 * x; }\n\n"
        "double render(struct ops *o, struct shape *s) {\n"
        "    return twice(o->draw(s));\n"
        "}\n\n"
        "int main(void) {\n"
        '    printf("%f\\n", twice(1.0));\n'
        "    return 0;\n"
        "}\n"
    ),
}


def _repo(root: Path, sources: dict[str, str]) -> Path:
    for path, text in {**sources, "codeanchor.toml": "watch = false\n"}.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def _ask(root: Path, *questions: tuple[Any, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each tool's `data`, asked in turn of one AppContext."""

    async def scenario() -> list[dict[str, Any]]:
        app = AppContext(root)
        try:
            answers = []
            for tool, arguments in questions:
                envelope = dict(await tool(app, **arguments))
                assert envelope["ok"], envelope
                answers.append(envelope)
            return answers
        finally:
            await app.aclose()

    return asyncio.run(asyncio.wait_for(scenario(), TIMEOUT_S))


def _callers(node_id: str) -> tuple[Any, dict[str, Any]]:
    return map_neighbors, {"node_id": node_id, "direction": "in"}


def _listed(data: dict[str, Any]) -> list[tuple[str, list[int]]]:
    """(caller node ID, call lines) of each caller a map answer lists, in its order."""
    return [(n["nodeId"], n["at"]) for n in data["neighbors"]]


def _sites(data: dict[str, Any]) -> list[tuple[str, int, str, str | None, str]]:
    return [(s["path"], s["line"], s["name"], s["receiver"], s["why"]) for s in data["unresolved"]]


def _codes(data: dict[str, Any]) -> list[str]:
    return [reason["code"] for reason in data["completenessReasons"]]


@pytest.mark.parametrize(
    ("sources", "partial", "site", "resolved"),
    [
        (
            PYTHON,
            "pkg/store.py#Store.get",
            ("pkg/use.py", 11, "get", "thing"),
            "pkg/store.py#helper",
        ),
        (
            TYPESCRIPT,
            "src/views.ts#C.render",
            ("src/main.ts", 4, "render", "view"),
            "src/views.ts#helper",
        ),
        (GO, "shapes/shapes.go#C.Area", ("main.go", 10, "Area", "item"), "shapes/shapes.go#Scale"),
        (C, "shapes.c#draw", ("main.c", 9, "draw", "o"), "main.c#twice"),
    ],
    ids=["python", "typescript", "go", "c"],
)
def test_a_call_through_an_unknown_receiver_makes_callers_partial(
    tmp_path: Path,
    sources: dict[str, str],
    partial: str,
    site: tuple[str, int, str, str],
    resolved: str,
) -> None:
    root = _repo(tmp_path / "repo", sources)
    unsure, sure = _ask(root, _callers(partial), _callers(resolved))
    data = unsure["data"]
    assert data["completeness"] == "partial"
    assert _codes(data) == ["unresolved_uses"]
    assert _sites(data) == [(*site, "receiver")]
    assert data["unresolvedCount"] == 1
    listed = data["unresolved"][0]
    assert listed["seenAs"] == "call" and listed["hop"] == 1
    assert site[2] in listed["text"] and listed["column"] > 1
    assert any("partial answer (unresolved_uses)" in w for w in unsure["warnings"])
    data = sure["data"]
    assert data["neighbors"], "the resolved symbol has callers"
    assert (data["completeness"], data["unresolved"], data["unresolvedCount"]) == (
        "complete",
        [],
        0,
    )
    assert data["hopsChecked"] == data["depth"] == 1


def test_a_one_shot_answer_weighs_the_open_uses_the_store_holds(tmp_path: Path) -> None:
    """A command run after the map was built (a CLI `map callers` or `map callees`) answers
    from the store without loading the graph, and still says what the map does not
    know: the verdicts are those of a loaded graph, not `graph_not_loaded`."""
    root = _repo(tmp_path / "repo", PYTHON)
    loaded = _ask(root, _callers(STORE_GET), _callers("pkg/store.py#helper"))
    CodeMap.open(root)  # the store a previous command left

    async def scenario() -> tuple[list[dict[str, Any]], bool]:
        app = AppContext(root)
        try:
            answers = [
                dict(await map_neighbors(app, STORE_GET, direction="in")),
                dict(await map_neighbors(app, "pkg/store.py#helper", direction="in")),
                dict(await map_neighbors(app, "pkg/use.py#untyped")),
            ]
            code_map = await app.code_map()
            return answers, code_map.graph_loaded
        finally:
            await app.aclose()

    (unsure, sure, callees), graph_loaded = asyncio.run(asyncio.wait_for(scenario(), TIMEOUT_S))
    assert not graph_loaded
    assert unsure["data"] == loaded[0]["data"]
    assert _codes(unsure["data"]) == ["unresolved_uses"]
    assert sure["data"] == loaded[1]["data"]
    assert sure["data"]["completeness"] == "complete"
    assert _codes(callees["data"]) == ["unresolved_callees"]


def test_callees_list_what_resolved_to_nothing_in_the_project(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", PYTHON)
    (answer,) = _ask(root, (map_neighbors, {"node_id": "pkg/use.py#untyped"}))
    data = answer["data"]
    assert data["completeness"] == "partial"
    assert _codes(data) == ["unresolved_callees"]
    assert sorted(_sites(data)) == [
        ("pkg/use.py", 11, "dumps", "json", "outside"),
        ("pkg/use.py", 11, "get", "thing", "receiver"),
    ]
    message = data["completenessReasons"][0]["message"]
    assert "json.dumps" in message and "thing.get" in message
    assert "libraries" in message and "receivers" in message


def test_a_path_not_found_is_partial_when_an_open_use_may_hide_it(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", PYTHON)
    hidden, none = _ask(
        root,
        (map_path, {"source": "pkg/use.py#untyped", "target": STORE_GET}),
        (map_path, {"source": "pkg/chain.py#base", "target": "pkg/chain.py#three"}),
    )
    data = hidden["data"]
    assert (data["found"], data["completeness"]) == (False, "partial")
    assert _sites(data) == [("pkg/use.py", 11, "get", "thing", "receiver")]
    assert "hop" not in data["unresolved"][0]
    data = none["data"]
    assert (data["found"], data["completeness"], data["unresolvedCount"]) == (False, "complete", 0)


def test_impact_walks_two_hops_unless_told_and_says_how_it_ordered(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", PYTHON)
    default, unlimited = _ask(
        root,
        (map_impact, {"node_id": "pkg/chain.py#base"}),
        (map_impact, {"node_id": "pkg/chain.py#base", "depth": None}),
    )
    data = default["data"]
    assert [(d["nodeId"], d["distance"]) for d in data["dependents"]] == [
        ("pkg/chain.py#one", 1),
        ("pkg/chain.py#two", 2),
    ]
    assert (data["depth"], data["count"], data["hopsChecked"]) == (2, 2, 2)
    assert data["order"].startswith("nearest first")
    assert data["completeness"] == "complete"
    data = unlimited["data"]
    assert data["depth"] is None
    assert [d["nodeId"] for d in data["dependents"]][-1] == "pkg/chain.py#three"


def test_impact_weighs_the_uses_of_a_class_and_its_members(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", PYTHON)
    (answer,) = _ask(root, (map_impact, {"node_id": "pkg/store.py#Store"}))
    data = answer["data"]
    assert [d["nodeId"] for d in data["dependents"]] == ["pkg/use.py#direct"]
    assert data["completeness"] == "partial"
    assert _sites(data) == [("pkg/use.py", 11, "get", "thing", "receiver")]


def test_a_deep_walk_says_which_hops_it_weighed(tmp_path: Path) -> None:
    users = {
        f"pkg/users_{i}.py": "from pkg.chain import base\n\n\n"
        + "".join(f"def user_{j}():\n    return base()\n\n\n" for j in range(30))
        for i in range(10)
    }
    root = _repo(tmp_path / "repo", {**PYTHON, **users})
    one, two = _ask(
        root,
        (map_neighbors, {"node_id": "pkg/chain.py#base", "direction": "in"}),
        (map_neighbors, {"node_id": "pkg/chain.py#base", "direction": "in", "depth": 2}),
    )
    assert (one["data"]["completeness"], one["data"]["hopsChecked"]) == ("complete", 1)
    data = two["data"]
    assert (data["depth"], data["hopsChecked"], data["completeness"]) == (2, 1, "partial")
    assert _codes(data) == ["hops_not_checked"]
    assert "hops 1 to 1 of 2" in data["completenessReasons"][0]["message"]


def test_the_budget_keeps_the_answers_own_items_before_unresolved_sites(tmp_path: Path) -> None:
    users = "".join(f"def use_{i}(s):\n    return s.get({i})\n\n\n" for i in range(40))
    root = _repo(tmp_path / "repo", {**PYTHON, "pkg/many.py": users})
    small, full = _ask(
        root,
        (map_neighbors, {"node_id": STORE_GET, "direction": "in", "budget": 700}),
        (map_neighbors, {"node_id": STORE_GET, "direction": "in", "budget": 50_000}),
    )
    assert full["truncated"] is None and full["data"]["unresolvedCount"] == 41
    data = small["data"]
    assert data["neighbors"] == full["data"]["neighbors"]  # the answer's own items first
    assert 0 < len(data["unresolved"]) < 41
    assert data["unresolved"] == full["data"]["unresolved"][: len(data["unresolved"])]
    assert data["unresolvedCount"] == 41
    cuts = small["truncated"]["cuts"]
    assert cuts == [
        {
            "items": "unresolved",
            "kept": len(data["unresolved"]),
            "dropped": 41 - len(data["unresolved"]),
        }
    ]


def test_over_mcp_partial_answers_publish_their_open_uses(tmp_path: Path) -> None:
    """Through the MCP SDK's client and `codeanchor serve`: the answers carry their
    completeness in the shape their full output schema publishes (`key_faults`)."""
    root = _repo(tmp_path / "repo", PYTHON)
    (root / "codeanchor.toml").write_text(f"watch = false\n{FULL_SCHEMAS}")

    async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        async with asyncio.timeout(TIMEOUT_S * 2), serve(root) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            schema = tools["map_neighbors"].output_schema or {}
            callers = await call(client, "map_neighbors", node_id=STORE_GET, direction="in")
            impact = await call(client, "map_impact", node_id="pkg/chain.py#base")
            assert key_faults(callers, schema) == []
            assert key_faults(impact, tools["map_impact"].output_schema or {}) == []
            return schema, [callers["data"], impact["data"]]

    schema, (callers, impact) = asyncio.run(scenario())
    declared = dict(properties(schema))
    assert declared["why"]["enum"] == list(get_args(UnresolvedWhy))
    assert (callers["completeness"], callers["unresolvedCount"]) == ("partial", 1)
    assert _sites(callers) == [("pkg/use.py", 11, "get", "thing", "receiver")]
    assert (impact["depth"], impact["completeness"], impact["count"]) == (2, "complete", 2)
