"""The map records the uses linking left open, and says why each is open: a real map
of a small Python repository, read through the front door."""

from __future__ import annotations

from pathlib import Path

from map import CodeMap, MapSettings

SOURCES = {
    "pkg/__init__.py": "",
    "pkg/shapes.py": (
        "class Circle:\n"
        "    def area(self):\n"
        "        return 1\n\n\n"
        "class Square:\n"
        "    def area(self):\n"
        "        return 2\n"
    ),
    "pkg/use.py": (
        "import json\n\n"
        "from pkg.shapes import Circle\n\n\n"
        "def run(shape, callback):\n"
        "    json.dumps(shape)\n"
        "    shape.get(1)\n"
        "    shape.area()\n"
        "    callback()\n"
        "    print(len(shape))\n"
        "    mystery()\n"
        "    return Circle().area()\n"
    ),
}


def _map(tmp_path: Path) -> CodeMap:
    root = tmp_path / "repo"
    for path, text in SOURCES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return CodeMap.open(root, MapSettings(snapshot_dir=str(tmp_path / "store")))


def test_each_open_use_says_why_it_is_open(tmp_path: Path) -> None:
    code_map = _map(tmp_path)
    found = code_map.unresolved_within(["pkg/use.py#run"])
    assert [(u.line, u.name, u.receiver, u.kind, u.why) for u in found] == [
        (7, "dumps", "json", "calls", "outside"),
        (8, "get", "shape", "calls", "receiver"),
        (9, "area", "shape", "calls", "guess"),
        (10, "callback", None, "calls", "local"),
        (11, "print", None, "calls", "builtin"),
        (11, "len", None, "calls", "builtin"),
        (12, "mystery", None, "calls", "undefined"),
    ]
    assert {u.scope for u in found} == {"pkg/use.py#run"}


def test_a_guess_by_name_is_open_and_names_what_it_may_mean(tmp_path: Path) -> None:
    code_map = _map(tmp_path)
    (guess,) = code_map.unresolved_named(["area"])
    assert (guess.path, guess.line, guess.receiver, guess.why) == (
        "pkg/use.py",
        9,
        "shape",
        "guess",
    )
    assert guess.guesses == ("pkg/shapes.py#Circle.area", "pkg/shapes.py#Square.area")


def test_an_edit_that_ties_a_use_takes_it_off_the_record(tmp_path: Path) -> None:
    code_map = _map(tmp_path)
    assert [u.name for u in code_map.unresolved_named(["mystery"])] == ["mystery"]
    shapes = code_map.root / "pkg" / "shapes.py"
    shapes.write_text(shapes.read_text() + "\n\ndef mystery():\n    return 3\n")
    use = code_map.root / "pkg" / "use.py"
    use.write_text(use.read_text().replace("import Circle", "import Circle, mystery"))
    code_map.rebuild()
    assert code_map.unresolved_named(["mystery"]) == []
