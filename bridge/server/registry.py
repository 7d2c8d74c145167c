"""The list of tools, with what an MCP client should know about each, by family.

A client with little room for tool definitions serves only some families
(`serve --tools nav,map`, or `tools = [...]` in the configuration).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, get_args

from bridge.contract.errors import BadInputError
from bridge.tools import changes, diagnostics, mapgraph, mapping, memory, nav, rename, resolve

Family = Literal["nav", "resolve", "map", "change", "memory"]
"""nav: live questions; resolve; map: the cached map's questions; change: what a
diff did and what to do about it (diagnostics, rename, map_changes); memory."""

FAMILIES: tuple[Family, ...] = get_args(Family)


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: its function, its family, a title, and whether it changes anything."""

    fn: Callable[..., Awaitable[Any]]
    family: Family
    title: str
    read_only: bool = True
    idempotent: bool = True


def all_tools(families: tuple[str, ...] = ()) -> list[ToolSpec]:
    """Every tool of `families` (default: all), in the order an agent should meet them."""
    unknown = sorted(set(families) - set(FAMILIES))
    if unknown:
        raise BadInputError(
            f"unknown tool families {', '.join(unknown)}",
            hint=f"the families are: {', '.join(FAMILIES)}",
        )
    return [spec for spec in _every_tool() if not families or spec.family in families]


def _every_tool() -> list[ToolSpec]:
    return [
        ToolSpec(mapping.map_overview, "map", "Repository overview (map)"),
        ToolSpec(nav.nav_definition, "nav", "Go to definition (live)"),
        ToolSpec(nav.nav_type_definition, "nav", "Go to type definition (live)"),
        ToolSpec(nav.nav_implementations, "nav", "Find implementations (live)"),
        ToolSpec(nav.nav_references, "nav", "Find references (live)"),
        ToolSpec(nav.nav_hover, "nav", "Hover: type and docs (live)"),
        ToolSpec(nav.nav_symbols, "nav", "Outline of a file (live)"),
        ToolSpec(nav.nav_workspace_symbols, "nav", "Find symbols by name (live)"),
        ToolSpec(nav.nav_callers, "nav", "Callers (live call hierarchy)"),
        ToolSpec(nav.nav_callees, "nav", "Callees (live call hierarchy)"),
        ToolSpec(diagnostics.nav_diagnostics, "change", "Errors and warnings now (live)"),
        ToolSpec(
            rename.nav_rename,
            "change",
            "Rename: preview, or apply (live)",
            read_only=False,
            idempotent=False,
        ),
        ToolSpec(resolve.resolve, "resolve", "Where is it now? (live vs map)"),
        ToolSpec(mapping.map_status, "map", "Map status"),
        ToolSpec(mapping.map_rebuild, "map", "Rebuild the map", read_only=False),
        ToolSpec(mapping.map_search, "map", "Search the map"),
        ToolSpec(mapping.map_outline, "map", "Outline of a file (map)"),
        ToolSpec(mapgraph.map_neighbors, "map", "Callers / callees / imports (map)"),
        ToolSpec(mapgraph.map_path, "map", "Path between two nodes (map)"),
        ToolSpec(mapgraph.map_impact, "map", "What depends on this (map)"),
        # it may rebuild the map first (the snapshot is written), as map_rebuild does
        ToolSpec(
            changes.map_changes,
            "change",
            "What a diff changed, its blast radius and memories",
            read_only=False,
        ),
        # Recall and check record last-used times and check results: not read-only.
        ToolSpec(
            memory.memory_recall,
            "memory",
            "Recall memories (checked against the code)",
            read_only=False,
        ),
        ToolSpec(memory.memory_check, "memory", "Check memories against the code", read_only=False),
        ToolSpec(
            memory.memory_save,
            "memory",
            "Save a memory anchored to code",
            read_only=False,
            idempotent=False,
        ),
        ToolSpec(memory.memory_verify, "memory", "Verify a memory (re-anchor it)", read_only=False),
        ToolSpec(
            memory.memory_supersede,
            "memory",
            "Supersede a memory",
            read_only=False,
            idempotent=False,
        ),
        ToolSpec(memory.memory_retire, "memory", "Retire a memory", read_only=False),
    ]
