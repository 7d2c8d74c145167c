"""The bridge benchmark's cases: each tool call, and the raw live-layer call it wraps."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from bridge.context import AppContext
from bridge.tools import mapgraph, mapping, nav, resolve
from bridge.tools.targets import PositionTarget, to_lsp_position
from bridgebench.targets import Site, Targets
from lsp.pool import LivePool
from verify import CheckCache, LspPosition

Raw = Callable[[AppContext], Awaitable[object]]
PositionQuery = Callable[[LivePool, str, int, int], Awaitable[object]]
"""A live-layer call at a position, e.g. `LivePool.references`."""


@dataclass(frozen=True)
class Case:
    """One tool call: the function, its arguments, and the raw live call it wraps."""

    tool: str
    fn: Callable[..., Awaitable[Any]]
    args: dict[str, Any]
    raw: Raw | None = None
    variant: str = ""
    """Set when the same tool is benched a second way (e.g. targeted by node ID)."""
    over_mcp: bool = True
    """False: in-process only (the case needs the process's own AppContext)."""

    @property
    def label(self) -> str:
        """The tool's name in the report."""
        return f"{self.tool} ({self.variant})" if self.variant else self.tool


def first_question(tool: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """`tool` asked as the first question about its name: the completeness check's
    cache is empty for the call (the map stays open and warm; the shared cache is
    put back after it, so the other cases stay warm)."""

    async def call(app: AppContext, **args: Any) -> Any:
        kept, app.check_cache = app.check_cache, CheckCache()
        try:
            return await tool(app, **args)
        finally:
            app.check_cache = kept

    return call


def _position(app: AppContext, site: Site) -> LspPosition:
    return to_lsp_position(app.root, PositionTarget(site.path, site.line, name=site.name))


def all_cases(t: Targets) -> list[Case]:
    """Every benchmarked tool. Nav tools are pointed at positions, so raw and tool ask
    the same; nav_references is also asked by node ID, the way an agent coming from
    map_search asks (which adds the live lookup of the node). nav_references and
    nav_callers are also asked as the first question about their name (in-process:
    the completeness check's cache emptied, so it scans and labels afresh)."""

    def at(site: Site) -> dict[str, Any]:
        return {"target": site.position, "name": site.name}

    def live(site: Site, ask: PositionQuery) -> Raw:
        def raw(app: AppContext) -> Awaitable[object]:
            p = _position(app, site)
            return ask(app.live, p.path, p.line, p.character)

        return raw

    return [
        Case("nav_references", nav.nav_references, at(t.cls), live(t.cls, LivePool.references)),
        Case(
            "nav_references",
            nav.nav_references,
            {"target": t.cls.node_id},
            live(t.cls, LivePool.references),
            variant="node ID",
        ),
        Case(
            "nav_references",
            first_question(nav.nav_references),
            at(t.cls),
            live(t.cls, LivePool.references),
            variant="first question",
            over_mcp=False,
        ),
        Case("nav_definition", nav.nav_definition, at(t.use), live(t.use, LivePool.definition)),
        Case("nav_hover", nav.nav_hover, at(t.method), live(t.method, LivePool.hover)),
        Case(
            "nav_symbols",
            nav.nav_symbols,
            {"path": t.cls.path},
            lambda app: app.live.document_symbols(t.cls.path),
        ),
        Case(
            "nav_workspace_symbols",
            nav.nav_workspace_symbols,
            {"query": t.cls.name},
            lambda app: app.live.workspace_symbols(t.cls.name, language="python"),
        ),
        Case("nav_callers", nav.nav_callers, at(t.method), live(t.method, LivePool.incoming_calls)),
        Case(
            "nav_callers",
            first_question(nav.nav_callers),
            at(t.method),
            live(t.method, LivePool.incoming_calls),
            variant="first question",
            over_mcp=False,
        ),
        Case("nav_callees", nav.nav_callees, at(t.caller), live(t.caller, LivePool.outgoing_calls)),
        Case(
            "resolve",
            resolve.resolve,
            {"target": t.method.node_id},
            lambda app: app.live.document_symbols(t.method.path),
        ),
        Case("map_search", mapping.map_search, {"query": t.cls.name}),
        Case(
            "map_neighbors",
            mapgraph.map_neighbors,
            {"node_id": t.method.node_id, "direction": "in"},
        ),
        Case("map_impact", mapgraph.map_impact, {"node_id": t.method.node_id}),
        Case("map_overview", mapping.map_overview, {}),
        Case("map_status", mapping.map_status, {}),
    ]
