"""Python receivers the map types as ty does: real maps of a small Python repository
asked through the real tools on a real AppContext.

A loop or comprehension variable holds one of what its iterable holds (`lines:
List["Line"]`, a method returning `list[Line]`); a generic base (`Base[T]`) is a base
(`self.` and `super().` calls reach its methods); an attribute annotated `type[Undefined]`
holds the class, so calling it constructs one; a property read inside an expression
(`line.width + 1`) is a use of it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bridge.tools.mapgraph import map_neighbors
from tests.bridge.test_map_completeness import _ask, _callers, _repo

SOURCES = {
    "pkg/__init__.py": "",
    "pkg/lines.py": (
        "from typing import Generic, List, TypeVar\n"  # 1
        "\n"  # 2
        'T = TypeVar("T")\n'  # 3
        "\n"  # 4
        "\n"  # 5
        "class Line:\n"  # 6
        "    def __init__(self, text: str) -> None:\n"  # 7
        "        self.text = text\n"  # 8
        "\n"  # 9
        "    @property\n"  # 10
        "    def width(self) -> int:\n"  # 11
        "        return len(self.text)\n"  # 12
        "\n"  # 13
        "    def show(self) -> str:\n"  # 14
        "        return self.text\n"  # 15
        "\n"  # 16
        "\n"  # 17
        "class Base(Generic[T]):\n"  # 18
        "    def load(self, value: T) -> T:\n"  # 19
        "        return value\n"  # 20
        "\n"  # 21
        "\n"  # 22
        "class Page(Base[str]):\n"  # 23
        "    blank: type[Line] = Line\n"  # 24
        "\n"  # 25
        "    def __init__(self, lines: List['Line']) -> None:\n"  # 26
        "        self.lines = lines\n"  # 27
        "\n"  # 28
        "    def all(self) -> list[Line]:\n"  # 29
        "        return self.lines\n"  # 30
        "\n"  # 31
        "    def load(self, value: str) -> str:\n"  # 32
        "        return super().load(self.load_raw(value))\n"  # 33
        "\n"  # 34
        "    def load_raw(self, value: str) -> str:\n"  # 35
        "        return value\n"  # 36
        "\n"  # 37
        "    def render(self, lines: List['Line']) -> int:\n"  # 38
        "        for line in lines:\n"  # 39
        "            line.show()\n"  # 40
        "        shown = [line.show() for line in self.all()]\n"  # 41
        "        filler = self.blank('')\n"  # 42
        "        return sum(line.width for line in lines) + filler.width + len(shown)\n"  # 43
    ),
}


def _listed(data: dict[str, Any]) -> list[tuple[str, list[int]]]:
    return [(n["nodeId"], n["at"]) for n in data["neighbors"]]


def test_python_loops_generic_bases_class_attributes_and_property_reads(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", SOURCES)
    show, load, init, width = _ask(
        root,
        _callers("pkg/lines.py#Line.show"),
        _callers("pkg/lines.py#Base.load"),
        _callers("pkg/lines.py#Line.__init__"),
        (
            map_neighbors,
            {
                "node_id": "pkg/lines.py#Line.width",
                "direction": "in",
                "kinds": ["calls", "references"],
            },
        ),
    )
    data = show["data"]
    assert _listed(data) == [("pkg/lines.py#Page.render", [40, 41])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = load["data"]
    assert _listed(data) == [("pkg/lines.py#Page.load", [33])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = init["data"]
    assert _listed(data) == [("pkg/lines.py#Page.render", [42])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = width["data"]
    assert _listed(data) == [("pkg/lines.py#Page.render", [43])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
