"""The tool definitions as `tools/list` publishes them: lean by default.

A client may put every tool definition in the model's context, so each costs
tokens before the first question. The SDK derives the schemas from the
tools' signatures and answer types with every pydantic `title`, every
docstring and the full nesting of every answer; published as they are, the
27 tools took ~143,000 characters. Lean, they say what an agent needs:

- input schemas keep each parameter's type, default and description; the
  titles pydantic adds go, `X | None` is one `type` list, and a default of
  null goes (a parameter not `required` may be left out);
- output schemas keep the envelope and the names, types and enumerations of
  `data`'s own keys (behind a `$ref`, as in the full schema); an object nested
  deeper is published as an object (its keys are in the tool's description and
  in docs/tools.md); the descriptions of the answer types go, and so do the
  lists of `required` keys (every answer has the envelope's keys, and which of
  `data`'s an answer may leave out is in docs/tools.md).

`output_schemas = "full"` in the configuration publishes the full schemas, for
a client that checks every key of an answer. Either way an answer validates.
"""

from __future__ import annotations

import inspect
from typing import Any, Literal

SchemaDetail = Literal["lean", "full"]

_NOISE = frozenset({"title"})


def description(doc: str | None) -> str:
    """A docstring as one text: indentation gone, each paragraph on one line."""
    paragraphs = inspect.cleandoc(doc or "").split("\n\n")
    return "\n\n".join(" ".join(p.split()) for p in paragraphs if p.strip())


def lean_input(schema: dict[str, Any]) -> dict[str, Any]:
    """An input schema without pydantic's titles nor `"default": null` (a parameter not
    `required` may be left out), nullable types as one `type` list."""
    lean: dict[str, Any] = _strip(schema, drop=_NOISE)
    for parameter in lean.get("properties", {}).values():
        if "default" in parameter and parameter["default"] is None:
            del parameter["default"]
    return lean


def lean_output(schema: dict[str, Any]) -> dict[str, Any]:
    """The envelope and the top-level keys of `data` (see the module docstring)."""
    defs: dict[str, Any] = schema.get("$defs", {})
    drop = _NOISE | {"description", "required"}
    stripped = _strip({k: v for k, v in schema.items() if k != "$defs"}, drop)
    properties = {
        key: _shallow(value, defs) for key, value in stripped.get("properties", {}).items()
    }
    data = schema.get("properties", {}).get("data", {})
    if "$ref" in data:  # the envelope of a typed answer: keep `data`'s keys, typed
        name = data["$ref"].rsplit("/", 1)[1]
        shape = _strip(defs[name], drop)
        shape["properties"] = {
            key: _shallow(value, defs) for key, value in shape.get("properties", {}).items()
        }
        properties["data"] = {"$ref": f"#/$defs/{name}"}
        return {**stripped, "properties": properties, "$defs": {name: shape}}
    return {**stripped, "properties": properties}


def _shallow(schema: Any, defs: dict[str, Any]) -> Any:
    """A property's schema with every object inside it published as `object`."""
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        target = defs[schema["$ref"].rsplit("/", 1)[1]]
        return {"type": "object"} if "properties" in target else _shallow(target, defs)
    if "properties" in schema or "additionalProperties" in schema:
        return {"type": "object"}
    shallow = {k: _shallow(v, defs) for k, v in schema.items() if k != "anyOf"}
    if "items" in schema:
        shallow["items"] = _shallow(schema["items"], defs)
    if "anyOf" in schema:
        branches = [_shallow(b, defs) for b in schema["anyOf"]]
        unique = [b for i, b in enumerate(branches) if b not in branches[:i]]
        shallow.update(_one_type(unique))
    return _strip(shallow, _NOISE | {"description"})


def _one_type(branches: list[Any]) -> dict[str, Any]:
    """`anyOf` branches that are bare types as one `type` list, else the `anyOf`."""
    if len(branches) == 1:
        return dict(branches[0])
    if all(isinstance(b, dict) and set(b) == {"type"} for b in branches):
        return {"type": [b["type"] for b in branches]}
    return {"anyOf": branches}


def _strip(schema: Any, drop: frozenset[str]) -> Any:
    """`schema` without the keywords in `drop` (names of properties stay), nullable
    `anyOf`s of bare types as one `type` list."""
    if isinstance(schema, list):
        return [_strip(item, drop) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in drop:
            continue
        if key in {"properties", "$defs"} and isinstance(value, dict):
            out[key] = {name: _strip(sub, drop) for name, sub in value.items()}
        else:
            out[key] = _strip(value, drop)
    if "anyOf" in out:
        merged = _one_type(out.pop("anyOf"))
        out = {**merged, **out} if "anyOf" not in merged else {**out, **merged}
    return out
