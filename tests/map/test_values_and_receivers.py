"""Go calls typed through receivers, parameters, locals, fields and results (an
interface's method when the type is an interface, the concrete method when the file
says the concrete type); functions and methods taken as values (Go method values,
C function pointers) are calls; incremental links equal a fresh one."""

from __future__ import annotations

from typing import Any

import networkx as nx
import pytest

from map.extraction.extract import extract_file
from map.graph.mapgraph import MapGraph
from map.linking.layout import Layout
from map.linking.link_input import Change
from map.linking.linker import Linker
from tests.map.graph_state import graph_state

GO_MOD = {"go.mod": "example.com/shop"}
GO = {
    "cart/cart.go": (
        "package cart\n\n"
        "type Pricer interface {\n\tPrice(sku string) int\n}\n\n"
        "type Base struct{}\n\n"
        "func (b *Base) Reset() {}\n\n"
        "type Cart struct {\n\t*Base\n\tpricer Pricer\n\titems []string\n}\n\n"
        "func New(p Pricer) *Cart { return &Cart{pricer: p} }\n\n"
        "func (c *Cart) Total() int {\n"
        "\tsum := 0\n"
        "\tfor _, sku := range c.items {\n\t\tsum += c.pricer.Price(sku)\n\t}\n"
        "\treturn sum\n}\n"
    ),
    "cart/add.go": (
        "package cart\n\nfunc (c *Cart) Add(sku string) { c.items = append(c.items, sku) }\n"
    ),
    "cart/fixed.go": (
        "package cart\n\ntype Fixed struct{}\n\nfunc (f Fixed) Price(sku string) int { return 1 }\n"
    ),
    "main.go": (
        "package main\n\n"
        'import "example.com/shop/cart"\n\n'
        "func each(skus []string, do func(string)) {\n"
        "\tfor _, s := range skus {\n\t\tdo(s)\n\t}\n}\n\n"
        "func run(p cart.Pricer) int {\n"
        "\tc := cart.New(p)\n"
        "\tadd := c.Add\n"
        '\tadd("a")\n'
        '\teach([]string{"b"}, c.Add)\n'
        "\tf := cart.Fixed{}\n"
        "\tc.Reset()\n"
        '\treturn c.Total() + p.Price("c") + f.Price("d")\n'
        "}\n"
    ),
}
C = {
    "lib/sort.h": "int by_size(const void *a, const void *b);\n",
    "lib/sort.c": (
        '#include "sort.h"\n'
        "int by_size(const void *a, const void *b) { return 0; }\n"
        "static int limit = 3;\n"
    ),
    "app/main.c": (
        '#include "../lib/sort.h"\n'
        "typedef int (*cmp)(const void *, const void *);\n"
        "static cmp table[] = {by_size};\n"
        "int run(cmp by_name, int count) {\n"
        "  qsort(0, count, 1, by_size);\n"
        "  return by_name(0, 0) + count;\n"
        "}\n"
    ),
}


def _link(sources: dict[str, str]) -> tuple[MapGraph, Linker]:
    graph: MapGraph = nx.MultiDiGraph()
    linker = Linker(graph)
    changes = {p: (None, extract_file(p, s.encode())) for p, s in sources.items() if p != "go.mod"}
    linker.apply(changes, Layout({"": sources["go.mod"]} if "go.mod" in sources else {}))
    return graph, linker


def _calls(graph: MapGraph, node: str) -> dict[str, float]:
    return {
        target: data["confidence"]
        for _, target, key, data in graph.out_edges(node, keys=True, data=True)
        if key == "calls"
    }


def test_go_calls_reach_the_typed_method() -> None:
    graph, _ = _link({**GO_MOD, **GO})
    assert _calls(graph, "main.go#run") == {
        "cart/cart.go#New": 1.0,
        "cart/add.go#Cart.Add": 1.0,  # a method value, called later and passed on
        "cart/cart.go#Cart.Total": 1.0,  # `c` is what New returns
        "cart/cart.go#Base.Reset": 0.9,  # promoted from the embedded *Base
        "cart/cart.go#Pricer.Price": 1.0,  # `p` is an interface: its method
        "cart/fixed.go#Fixed": 1.0,  # a composite literal constructs it
        "cart/fixed.go#Fixed.Price": 1.0,  # `f` is the concrete type: its method
        "main.go#each": 1.0,
    }
    # a field of interface type; a function parameter called is nothing of ours
    assert _calls(graph, "cart/cart.go#Cart.Total") == {"cart/cart.go#Pricer.Price": 1.0}
    assert _calls(graph, "main.go#each") == {}


def test_go_method_value_lines_are_its_uses() -> None:
    _, linker = _link({**GO_MOD, **GO})
    details = linker.edge_details("main.go#run", "cart/add.go#Cart.Add", "calls")
    assert details is not None and details["lines"] == (13, 14, 15)  # taken, called, passed


def test_go_major_version_path_binds_the_package_name() -> None:
    sources = {
        "go.mod": "example.com/shop/v2",
        "cart/cart.go": "package cart\n\nfunc New() int { return 1 }\n",
        "cli/main.go": (
            'package main\n\nimport "example.com/shop/v2/cart"\n\nfunc main() { cart.New() }\n'
        ),
    }
    graph, _ = _link(sources)
    assert _calls(graph, "cli/main.go#main") == {"cart/cart.go#New": 1.0}


def test_c_function_pointers_are_calls_and_parameters_name_nothing() -> None:
    graph, _ = _link(C)
    assert _calls(graph, "app/main.c#run") == {"lib/sort.c#by_size": 1.0}
    assert _calls(graph, "app/main.c") == {"lib/sort.c#by_size": 1.0}  # the table


EDITS: list[tuple[str, str | None]] = [
    ("cart/add.go", None),
    ("cart/add.go", GO["cart/add.go"]),
    ("cart/add.go", GO["cart/add.go"].replace("Add(", "Append(")),
    ("cart/add.go", GO["cart/add.go"]),
    ("cart/cart.go", GO["cart/cart.go"].replace("pricer Pricer", "pricer Fixed")),
    ("cart/cart.go", GO["cart/cart.go"].replace("*Cart { return", "Pricer { return")),
    ("cart/fixed.go", GO["cart/fixed.go"].replace("Price(", "Cost(")),
    ("main.go", GO["main.go"].replace("add := c.Add", "add := c.Total")),
    ("cart/cart.go", GO["cart/cart.go"]),
    ("lib/sort.c", C["lib/sort.c"].replace("by_size(", "by_len(")),
    ("lib/sort.c", C["lib/sort.c"]),
    ("app/main.c", C["app/main.c"].replace("cmp by_name", "cmp by_size")),
]


def _details(linker: Linker) -> dict[str, list[tuple[str, str, str, dict[str, Any]]]]:
    return {path: sorted(linker.use_edges(path)) for path in linker.extracts}


@pytest.mark.parametrize("order", ["as listed", "reversed"])
def test_edits_link_like_a_fresh_build(order: str) -> None:
    sources = {**GO_MOD, **GO, **C}
    graph, linker = _link(sources)
    for path, text in EDITS if order == "as listed" else EDITS[::-1]:
        old = linker.extracts.get(path)
        change: Change
        if text is None:
            del sources[path]
            change = (old, None)
        else:
            sources[path] = text
            change = (old, extract_file(path, text.encode()))
        linker.apply({path: change}, Layout({"": sources["go.mod"]}))
        fresh, fresh_linker = _link(sources)
        assert graph_state(graph) == graph_state(fresh), (path, text)
        assert _details(linker) == _details(fresh_linker), (path, text)
