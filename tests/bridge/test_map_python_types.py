"""Python receivers the map types as ty does: real maps of a small Python repository
asked through the real tools on a real AppContext.

A loop or comprehension variable holds one of what its iterable holds (`lines:
List["Line"]`, a method returning `list[Line]`); a generic base (`Base[T]`) is a base
(`self.` and `super().` calls reach its methods); an attribute annotated `type[Undefined]`
holds the class, so calling it constructs one; a property read inside an expression
(`line.width + 1`) is a use of it; `Optional[Line]` holds a Line when it holds anything,
and a name given twice what stands for the same (`line = line.wider()`) holds that; an
alias of a method (`wider = Line.wider`) calls the method, not the class it returns.
"""

from __future__ import annotations

from pathlib import Path

from bridge.tools.mapgraph import map_neighbors
from tests.bridge.test_map_completeness import _ask, _callers, _listed, _repo

SOURCES = {
    "pkg/__init__.py": "",
    "pkg/lines.py": (
        "from typing import Generic, List, Optional, TypeVar\n"  # 1
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
        "    def wider(self) -> Line | None:\n"  # 17
        "        return self\n"  # 18
        "\n"  # 19
        "\n"  # 20
        "class Base(Generic[T]):\n"  # 21
        "    def load(self, value: T) -> T:\n"  # 22
        "        return value\n"  # 23
        "\n"  # 24
        "\n"  # 25
        "class Page(Base[str]):\n"  # 26
        "    blank: type[Line] = Line\n"  # 27
        "\n"  # 28
        "    def __init__(self, lines: List['Line']) -> None:\n"  # 29
        "        self.lines = lines\n"  # 30
        "\n"  # 31
        "    def all(self) -> list[Line]:\n"  # 32
        "        return self.lines\n"  # 33
        "\n"  # 34
        "    def load(self, value: str) -> str:\n"  # 35
        "        return super().load(self.load_raw(value))\n"  # 36
        "\n"  # 37
        "    def load_raw(self, value: str) -> str:\n"  # 38
        "        return value\n"  # 39
        "\n"  # 40
        "    def render(self, lines: List['Line']) -> int:\n"  # 41
        "        for line in lines:\n"  # 42
        "            line.show()\n"  # 43
        "        shown = [line.show() for line in self.all()]\n"  # 44
        "        filler = self.blank('')\n"  # 45
        "        return sum(line.width for line in lines) + filler.width + len(shown)\n"  # 46
        "\n"  # 47
        "\n"  # 48
        "def widen(line: Optional[Line]) -> None:\n"  # 49
        "    line = line.wider()\n"  # 50
        "    line.show()\n"  # 51
        "    show = Line.show\n"  # 52
        "    show(line)\n"  # 53
        "    wider = Line.wider\n"  # 54
        "    wider(line)\n"  # 55
    ),
}


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
    assert _listed(data) == [
        ("pkg/lines.py#Page.render", [43, 44]),
        ("pkg/lines.py#widen", [51, 53]),
    ]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = load["data"]
    assert _listed(data) == [("pkg/lines.py#Page.load", [36])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = init["data"]
    assert _listed(data) == [("pkg/lines.py#Page.render", [45])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = width["data"]
    assert _listed(data) == [("pkg/lines.py#Page.render", [46])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
