"""The list of tools, with what an MCP client should know about each."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bridge.tools import changes, diagnostics, mapgraph, mapping, memory, nav, rename, resolve


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: its function, a title, and whether it changes anything."""

    fn: Callable[..., Awaitable[Any]]
    title: str
    read_only: bool = True
    idempotent: bool = True


def all_tools() -> list[ToolSpec]:
    """Every tool, in the order an agent should meet them."""
    return [
        ToolSpec(mapping.map_overview, "Repository overview (map)"),
        ToolSpec(nav.nav_definition, "Go to definition (live)"),
        ToolSpec(nav.nav_type_definition, "Go to type definition (live)"),
        ToolSpec(nav.nav_implementations, "Find implementations (live)"),
        ToolSpec(nav.nav_references, "Find references (live)"),
        ToolSpec(nav.nav_hover, "Hover: type and docs (live)"),
        ToolSpec(nav.nav_symbols, "Outline of a file (live)"),
        ToolSpec(nav.nav_workspace_symbols, "Find symbols by name (live)"),
        ToolSpec(nav.nav_callers, "Callers (live call hierarchy)"),
        ToolSpec(nav.nav_callees, "Callees (live call hierarchy)"),
        ToolSpec(diagnostics.nav_diagnostics, "Errors and warnings now (live)"),
        ToolSpec(
            rename.nav_rename, "Rename: preview, or apply (live)", read_only=False, idempotent=False
        ),
        ToolSpec(resolve.resolve, "Where is it now? (live vs map)"),
        ToolSpec(mapping.map_status, "Map status"),
        ToolSpec(mapping.map_rebuild, "Rebuild the map", read_only=False),
        ToolSpec(mapping.map_search, "Search the map"),
        ToolSpec(mapping.map_outline, "Outline of a file (map)"),
        ToolSpec(mapgraph.map_neighbors, "Callers / callees / imports (map)"),
        ToolSpec(mapgraph.map_path, "Path between two nodes (map)"),
        ToolSpec(mapgraph.map_impact, "What depends on this (map)"),
        # it may rebuild the map first (the snapshot is written), as map_rebuild does
        ToolSpec(
            changes.map_changes,
            "What a diff changed, its blast radius and memories",
            read_only=False,
        ),
        # Recall and check record last-used times and check results: not read-only.
        ToolSpec(
            memory.memory_recall, "Recall memories (checked against the code)", read_only=False
        ),
        ToolSpec(memory.memory_check, "Check memories against the code", read_only=False),
        ToolSpec(
            memory.memory_save, "Save a memory anchored to code", read_only=False, idempotent=False
        ),
        ToolSpec(memory.memory_verify, "Verify a memory (re-anchor it)", read_only=False),
        ToolSpec(memory.memory_supersede, "Supersede a memory", read_only=False, idempotent=False),
        ToolSpec(memory.memory_retire, "Retire a memory", read_only=False),
    ]
