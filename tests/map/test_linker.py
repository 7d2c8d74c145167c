"""Edges resolved by name through imports, on small Python and TypeScript sources."""

from __future__ import annotations

from typing import Any

import networkx as nx

from map.extraction.extract import extract_file
from map.graph.mapgraph import MapGraph
from map.linking.layout import Layout
from map.linking.linker import Linker
from tests.map.graph_state import graph_state

PY = {
    "pkg/__init__.py": "from .impl import make\n",
    "pkg/impl.py": (
        "class Base:\n    def greet(self):\n        return 1\n\ndef make():\n    return Base()\n"
    ),
    "pkg/tools.py": "def helper():\n    return 2\n",
    "app/main.py": (
        "from pkg import make\n"
        "from pkg.impl import Base\n"
        "import pkg.tools\n"
        "from pkg import tools as t\n"
        "\n"
        "class Child(Base):\n"
        "    def run(self):\n"
        "        self.greet()\n"
        "        return make()\n"
        "\n"
        "def main(thing):\n"
        "    pkg.tools.helper()\n"
        "    t.helper()\n"
        "    thing.start()\n"
    ),
    "app/engines.py": (
        "class Car:\n    def start(self):\n        pass\n\n"
        "class Boat:\n    def start(self):\n        pass\n"
    ),
}


def _build(sources: dict[str, str]) -> tuple[MapGraph, Linker]:
    graph: MapGraph = nx.MultiDiGraph()
    linker = Linker(graph)
    changes = {p: (None, extract_file(p, s.encode())) for p, s in sources.items()}
    linker.apply(changes, Layout())
    return graph, linker


def _edge(linker: Linker, source: str, target: str, kind: str) -> dict[str, Any]:
    """The edge's details (kind, confidence, lines, candidates), which it must have."""
    data = linker.edge_details(source, target, kind)
    assert data is not None, sorted(
        (u, v, k) for u, v, k in linker.graph.out_edges(source, keys=True)
    )
    return data


def test_calls_resolve_through_from_imports_and_reexports() -> None:
    _, linker = _build(PY)
    edge = _edge(linker, "app/main.py#Child.run", "pkg/impl.py#make", "calls")
    assert edge["confidence"] == 1.0
    assert edge["candidates"] == ()
    assert edge["lines"] == (9,)


def test_module_qualified_calls_resolve() -> None:
    graph, linker = _build(PY)
    assert _edge(linker, "app/main.py#main", "pkg/tools.py#helper", "calls")["lines"] == (12, 13)
    assert graph.has_edge("app/main.py", "pkg/tools.py", key="imports")
    assert graph.has_edge("app/main.py", "pkg/__init__.py", key="imports")


def test_inheritance_and_inherited_members() -> None:
    _, linker = _build(PY)
    _edge(linker, "app/main.py#Child", "pkg/impl.py#Base", "inherits")
    inherited = _edge(linker, "app/main.py#Child.run", "pkg/impl.py#Base.greet", "calls")
    assert 0 < inherited["confidence"] < 1.0


def test_ambiguous_name_keeps_candidates_with_split_confidence() -> None:
    _, linker = _build(PY)
    car = _edge(linker, "app/main.py#main", "app/engines.py#Car.start", "calls")
    boat = _edge(linker, "app/main.py#main", "app/engines.py#Boat.start", "calls")
    assert (
        car["candidates"]
        == boat["candidates"]
        == (
            "app/engines.py#Boat.start",
            "app/engines.py#Car.start",
        )
    )
    assert car["confidence"] == boat["confidence"] < 0.5


def test_contains_edges_follow_nesting() -> None:
    graph, _ = _build(PY)
    assert graph.has_edge("pkg/impl.py", "pkg/impl.py#Base", key="contains")
    assert graph.has_edge("pkg/impl.py#Base", "pkg/impl.py#Base.greet", key="contains")
    assert graph.nodes["pkg/impl.py#Base.greet"]["kind"] == "method"
    assert graph.nodes["pkg/impl.py#Base.greet"]["lines"] == (2, 3)


def test_editing_a_reexport_reroutes_edges_like_a_fresh_build() -> None:
    graph, linker = _build(PY)
    changed = dict(PY)
    changed["pkg/__init__.py"] = "from .tools import helper as make\n"
    old = extract_file("pkg/__init__.py", PY["pkg/__init__.py"].encode())
    new = extract_file("pkg/__init__.py", changed["pkg/__init__.py"].encode())
    stats = linker.apply({"pkg/__init__.py": (old, new)}, Layout())
    assert graph.has_edge("app/main.py#Child.run", "pkg/tools.py#helper", key="calls")
    assert not graph.has_edge("app/main.py#Child.run", "pkg/impl.py#make", key="calls")
    assert stats.files_relinked == 1  # only the edited file is resolved whole
    fresh, _ = _build(changed)
    assert graph_state(graph) == graph_state(fresh)


TS = {
    "src/shapes/index.ts": "export { Shape, area } from './shape';\n",
    "src/shapes/shape.ts": (
        "export class Shape {\n  size(): number { return 1; }\n}\n"
        "export function area(s: Shape): number { return s.size(); }\n"
    ),
    "src/util.ts": "export function helper(): number { return 2; }\n",
    "src/main.ts": (
        "import { Shape, area as ar } from './shapes';\n"
        "import * as util from './util';\n"
        "export class Circle extends Shape {\n"
        "  radius(): number { return this.size() + ar(this) + util.helper(); }\n"
        "}\n"
    ),
}


def test_typescript_default_import_finds_the_export_of_that_name() -> None:
    _, linker = _build(
        {
            "src/log.ts": "export default function log(m: string): void {}\n",
            "src/app.ts": "import log from './log';\nexport function run(): void { log('x'); }\n",
        }
    )
    _edge(linker, "src/app.ts#run", "src/log.ts#log", "calls")


def test_typescript_imports_index_files_and_namespaces() -> None:
    graph, linker = _build(TS)
    _edge(linker, "src/main.ts#Circle", "src/shapes/shape.ts#Shape", "inherits")
    _edge(linker, "src/main.ts#Circle.radius", "src/shapes/shape.ts#area", "calls")
    _edge(linker, "src/main.ts#Circle.radius", "src/util.ts#helper", "calls")
    _edge(linker, "src/main.ts#Circle.radius", "src/shapes/shape.ts#Shape.size", "calls")
    assert graph.has_edge("src/main.ts", "src/shapes/index.ts", key="imports")
