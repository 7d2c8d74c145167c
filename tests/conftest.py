"""Shared test helpers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from lsp.catalog import locate

FIXTURES = Path(__file__).parent / "fixtures"


def require_binary(name: str) -> Path:
    """The path of an installed executable; fails under CI and skips loudly elsewhere."""
    found = locate(name)
    if found is None:
        message = f"{name} is not installed: run scripts/setup.sh (CI installs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(f"MISSING SERVER: {message}")
    return found


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write `files` ({relative path: text}) under `root`, folders made; returns `root`."""
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return root
