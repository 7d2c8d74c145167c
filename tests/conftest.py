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
