"""nav_callers and nav_callees on TypeScript functions held by a constant, with the real
typescript-language-server: `const f = (...) => ...` and `const f = ((...) => ...) as F`
(tsserver prepares no call hierarchy on the latter's name; its callers' outgoing calls
land on the type). Every call is found, and nav_callees says how complete it is."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest

from bridge.context import AppContext
from bridge.tools import nav
from tests.conftest import FIXTURES, require_binary
from tests.lsp.conftest import line_of

SCENARIO_TIMEOUT_S = 180.0
PLAIN = "export const double = (x: number): number => x * 2 + totalArea([]);\n"
CAST = (
    "type Double = (x: number) => number;\n"
    "export const double = ((x: number): number => x * 2 + totalArea([])) as Double;\n"
)
USES = (
    "\nexport const d = double(2);\n"
    "export function twice(): number {\n  return double(double(1));\n}\n"
)


def _ask(tmp_path: Path, declaration: str) -> tuple[Path, dict[str, Any], dict[str, Any]]:
    require_binary("typescript-language-server")
    root = tmp_path / "ts_app"
    shutil.copytree(FIXTURES / "ts_app", root)
    shapes, main = root / "src" / "shapes.ts", root / "src" / "main.ts"
    shapes.write_text(shapes.read_text() + "\n" + declaration)
    main.write_text(main.read_text().replace("totalArea }", "totalArea, double }") + USES)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        app = AppContext(root)
        try:
            async with asyncio.timeout(SCENARIO_TIMEOUT_S):
                callers = await nav.nav_callers(app, "src/shapes.ts#double")
                callees = await nav.nav_callees(app, "src/shapes.ts#double")
                return dict(callers["data"]), dict(callees["data"])
        finally:
            await app.aclose()

    callers, callees = asyncio.run(scenario())
    return root, callers, callees


@pytest.mark.parametrize("declaration", [PLAIN, CAST], ids=["arrow", "cast_arrow"])
def test_every_call_of_a_const_function_is_a_caller(tmp_path: Path, declaration: str) -> None:
    root, callers, _ = _ask(tmp_path, declaration)
    calls = {line for c in callers["callers"] for line in c["callLines"]}
    main = "src/main.ts"
    assert calls == {line_of(root, main, "double(2)"), line_of(root, main, "double(double")}
    assert callers["completeness"] == "complete", callers["completenessReasons"]
    assert all(r["code"] != "outside_project" for r in callers["completenessReasons"])


def test_the_callees_of_a_const_function_are_listed_and_checked(tmp_path: Path) -> None:
    _, _, callees = _ask(tmp_path, PLAIN)
    assert "totalArea" in {c["name"] for c in callees["callees"]}
    assert (callees["completeness"], callees["missed"]) == ("complete", [])


def test_callees_the_server_does_not_list_are_named(tmp_path: Path) -> None:
    _, _, callees = _ask(tmp_path, CAST)
    if "totalArea" not in {c["name"] for c in callees["callees"]}:
        assert callees["completeness"] == "partial"
        assert callees["missed"] == ["src/shapes.ts#totalArea"]
