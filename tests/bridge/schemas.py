"""Reading the JSON schemas a tool publishes (`tools/list`), for the contract tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any


def properties(schema: Any) -> Iterator[tuple[str, Any]]:
    """Every (property name, its schema) anywhere in a JSON schema."""
    if isinstance(schema, dict):
        yield from (schema.get("properties") or {}).items()
        for value in schema.values():
            yield from properties(value)
    elif isinstance(schema, list):
        for value in schema:
            yield from properties(value)


def key_faults(value: Any, schema: dict[str, Any], at: str = "") -> list[str]:
    """Where the JSON `value` (an answer) has keys its output `schema` does not declare,
    lacks required ones, or holds an object whose shape the schema leaves open (`Any`):
    the check that a published schema has not drifted from the code."""
    return _faults(value, schema, schema, at)


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = root["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


def _faults(value: Any, schema: dict[str, Any], root: dict[str, Any], at: str) -> list[str]:
    schema = _resolve(schema, root)
    if "anyOf" in schema:  # the branch that fits best
        return min((_faults(value, branch, root, at) for branch in schema["anyOf"]), key=len)
    if isinstance(value, list):
        items = schema.get("items", {})
        return [f for i, v in enumerate(value) for f in _faults(v, items, root, f"{at}[{i}]")]
    if not isinstance(value, dict):
        return []
    if "properties" not in schema:
        extra = schema.get("additionalProperties")
        if not extra:  # `Any`: no shape published
            return [f"{at}: an object with no published shape"]
        return [f for k, v in value.items() for f in _faults(v, extra, root, f"{at}.{k}")]
    declared = schema["properties"]
    faults = [f"{at}.{k}: not declared" for k in sorted(set(value) - set(declared))]
    faults += [f"{at}.{k}: required, missing" for k in schema.get("required", []) if k not in value]
    for key in sorted(set(value) & set(declared)):
        faults += _faults(value[key], declared[key], root, f"{at}.{key}")
    return faults
