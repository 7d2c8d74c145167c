"""An answer given while the server still loads the workspace says it may be incomplete."""

from __future__ import annotations

import asyncio
import shutil
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bridge.config import load_config
from bridge.context import AppContext
from bridge.tools.nav import nav_definition, nav_workspace_symbols

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "py_app"
FAKE = Path(__file__).resolve().parents[1] / "lsp" / "fake_server.py"
SHAPES = "app/shapes.py"
Envelope = Any
"""A tool's answer envelope, as the tests read it."""


def _repo(tmp_path: Path, ready_log: str | None) -> Path:
    """The py_app fixture served by the scripted server; with `ready_log`, the server
    counts as loaded only once it logs a matching line (it never logs anything)."""
    root = tmp_path / "repo"
    shutil.copytree(FIXTURE, root)
    ready = f"ready_log = [{ready_log!r}]\n" if ready_log else ""
    (root / "codeanchor.toml").write_text(
        'servers = { python = "fake" }\n[live]\ncold_start_deadline = 0.5\n'
        '[server.fake]\nlanguages = ["python"]\nextensions = [".py"]\n'
        f'install = "(a test double)"\n{ready}'
        f"command = [{sys.executable!r}, {str(FAKE)!r}, 'cold', '0']\n"
    )
    return root


def _warnings(root: Path, ask: Callable[[AppContext], Awaitable[Envelope]]) -> list[str]:
    """The warnings of the answer `ask` gets from the scripted server of `root`."""

    async def scenario() -> list[str]:
        app = AppContext(root, load_config(root))  # given, so its scripted server runs
        try:
            async with asyncio.timeout(30):
                return list((await ask(app))["warnings"])
        finally:
            await app.aclose()

    return asyncio.run(scenario())


def _definition_warnings(root: Path) -> list[str]:
    line = next(
        i
        for i, text in enumerate((root / SHAPES).read_text().splitlines(), 1)
        if "self.area()" in text
    )

    async def ask(app: AppContext) -> Envelope:
        envelope = await nav_definition(app, f"{SHAPES}:{line}", name="area")
        assert envelope["data"]["count"] == 1
        return envelope

    return _warnings(root, ask)


def test_an_answer_from_a_server_still_loading_is_flagged(tmp_path: Path) -> None:
    warnings = _definition_warnings(_repo(tmp_path, "^this is never logged$"))
    assert any("still loading the workspace" in w for w in warnings), warnings


def test_an_answer_from_a_loaded_server_is_not_flagged(tmp_path: Path) -> None:
    assert _definition_warnings(_repo(tmp_path, None)) == []


def _symbol_warnings(root: Path) -> list[str]:
    async def ask(app: AppContext) -> Envelope:
        envelope = await nav_workspace_symbols(app, "Shape", language="python")
        assert [s["name"] for s in envelope["data"]["symbols"]] == ["Shape"]
        return envelope

    return _warnings(root, ask)


def test_workspace_symbols_from_a_server_still_loading_are_flagged(tmp_path: Path) -> None:
    warnings = _symbol_warnings(_repo(tmp_path, "^this is never logged$"))
    assert any("still loading the workspace" in w for w in warnings), warnings


def test_workspace_symbols_from_a_loaded_server_are_not_flagged(tmp_path: Path) -> None:
    assert _symbol_warnings(_repo(tmp_path, None)) == []
