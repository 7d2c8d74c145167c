"""A Go module whose dependencies are missing from the module cache (offline): nav
answers say so and how to fix it, through a real MCP client and a real gopls."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from tests.bridge.mcp_session import call, call_error, serve
from tests.conftest import FIXTURES, require_binary
from tests.lsp.conftest import line_of


def test_answers_and_errors_name_the_missing_module_and_go_mod_download(tmp_path: Path) -> None:
    require_binary("gopls")
    root = tmp_path / "go_missing"
    shutil.copytree(FIXTURES / "go_missing", root)
    call_line = line_of(root, "main.go", "shapes.Area")
    area_line = line_of(root, "shapes/shapes.go", "func Area")

    async def ask() -> tuple[dict[str, object], dict[str, object]]:
        async with serve(root) as client:
            answer = await call(
                client, "nav_definition", target=f"main.go:{call_line}", name="Area"
            )
            error = await call_error(
                client, "nav_references", target=f"shapes/shapes.go:{area_line}", name="Area"
            )
            return answer, error

    answer, error = asyncio.run(asyncio.wait_for(ask(), 120))
    data = answer["data"]
    assert isinstance(data, dict)
    assert [(loc["path"], loc["line"]) for loc in data["locations"]] == [
        ("shapes/shapes.go", area_line)
    ]
    warnings = answer["warnings"]
    assert isinstance(warnings, list)
    assert any("example.invalid/greeter@v1.0.0" in w and "go mod download" in w for w in warnings)
    assert error["code"] == "workspace_incomplete"
    assert "example.invalid/greeter@v1.0.0" in str(error["message"])
    assert str(error["hint"]).startswith("run `go mod download`")
