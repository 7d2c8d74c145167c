"""The map_* tools, map_changes, nav_diagnostics and nav_rename publish their answers'
shapes, and answer in exactly those shapes: every object of an actual answer has
the keys its published output schema declares (the required ones at least, and
no other), so the schema cannot drift from the code. The full schemas
(`output_schemas = "full"`) are checked here; the lean default in test_tool_surface.

Through a real MCP stdio client, `codeanchor serve` and a real ty, on the bundled
example after a change: a memory saved, a function's body edited, a method renamed
(breaking its caller) and a function added.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from tests.bridge.mcp_session import FULL_SCHEMAS, call, example_repo, serve
from tests.bridge.schemas import key_faults, properties
from tests.conftest import require_binary

SCENARIO_TIMEOUT_S = 240.0
PRICING = "shop/pricing.py"
DISCOUNT = f"{PRICING}#apply_discount"
CHECKOUT = "shop/app.py#checkout"
BEFORE_CHANGE: list[tuple[str, dict[str, Any]]] = [
    ("map_status", {}),
    ("map_overview", {}),
    ("map_search", {"query": "Price"}),
    ("map_search", {"query": "re:^apply_", "kind": "function", "budget": 200}),
    ("map_outline", {"path": PRICING}),
    ("map_neighbors", {"node_id": DISCOUNT, "direction": "in", "verify": True}),
    ("map_neighbors", {"node_id": CHECKOUT, "kinds": ["calls", "imports"], "depth": 2}),
    ("map_path", {"source": CHECKOUT, "target": DISCOUNT, "verify": True}),
    ("map_path", {"source": DISCOUNT, "target": CHECKOUT}),
    ("map_impact", {"node_id": DISCOUNT, "verify": True}),
    ("nav_rename", {"target": DISCOUNT, "new_name": "discounted"}),
]
AFTER_CHANGE: list[tuple[str, dict[str, Any]]] = [
    ("map_outline", {"path": PRICING}),  # the file changed since the build: `staleFiles`
    ("nav_diagnostics", {}),
    ("nav_diagnostics", {"path": "shop/cart.py"}),
    ("map_changes", {"verify": True}),
    ("map_rebuild", {}),
    ("map_status", {}),
]
TOOLS = sorted({tool for tool, _ in BEFORE_CHANGE + AFTER_CHANGE})


def _change(root: Path) -> None:
    """Edit apply_discount's body, rename PriceBook.price_of (its caller in cart.py
    breaks) and add a function."""
    path = root / PRICING
    text = path.read_text()
    text = text.replace(
        "max(amount * (1 - percent / 100), 0.0)", "max(amount * (100 - percent) / 100, 0.0)"
    )
    text = text.replace("def price_of(", "def unit_price(")
    path.write_text(
        text + "\n\ndef round_price(amount: float) -> float:\n    return round(amount, 2)\n"
    )


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The tools as listed, and the answers of the calls above, from one server."""
    require_binary("ty")
    repo = example_repo(tmp_path_factory.mktemp("mapschema"), watch=False, config=FULL_SCHEMAS)

    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            answers = [(t, await call(client, t, **a)) for t, a in BEFORE_CHANGE]
            await call(client, "memory_save", text="discounts never go below zero", refs=[DISCOUNT])
            _change(repo)
            answers += [(t, await call(client, t, **a)) for t, a in AFTER_CHANGE]
            return {"tools": tools, "answers": answers}

    return asyncio.run(scenario())


def test_every_answer_has_exactly_the_keys_its_schema_declares(published: dict[str, Any]) -> None:
    tools = published["tools"]
    faults = {}
    for number, (tool, answer) in enumerate(published["answers"]):
        schema = tools[tool].output_schema
        jsonschema.validate(answer, schema)
        found = key_faults(answer, schema, f"{tool}#{number}")
        if found:
            faults[f"{tool}#{number}"] = found
    assert faults == {}
    assert {tool for tool, _ in published["answers"]} == set(TOOLS)


def test_the_scenario_reaches_the_optional_parts(published: dict[str, Any]) -> None:
    """The key check above saw the parts an answer has only sometimes."""
    answers: dict[str, list[dict[str, Any]]] = {}
    for tool, answer in published["answers"]:
        answers.setdefault(tool, []).append(answer["data"])
    assert PRICING in answers["map_outline"][1]["staleFiles"]
    assert answers["map_neighbors"][0]["verification"]["checked"] >= 1
    assert answers["map_path"][0]["found"] and not answers["map_path"][1]["found"]
    changes = answers["map_changes"][0]
    assert {s["change"] for s in changes["symbols"]} >= {"modified", "added"}
    assert any(s["dependents"] for s in changes["symbols"])
    assert [m["refs"][0]["status"] for m in changes["memories"]] == ["modified"]
    assert answers["nav_diagnostics"][1]["errorCount"] >= 1  # cart.py calls price_of
    assert answers["nav_rename"][0]["files"][0]["diff"]
    status = answers["map_status"][-1]
    assert status["skipped"] == {"unsupported_language": 3}
    assert status["languages"] == {"python": status["files"]}


@pytest.mark.parametrize("tool", TOOLS)
def test_every_parameter_is_described(published: dict[str, Any], tool: str) -> None:
    schema = published["tools"][tool].input_schema
    assert [n for n, p in schema.get("properties", {}).items() if not p.get("description")] == []


@pytest.mark.parametrize("tool", TOOLS)
def test_data_has_a_published_camel_case_shape(published: dict[str, Any], tool: str) -> None:
    schema = published["tools"][tool].output_schema
    assert "$ref" in schema["properties"]["data"]  # not `Any`
    assert [n for n, _ in properties(schema) if "_" in n] == []


def test_enumerations_are_literals(published: dict[str, Any]) -> None:
    def enum_of(tool: str, prop: str) -> set[str]:
        found = [p for n, p in properties(published["tools"][tool].output_schema) if n == prop]
        values: set[str] = set()
        for p in found:
            for branch in [p, *p.get("anyOf", []), p.get("propertyNames", {})]:
                values |= set(branch.get("enum", [])) | (
                    {branch["const"]} if "const" in branch else set()
                )
        return values

    assert {"calls", "references", "inherits", "imports", "contains"} <= enum_of(
        "map_impact", "via"
    )
    assert {"in", "out"} <= enum_of("map_neighbors", "direction")
    assert {"file", "class", "method", "function"} <= enum_of("map_search", "kind")
    assert {"python", "typescript", "go"} <= enum_of("map_status", "languages")
    assert {"binary", "too_large", "unsupported_language"} <= enum_of("map_rebuild", "skipped")
    assert {"watching", "stopped"} <= enum_of("map_status", "status")
    assert {"added", "removed", "modified", "moved", "renamed"} <= enum_of("map_changes", "change")
    assert {"valid", "modified", "deleted"} <= enum_of("map_changes", "status")
    assert {"not_a_use", "over_cap", "no_server"} <= enum_of("map_changes", "uncheckedReasons")
    assert {"error", "warning"} <= enum_of("nav_diagnostics", "severity")
    assert {"server_loading", "files_capped"} <= enum_of("nav_diagnostics", "code")
