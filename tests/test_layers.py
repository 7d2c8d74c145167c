"""The layer rule of docs/contracts.md#layers: who may import whom, and through which door.

A package above imports a layer with a front door only from the door itself
(`from lsp import LivePool`), never from a submodule (`lsp.pool`).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = {"bridge", "verify", "memory", "map", "lsp", "disk"}
ALLOWED = {
    "disk": set(),
    "map": {"disk"},
    "lsp": {"disk"},
    "memory": {"map", "disk"},
    "verify": {"map", "lsp", "disk"},
    "bridge": {"verify", "memory", "map", "lsp", "disk"},
}
FRONT_DOORS = {
    "bridge": {"verify", "lsp", "map", "memory"},
    "verify": {"lsp", "map"},
    "memory": {"map"},
}
"""The layers each package imports only through their front door (`__init__.py`)."""


def _imports(source: Path) -> set[tuple[str, str | None]]:
    """Every absolute import in `source`, anywhere in it: (module, name imported from it)."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    found: set[tuple[str, str | None]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.update((node.module, alias.name) for alias in node.names)
    return found


def _imported_packages(source: Path) -> set[str]:
    return {module.split(".")[0] for module, _ in _imports(source)} & OURS


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_lower_layers(package: str) -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported - ALLOWED[package] - {package})
        for path in (ROOT / package).rglob("*.py")
        if (imported := _imported_packages(path)) - ALLOWED[package] - {package}
    }
    assert offenders == {}


@pytest.mark.parametrize("package", sorted(FRONT_DOORS))
def test_package_uses_only_front_doors(package: str) -> None:
    """`from lsp import LivePool`; not `from lsp.pool import LivePool`, `from lsp import pool`."""
    public = {layer: set(importlib.import_module(layer).__all__) for layer in FRONT_DOORS[package]}
    offenders = {
        str(path.relative_to(ROOT)): sorted(f"{module}:{name}" for module, name in behind)
        for path in (ROOT / package).rglob("*.py")
        if (
            behind := {
                (module, name)
                for module, name in _imports(path)
                if module.split(".")[0] in public
                and (module not in public or name not in public[module])
            }
        )
    }
    assert offenders == {}


@pytest.mark.parametrize("layer", sorted(set().union(*FRONT_DOORS.values())))
def test_front_door_names_resolve(layer: str) -> None:
    """Every name a front door lists is public and loads, and none is also the name of a
    submodule (once that submodule is imported, the package attribute is the module)."""
    door = importlib.import_module(layer)
    submodules = {info.name for info in pkgutil.iter_modules(door.__path__)}
    assert [name for name in door.__all__ if name.startswith("_")] == []
    assert sorted(set(door.__all__) & submodules) == []
    assert [name for name in door.__all__ if getattr(door, name, None) is None] == []


@pytest.mark.parametrize("layer", sorted(set().union(*FRONT_DOORS.values())))
def test_front_door_lists_agree(layer: str) -> None:
    """A door's three lists name the same things: its type checker imports (what mypy
    sees), its module -> names table (what loads at run time) and `__all__`. A name missing
    from the first would type as `object` for every caller."""
    door = importlib.import_module(layer)
    tree = ast.parse(Path(door.__file__ or "").read_text(encoding="utf-8"))
    checked = sorted(
        (alias.name, statement.module)
        for node in tree.body
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for statement in node.body
        if isinstance(statement, ast.ImportFrom)
        for alias in statement.names
    )
    loaded = sorted((name, module) for module, names in door._HOME.items() for name in names)
    assert checked == loaded
    assert sorted(door.__all__) == [name for name, _ in loaded]


GRAPH_INTERNALS = {"graph", "nodes", "out_edges", "in_edges"}
"""The map's networkx graph and its attribute dicts: map/'s business, read above it
only through typed results (NodeDetails, EdgeDetails, edge_kinds, uses_of)."""


@pytest.mark.parametrize("package", ["bridge", "verify", "memory"])
def test_package_reads_the_map_through_typed_results(package: str) -> None:
    offenders = {
        f"{path.relative_to(ROOT)}:{node.lineno}": node.attr
        for path in (ROOT / package).rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and node.attr in GRAPH_INTERNALS
    }
    assert offenders == {}


MAP_ROOMS = ("extraction", "graph", "linking", "intake", "store", "live")
"""map/'s rooms, bottom first: a room imports only the rooms before it here (and map's
base modules, which sit directly in map/ and import no room)."""


def _map_imports(path: Path) -> set[str]:
    """The parts of map/ that `path` imports: a room's name, or a base module's."""
    return {
        module.split(".")[1]
        for module, name in _imports(path)
        for module in ([f"{module}.{name}"] if module == "map" and name else [module])
        if module.startswith("map.")
    }


@pytest.mark.parametrize("room", MAP_ROOMS)
def test_map_room_imports_only_rooms_below(room: str) -> None:
    below = set(MAP_ROOMS[: MAP_ROOMS.index(room)])
    offenders = {
        str(path.relative_to(ROOT)): sorted(wrong)
        for path in (ROOT / "map" / room).rglob("*.py")
        if (wrong := {part for part in _map_imports(path) if part in MAP_ROOMS} - below - {room})
    }
    assert offenders == {}


def test_map_base_modules_import_no_room() -> None:
    """The modules directly in map/ (but its door) are the floor every room stands on."""
    offenders = {
        path.name: sorted(_map_imports(path) & set(MAP_ROOMS))
        for path in (ROOT / "map").glob("*.py")
        if path.name != "__init__.py" and _map_imports(path) & set(MAP_ROOMS)
    }
    assert offenders == {}


def test_map_rooms_say_their_job() -> None:
    """Every room is a package whose docstring says what it may import; few modules
    stay outside the rooms."""
    rooms = sorted(p.name for p in (ROOT / "map").iterdir() if (p / "__init__.py").is_file())
    assert rooms == sorted(MAP_ROOMS)
    for room in MAP_ROOMS:
        doc = ast.get_docstring(ast.parse((ROOT / "map" / room / "__init__.py").read_text()))
        assert doc is not None and "May import" in doc, room
    assert len(list((ROOT / "map").glob("*.py"))) <= 12


CYCLE_FREE = ("bridge", "verify", "lsp", "map", "memory", "disk")
"""Every package, whose modules import one another in one direction only."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(path: Path, modules: set[str]) -> Iterator[str]:
    """The modules of `modules` that `path` imports anywhere in it (in a function too,
    and under TYPE_CHECKING: a circle of annotations is still a circle); `from a import b`
    imports the module `a.b` when there is one, else `a`."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1])
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                inner = f"{base}.{alias.name}"
                if inner in modules:
                    yield inner
                elif base in modules:
                    yield base


def test_no_import_cycles() -> None:
    """No module of ours imports, through any chain of imports (TYPE_CHECKING ones
    included), a module that imports it: each circle is broken by giving the shared
    piece its own home."""
    paths = {
        _module_name(path): path for layer in CYCLE_FREE for path in (ROOT / layer).rglob("*.py")
    }
    graph: nx.DiGraph[str] = nx.DiGraph()
    graph.add_nodes_from(paths)
    graph.add_edges_from(
        (module, imported)
        for module, path in paths.items()
        for imported in _imported_modules(path, set(paths))
        if imported != module
    )
    circles = [sorted(c) for c in nx.strongly_connected_components(graph) if len(c) > 1]
    assert circles == []
