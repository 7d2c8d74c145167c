"""C and C++: a function declared in a header and defined in a source file is one
symbol for edges (map/linking/definitions.py), in a first link and after every edit."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import networkx as nx
import pytest

from map.extraction.extract import extract_file
from map.graph.mapgraph import MapGraph
from map.linking.layout import Layout
from map.linking.link_input import Change
from map.linking.linker import Linker
from map.live.codemap import CodeMap
from tests.map.graph_state import fresh, graph_state

C = {
    "include/geo.h": (
        "#ifndef GEO_H\n#define GEO_H\n"
        "int area(int w, int h);\n"
        "int twice(int x);\n"
        "int unused(void);\n"
        "#endif\n"
    ),
    "src/geo.c": (
        '#include "geo.h"\n'
        "int area(int w, int h) { return w * h; }\n"
        "int twice(int x) { return area(x, 2); }\n"
    ),
    "src/main.c": (
        '#include "geo.h"\nint report(void) { return area(3, 4) + twice(5) + unused(); }\n'
    ),
}
CPP = {
    "shapes/shape.hpp": (
        "namespace geo {\n"
        "class Shape {\n public:\n"
        "  Shape();\n"
        "  double area() const;\n"
        "  double twice() const { return area() * 2; }\n"
        "};\n"
        "}\n"
    ),
    "shapes/shape.cpp": (
        '#include "shape.hpp"\n'
        "namespace geo {\n"
        "Shape::Shape() {}\n"
        "double Shape::area() const { return 1.0; }\n"
        "}\n"
    ),
    "app/main.cpp": (
        '#include "../shapes/shape.hpp"\ndouble run(geo::Shape& s) { return s.area(); }\n'
    ),
    "shapes/more.cpp": (
        '#include "shape.hpp"\n'
        "namespace geo {\n"
        "double Shape::scaled() const { return area() + this->twice(); }\n"
        "double Circle::scaled() const { return this->twice(); }\n"
        "}\n"
    ),
}


def _link(sources: dict[str, str]) -> tuple[MapGraph, Linker]:
    graph: MapGraph = nx.MultiDiGraph()
    linker = Linker(graph)
    linker.apply({p: (None, extract_file(p, s.encode())) for p, s in sources.items()}, Layout())
    return graph, linker


def _out(graph: MapGraph, node: str, kind: str) -> dict[str, float]:
    return {
        target: data["confidence"]
        for _, target, key, data in graph.out_edges(node, keys=True, data=True)
        if key == kind
    }


def test_calls_through_a_header_reach_the_definition() -> None:
    graph, _ = _link(C)
    assert _out(graph, "src/main.c#report", "calls") == {
        "src/geo.c#area": 1.0,
        "src/geo.c#twice": 1.0,
        "include/geo.h#unused": 1.0,  # declared, defined nowhere: the declaration stays
    }
    assert _out(graph, "src/geo.c#twice", "calls") == {"src/geo.c#area": 1.0}


def test_the_declaration_keeps_its_node_and_names_its_definition() -> None:
    graph, linker = _link(C)
    assert graph.nodes["include/geo.h#area"]["kind"] == "function"
    assert _out(graph, "include/geo.h#area", "references") == {"src/geo.c#area": 1.0}
    assert _out(graph, "include/geo.h#unused", "references") == {}  # never itself
    assert not any(kind == "calls" for *_, kind in graph.in_edges("include/geo.h#area", keys=True))
    details = linker.edge_details("include/geo.h#area", "src/geo.c#area", "references")
    assert details is not None and details["lines"] == (3,)
    # a declaration nothing defines names nothing, and is no use left open
    assert "unused" not in linker.open_uses.names()["include/geo.h"]


def test_a_method_declared_in_its_class_is_defined_out_of_line() -> None:
    graph, _ = _link(CPP)
    assert _out(graph, "shapes/more.cpp#geo.Shape.scaled", "calls") == {
        "shapes/shape.cpp#geo.Shape.area": 1.0,  # declared in the header, defined beside it
        "shapes/shape.hpp#geo.Shape.twice": 1.0,  # defined in the header
    }
    # a class no header declares: `this` unknown, a guess by name
    assert _out(graph, "shapes/more.cpp#geo.Circle.scaled", "calls") == {
        "shapes/shape.hpp#geo.Shape.twice": 0.5
    }
    assert _out(graph, "shapes/shape.hpp#geo.Shape.twice", "calls") == {
        "shapes/shape.cpp#geo.Shape.area": 1.0
    }
    # `s` is of a type the map does not follow: a guess by name, now one definition
    assert _out(graph, "app/main.cpp#run", "calls") == {"shapes/shape.cpp#geo.Shape.area": 0.5}
    assert _out(graph, "shapes/shape.hpp#geo.Shape.Shape", "references") == {
        "shapes/shape.cpp#geo.Shape.Shape": 1.0
    }


def test_an_out_of_line_method_sees_its_class_members_in_the_header() -> None:
    sources = {
        "shapes/shape.hpp": (
            "namespace geo {\n"
            "struct Unit {};\n"
            "class Shape {\n public:\n"
            "  double area() const { return 1.0; }\n"
            "  double twice() const;\n"
            "};\n"
            "}\n"
        ),
        "shapes/shape.cpp": (
            '#include "shape.hpp"\n'
            "namespace geo {\n"
            "double Shape::twice() const { Unit u; return area() * 2; }\n"
            "}\n"
        ),
    }
    graph, _ = _link(sources)
    # `area` inside Shape's method is Shape::area, `Unit` inside namespace geo geo::Unit
    assert _out(graph, "shapes/shape.cpp#geo.Shape.twice", "calls") == {
        "shapes/shape.hpp#geo.Shape.area": 1.0
    }
    assert _out(graph, "shapes/shape.cpp#geo.Shape.twice", "references") == {
        "shapes/shape.hpp#geo.Unit": 1.0
    }


def test_several_definitions_prefer_the_one_beside_the_header() -> None:
    sources = dict(C)
    sources["tests/fake_geo.c"] = "int area(int w, int h) { return 0; }\n"
    graph, _ = _link(sources)
    assert _out(graph, "src/main.c#report", "calls")["src/geo.c#area"] == 1.0
    assert "tests/fake_geo.c#area" not in _out(graph, "src/main.c#report", "calls")
    del sources["src/geo.c"]
    sources["src/other.c"] = "int area(int w, int h) { return w + h; }\n"
    graph, _ = _link(sources)
    assert _out(graph, "src/main.c#report", "calls") == {
        "src/other.c#area": 0.5,  # neither beside the header: both, the confidence shared
        "tests/fake_geo.c#area": 0.5,
        "include/geo.h#twice": 1.0,
        "include/geo.h#unused": 1.0,
    }


EDITS: list[tuple[str, str, str | None]] = [
    # (path, what it becomes, or None: deleted) -- each a change a person makes
    ("src/geo.c", '#include "geo.h"\nint twice(int x) { return x * 2; }\n', "definition removed"),
    ("src/geo.c", C["src/geo.c"], "definition back"),
    ("src/geo.c", C["src/geo.c"] + "int unused(void) { return 0; }\n", "a definition added"),
    ("include/geo.h", C["include/geo.h"].replace("area", "surface"), "header renames"),
    ("include/geo.h", C["include/geo.h"], "header back"),
    (
        "include/geo.h",
        C["include/geo.h"].replace(
            "int area(int w, int h);", "static inline int area(int w, int h) { return w * h; }"
        ),
        "the prototype becomes a definition",
    ),
    ("src/geo.c", "", "the source emptied"),
    ("src/geo_alt.c", C["src/geo.c"], "a second source defines the same"),
    ("src/geo_alt.c", None, "the second source deleted"),
    ("src/main.c", C["src/main.c"].replace("twice(5)", "twice(area(1, 1))"), "a caller edited"),
    ("shapes/shape.cpp", CPP["shapes/shape.cpp"].replace("Shape::area", "Shape::size"), "renamed"),
    ("shapes/shape.cpp", CPP["shapes/shape.cpp"], "back"),
    ("shapes/shape.hpp", CPP["shapes/shape.hpp"].replace("double area() const;", ""), "undeclared"),
    ("shapes/shape.hpp", None, "header deleted"),
    ("shapes/shape.hpp", CPP["shapes/shape.hpp"], "header back"),
]


def _details(linker: Linker) -> dict[str, list[tuple[str, str, str, dict[str, Any]]]]:
    return {path: sorted(linker.use_edges(path)) for path in linker.extracts}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_edits_link_like_a_fresh_build(seed: int) -> None:
    """Every edit of EDITS, in order and in a seeded shuffle, links as a fresh build."""
    edits_link_like_a_fresh_build({**C, **CPP}, EDITS, seed)


def edits_link_like_a_fresh_build(
    sources: dict[str, str], edits: list[tuple[str, str | None, str]], seed: int
) -> None:
    """Apply `edits` (path, new text or None to delete, what) to `sources` one by one (in
    a seeded shuffle but for seed 1), asserting after each that the links and the names
    of the open uses equal a fresh build's."""
    sources = dict(sources)
    graph, linker = _link(sources)
    edits = list(edits) if seed == 1 else random.Random(seed).sample(edits, len(edits))
    for path, text, what in edits:
        old = linker.extracts.get(path)
        change: Change
        if text is None:
            sources.pop(path, None)
            change = (old, None)
        else:
            sources[path] = text
            change = (old, extract_file(path, text.encode()))
        linker.apply({path: change}, Layout())
        fresh, fresh_linker = _link(sources)
        assert graph_state(graph) == graph_state(fresh), what
        assert _details(linker) == _details(fresh_linker), what
        assert linker.open_uses.names() == fresh_linker.open_uses.names(), what


def test_a_saved_map_reopens_and_rebuilds_like_a_fresh_build(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    for path, text in C.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    CodeMap.open(root)
    reopened = CodeMap.open(root)  # from its store: declarations are kept
    assert reopened.graph.has_edge("src/main.c#report", "src/geo.c#area", key="calls")
    geo = root / "src" / "geo.c"
    geo.write_text(geo.read_text().replace("int area(", "int surface("))
    reopened.rebuild()
    assert graph_state(reopened) == graph_state(fresh(root, tmp_path))
    assert reopened.graph.has_edge("src/main.c#report", "include/geo.h#area", key="calls")
