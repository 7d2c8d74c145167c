"""Helpers for live-layer tests: an event loop per module, fixture copies, positions.

Tests drive async code through `Loop.run`, which bounds every await with a
timeout; a module shares one loop (and one pool per server) to save start-ups.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import Coroutine, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import pytest

from disk.columns import to_utf16
from lsp.catalog import Catalog, ServerSpec
from lsp.pool import LivePool
from lsp.settings import LiveSettings
from tests.conftest import FIXTURES, require_binary

T = TypeVar("T")

AWAIT_TIMEOUT_S = 60.0
PYTHON_SERVERS = ("ty", "pyright")


class Loop:
    """One event loop that outlives single calls (servers live across tests)."""

    def __init__(self) -> None:
        self._runner = asyncio.Runner()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = AWAIT_TIMEOUT_S) -> T:
        """Run `coro` to completion, failing after `timeout` seconds."""
        return self._runner.run(asyncio.wait_for(coro, timeout))

    def close(self) -> None:
        self._runner.close()


@dataclass
class Live:
    """A pool over a private copy of a fixture, and the loop it runs on."""

    pool: LivePool
    loop: Loop
    root: Path

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = AWAIT_TIMEOUT_S) -> T:
        return self.loop.run(coro, timeout)


def copy_fixture(name: str, dest: Path) -> Path:
    """A private copy of tests/fixtures/<name> under `dest`."""
    root = dest / name
    shutil.copytree(FIXTURES / name, root)
    return root


def catalog_for(language: str, server: str) -> Catalog:
    """The built-in catalog with `server` chosen for `language` (skips when missing)."""
    catalog = Catalog.builtin().with_overrides({language: server}, {})
    require_binary(catalog.servers[server].command[0])
    return catalog


def python_catalog_with(name: str, command: tuple[str, ...]) -> Catalog:
    """The built-in catalog with an extra Python server `name` run as `command`, chosen."""
    spec = ServerSpec(
        name=name,
        languages=("python",),
        command=command,
        install="(a test double)",
        language_ids={".py": "python"},
    )
    return Catalog.builtin().with_overrides({"python": name}, {name: spec})


def position_of(root: Path, path: str, needle: str, *, after: str = "") -> tuple[int, int]:
    """The LSP position (0-based line, UTF-16 column) of the first `needle` that
    follows the first `after` in the file."""
    text = (root / path).read_text(encoding="utf-8")
    offset = text.index(needle, text.index(after) if after else 0)
    line = text.count("\n", 0, offset)
    line_start = text.rfind("\n", 0, offset) + 1
    line_text = text[line_start:].split("\n", 1)[0]
    return line, to_utf16(line_text, offset - line_start)


def line_of(root: Path, path: str, needle: str, *, after: str = "") -> int:
    """The 1-based line of `needle`, as results report lines."""
    return position_of(root, path, needle, after=after)[0] + 1


@contextlib.contextmanager
def open_live(
    fixture: str,
    dest: Path,
    *,
    language: str = "python",
    server: str = "ty",
    settings: LiveSettings | None = None,
    catalog: Catalog | None = None,
) -> Iterator[Live]:
    """A pool with `server` for `language` over a fresh copy of `fixture`; closed after."""
    catalog = catalog or catalog_for(language, server)
    root = copy_fixture(fixture, dest)
    loop = Loop()
    pool = LivePool(root, catalog, settings)
    try:
        yield Live(pool, loop, root)
    finally:
        try:
            loop.run(pool.aclose())
        finally:
            loop.close()


@pytest.fixture(scope="module", params=PYTHON_SERVERS)
def py_live(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Live]:
    """A module-wide pool per Python server over a copy of py_app (read-only tests)."""
    dest = tmp_path_factory.mktemp(f"py_app_{request.param}")
    with open_live("py_app", dest, server=request.param) as live:
        yield live
