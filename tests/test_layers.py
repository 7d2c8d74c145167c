"""The layer rule of docs/contracts.md#layers: who may import whom."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
OURS = {"bridge", "memory", "map", "lsp", "disk"}
ALLOWED = {
    "disk": set(),
    "map": {"disk"},
    "lsp": {"disk"},
    "memory": {"map", "disk"},
    "bridge": {"memory", "map", "lsp", "disk"},
}


def _imported_packages(source: Path) -> set[str]:
    tree = ast.parse(source.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found & OURS


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_package_imports_only_lower_layers(package: str) -> None:
    offenders = {
        str(path.relative_to(ROOT)): sorted(imported - ALLOWED[package] - {package})
        for path in (ROOT / package).rglob("*.py")
        if (imported := _imported_packages(path)) - ALLOWED[package] - {package}
    }
    assert offenders == {}
