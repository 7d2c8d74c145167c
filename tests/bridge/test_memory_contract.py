"""The memory_* tools' published output schemas describe what they answer: camelCase keys,
enumerated statuses, reasons and live reasons, and every key an answer carries.

Through a real MCP stdio client, `codeanchor serve` and a real ty (live confirmation).
"""

from __future__ import annotations

import asyncio
from typing import Any, get_args

import jsonschema  # type: ignore[import-untyped]
import pytest

from memory.model import ChangeKind, LiveReason, RefReason
from tests.bridge.mcp_session import FULL_SCHEMAS, call, example_repo, serve
from tests.bridge.schemas import key_faults, properties
from tests.conftest import require_binary

SCENARIO_TIMEOUT_S = 180.0
PRICING = "shop/pricing.py"
MEMORY_TOOLS = (
    "memory_save",
    "memory_recall",
    "memory_check",
    "memory_verify",
    "memory_supersede",
    "memory_retire",
)
MOVED = (
    '"""Discounts."""\n\n\n'
    "def apply_discount(amount: float, percent: float, floor: float = 0.0) -> float:\n"
    '    """The amount after a percentage discount, never below `floor`."""\n'
    "    return max(amount * (1 - percent / 100), floor)\n"
)


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The memory tools as listed, and each one's answers in a save-edit-check-verify story."""
    require_binary("ty")
    repo = example_repo(tmp_path_factory.mktemp("memory-schema"), watch=False, config=FULL_SCHEMAS)

    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            answers: list[tuple[str, dict[str, Any]]] = []

            async def ask(tool: str, **arguments: Any) -> dict[str, Any]:
                answers.append((tool, await call(client, tool, **arguments)))
                return answers[-1][1]

            fact = await ask(
                "memory_save",
                text="discounts never go below zero",
                refs=[f"{PRICING}#apply_discount", f"{PRICING}:13-17", PRICING],
                tags=["pricing"],
            )
            lookup = await ask(
                "memory_save",
                text="price_of raises KeyError",
                refs=[f"{PRICING}#PriceBook.price_of"],
            )
            text = (repo / PRICING).read_text()
            start, end = text.index("def apply_discount"), text.index("@dataclass")
            (repo / PRICING).write_text(text[:start] + text[end:])
            (repo / "shop/discounts.py").write_text(MOVED)
            await ask("memory_recall", query="discounts", include_stale=True)
            await ask("memory_check")
            await ask("memory_verify", id=lookup["data"]["id"])
            new = await ask("memory_supersede", id=fact["data"]["id"], text="discounts floor")
            await ask("memory_retire", id=new["data"]["id"])
            return {"tools": tools, "answers": answers}

    return asyncio.run(scenario())


def _enum(published: dict[str, Any], tool: str, prop: str) -> set[Any]:
    schema = published["tools"][tool].output_schema
    found = [p for name, p in properties(schema) if name == prop]
    values = {v for p in found for v in p.get("enum", [])}
    values |= {v for p in found for option in p.get("anyOf", []) for v in option.get("enum", [])}
    refs = {option["$ref"] for p in found for option in p.get("anyOf", []) if "$ref" in option}
    for ref in refs:  # an enum class (Confidence) is a definition of its own
        values |= set(schema["$defs"][ref.rsplit("/", 1)[1]].get("enum", []))
    return values


@pytest.mark.parametrize("tool", MEMORY_TOOLS)
def test_data_has_a_published_camel_case_shape(published: dict[str, Any], tool: str) -> None:
    schema = published["tools"][tool].output_schema
    assert "$ref" in schema["properties"]["data"]  # not `Any`
    names = {name for name, _ in properties(schema)}
    assert [n for n in names if "_" in n] == []


def test_every_answer_fits_and_its_keys_are_published(published: dict[str, Any]) -> None:
    tools = published["tools"]
    assert {tool for tool, _ in published["answers"]} == set(MEMORY_TOOLS)
    for tool, answer in published["answers"]:
        schema = tools[tool].output_schema
        jsonschema.validate(answer, schema)
        assert key_faults(answer, schema, tool) == []


def test_enumerations_are_published(published: dict[str, Any]) -> None:
    assert _enum(published, "memory_check", "reason") == set(get_args(RefReason))
    assert _enum(published, "memory_check", "liveReason") == set(get_args(LiveReason))
    assert _enum(published, "memory_check", "change") == set(get_args(ChangeKind))
    assert {"valid", "relocated", "renamed", "modified", "deleted", "unknown"} | {
        "active",
        "stale",
        "historical",
    } <= _enum(published, "memory_check", "status")
    assert {1.0, 0.95, 0.9, 0.8, 0.75, 0.7, 0.5} == _enum(published, "memory_recall", "confidence")
    assert {"file", "symbol", "line_range"} == _enum(published, "memory_save", "type")


def test_check_confirms_found_symbols_live(published: dict[str, Any]) -> None:
    (checked,) = [a for tool, a in published["answers"] if tool == "memory_check"]
    refs = {r["ref"]: r for m in checked["data"]["memories"] for r in m["refs"]}
    moved = refs[f"{PRICING}#apply_discount"]
    assert (moved["status"], moved["path"], moved["startLine"]) == (
        "modified",
        "shop/discounts.py",
        4,
    )
    assert (moved["liveConfirmed"], moved["liveReason"]) == (True, "listed")
    assert moved["change"] == "signature"  # a parameter was added on the way
    shifted = refs[f"{PRICING}#PriceBook.price_of"]
    assert (shifted["status"], shifted["liveConfirmed"], shifted["liveReason"]) == (
        "relocated",
        True,
        "listed",
    )
    assert (refs[PRICING]["liveConfirmed"], refs[PRICING]["liveReason"]) == (None, "not_needed")
    assert checked["warnings"] == []
