"""What `tools/list` publishes is the contract: described parameters, typed camelCase
answers with enumerations, and every answer fits its published output schema. The
full schemas (`output_schemas = "full"`) are checked here; the lean default in
test_tool_surface.

Through a real MCP stdio client, `codeanchor serve` and a real ty.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest

from tests.bridge.mcp_session import FULL_SCHEMAS, example_repo, serve
from tests.bridge.schemas import key_faults, properties
from tests.conftest import require_binary

SCENARIO_TIMEOUT_S = 180.0
README = Path(__file__).resolve().parents[2] / "README.md"
FIRST_CALL = re.compile(r"first call(?: is|:)\s*`?(\w+)", re.IGNORECASE)
LIMITER = "shop/middleware/rate_limit.py"
TYPED = {
    "nav_definition",
    "nav_type_definition",
    "nav_implementations",
    "nav_references",
    "nav_hover",
    "nav_symbols",
    "nav_workspace_symbols",
    "nav_callers",
    "nav_callees",
    "resolve",
}
DESCRIBED = TYPED | {
    "memory_save",
    "memory_recall",
    "memory_check",
    "memory_verify",
    "memory_supersede",
    "memory_retire",
}
CALLS: list[tuple[str, dict[str, Any]]] = [
    ("nav_definition", {"target": "shop/app.py:14", "name": "allow"}),
    ("nav_references", {"target": f"{LIMITER}#RateLimiter.allow"}),
    ("nav_references", {"target": f"{LIMITER}#RateLimiter.allow", "include_declaration": False}),
    ("nav_references", {"target": "shop/pricing.py#PriceBook", "budget": 200}),
    ("nav_type_definition", {"target": "shop/app.py:16", "name": "cart"}),
    ("nav_implementations", {"target": f"{LIMITER}#RateLimiter.allow"}),
    ("nav_hover", {"target": f"{LIMITER}#RateLimiter.allow"}),
    ("nav_symbols", {"path": LIMITER}),
    ("nav_workspace_symbols", {"query": "Cart"}),
    ("nav_callers", {"target": "shop/pricing.py#apply_discount"}),
    ("nav_callees", {"target": "shop/app.py#checkout"}),
    ("resolve", {"target": f"{LIMITER}#RateLimiter.allow"}),
    ("resolve", {"target": LIMITER}),
    ("resolve", {"target": f"{LIMITER}:20"}),
]


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The tools as listed, and the answers of CALLS, from one server."""
    require_binary("ty")
    repo = example_repo(tmp_path_factory.mktemp("schema"), watch=False, config=FULL_SCHEMAS)

    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            answers = []
            for tool, arguments in CALLS:
                result = await client.call_tool(tool, arguments)
                assert not result.is_error, (tool, result.content)
                answers.append((tool, result.structured_content))
            return {"tools": tools, "answers": answers, "instructions": client.instructions}

    return asyncio.run(scenario())


@pytest.mark.parametrize("tool", sorted(DESCRIBED))
def test_every_parameter_is_described(published: dict[str, Any], tool: str) -> None:
    schema = published["tools"][tool].input_schema
    undescribed = [n for n, p in schema["properties"].items() if not p.get("description")]
    assert undescribed == []


@pytest.mark.parametrize("tool", sorted(TYPED))
def test_data_has_a_published_camel_case_shape(published: dict[str, Any], tool: str) -> None:
    schema = published["tools"][tool].output_schema
    data = schema["properties"]["data"]
    assert "$ref" in data, data  # not `Any`
    names = {name for name, _ in properties(schema)}
    assert "count" in names or "verified" in names or "contents" in names or "symbols" in names
    assert [n for n in names if "_" in n] == []


def test_enumerations_are_literals(published: dict[str, Any]) -> None:
    def enum_of(tool: str, prop: str) -> set[str]:
        found = [p for n, p in properties(published["tools"][tool].output_schema) if n == prop]
        return {value for p in found for value in p.get("enum", [])}

    assert {"complete", "partial"} <= enum_of("nav_references", "completeness")
    assert "unconfirmed_candidates" in enum_of("nav_references", "code")
    assert {"map", "text"} <= enum_of("nav_callers", "source")
    assert {"class", "method", "function"} <= enum_of("nav_symbols", "kind")


def test_every_answer_fits_its_output_schema(published: dict[str, Any]) -> None:
    tools = published["tools"]
    for tool, answer in published["answers"]:
        jsonschema.validate(answer, tools[tool].output_schema)
        assert key_faults(answer, tools[tool].output_schema, tool) == []  # no drift either
    cut = [a for t, a in published["answers"] if t == "nav_references"]
    assert cut[-1]["truncated"] is not None  # an answer the budget cut is checked too


def test_the_instructions_and_the_readme_name_one_first_call(published: dict[str, Any]) -> None:
    instructions = published["instructions"] or ""
    assert FIRST_CALL.findall(instructions) == ["map_overview"]
    assert "map_overview" in published["tools"]
    section = README.read_text().split("## Use it from an MCP client")[1].split("\n## ")[0]
    assert FIRST_CALL.findall(section) == ["map_overview"]
