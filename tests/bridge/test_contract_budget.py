"""The budget cuts the least important items: locals before the classes of a file,
library callees before the workspace's; callees come once per target.

The outline goes through a real MCP stdio client and pyright (whose outline
lists the local variables of functions; ty's does not).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from lsp.model import CallSite, Location, Span
from tests.bridge.mcp_session import call, serve
from tests.conftest import require_binary
from verify import by_target

SCENARIO_TIMEOUT_S = 180.0
LOCALS = 40


def _engine_repo(tmp_path: Path) -> Path:
    """A file whose first function has many locals, and whose main class comes last."""
    require_binary("pyright-langserver")
    root = tmp_path / "repo"
    root.mkdir()
    (root / "pyproject.toml").write_text(
        '[tool.codeanchor]\nwatch = false\nservers = { python = "pyright" }\n'
    )
    body = "".join(f"    local_value_number_{i} = {i}\n" for i in range(LOCALS))
    (root / "engine.py").write_text(
        f"def setup():\n{body}    return 0\n\n\n"
        "class Engine:\n"
        "    def start(self, speed):\n        return speed\n\n"
        "    def stop(self):\n        return None\n"
    )
    return root


def _names(entries: list[dict[str, Any]]) -> list[str]:
    return [n for e in entries for n in (e["name"], *_names(e.get("children", [])))]


def test_a_cut_outline_keeps_the_class_and_drops_locals(tmp_path: Path) -> None:
    root = _engine_repo(tmp_path)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(root) as client:
            whole = await call(client, "nav_symbols", path="engine.py", budget=50_000)
            cut = await call(client, "nav_symbols", path="engine.py", budget=600)
            return whole, cut

    whole, cut = asyncio.run(scenario())
    assert whole["truncated"] is None
    assert "local_value_number_39" in _names(whole["data"]["symbols"])
    names = _names(cut["data"]["symbols"])
    assert {"setup", "Engine", "start", "stop"} <= set(names)
    assert "local_value_number_39" not in names
    truncated = cut["truncated"]
    assert truncated["items"] == "symbols" and truncated["dropped"] > 0
    assert truncated["kept"] == len(names)


def _site(name: str, path: str, line: int, detail: str | None, *calls: int) -> CallSite:
    where = Location(path=path, span=Span(line - 1, 4, line - 1, 8), line=line, text="")
    spans = tuple(Span(c - 1, 2, c - 1, 6) for c in calls)
    return CallSite(name, "function", detail, where, spans)


def test_callees_come_once_per_target_workspace_first() -> None:
    sites = [
        _site("len", "/usr/lib/builtins.pyi", 10, None, 3),
        _site("helper", "m.py", 1, "(x)", 6),
        _site("helper", "m.py", 1, "(x=2)", 7, 8),
        _site("main", "m.py", 5, None, 9),
    ]
    grouped = by_target(sites)
    assert [s.name for s in grouped] == ["helper", "main", "len"]
    assert [span.start_line + 1 for span in grouped[0].call_spans] == [6, 7, 8]
