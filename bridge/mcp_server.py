"""`codeanchor serve`: every tool over MCP on stdio, with the official `mcp` SDK.

Each bridge tool is an async function `(app, **arguments) -> Envelope`; this
module binds the AppContext, publishes the rest of the signature as the
tool's input schema and the docstring as its description, and turns
ToolErrors into MCP tool errors whose text is the JSON error envelope.
Unknown arguments are refused (the SDK would drop them silently). When the
client disconnects, the lifespan shuts every language server down.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import orjson
from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from bridge.context import AppContext
from bridge.envelope import error_envelope
from bridge.errors import BadInputError, ToolError
from bridge.registry import ToolSpec, all_tools
from bridge.translate import as_tool_error

log = logging.getLogger(__name__)

INSTRUCTIONS = """\
codeanchor answers questions about this repository from LIVE language servers
(nav_* tools; never stale: files are re-read from disk before every query), a
cached map of symbols and edges (map_* tools; every answer says when the map was
built and flags files changed since), and memories anchored to code (memory_*).
Start with map_overview for the shape of the repository, map_search to find a
symbol's node ID (path#Qual.Name), then nav_* with that ID. Before trusting a
location you remember, call resolve: it says whether the code moved."""


def error_result(error: ToolError) -> CallToolResult:
    """A failed call: `is_error`, its text the JSON error envelope."""
    text = orjson.dumps(error_envelope(error)).decode()
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def bind(app: AppContext, spec: ToolSpec) -> Callable[..., Awaitable[CallToolResult]]:
    """The MCP handler of one tool: `spec.fn` with `app` bound.

    The answer goes out both as structured content and as compact JSON text
    (the SDK would indent it, doubling its tokens); a ToolError becomes an
    error result whose text is the JSON error envelope.
    """
    signature = inspect.signature(spec.fn, eval_str=True)
    parameters = list(signature.parameters.values())[1:]

    async def handler(**arguments: Any) -> CallToolResult:
        try:
            envelope = await spec.fn(app, **arguments)
        except Exception as exc:
            error = as_tool_error(exc)
            if error is None:
                raise
            log.info("%s failed: %s", spec.fn.__name__, error.message)
            return error_result(error)
        text = orjson.dumps(envelope).decode()
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=envelope
        )

    handler.__name__ = spec.fn.__name__
    handler.__doc__ = spec.fn.__doc__
    handler.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    handler.__annotations__ = {p.name: p.annotation for p in parameters} | {
        "return": signature.return_annotation
    }
    return handler


class RejectUnknownArguments:
    """Middleware: a tools/call with arguments the tool does not take is a tool error."""

    def __init__(self, known: dict[str, set[str]]) -> None:
        self.known = known

    async def __call__(self, ctx: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
        params = ctx.params or {}
        if ctx.method == "tools/call" and params.get("name") in self.known:
            name = params["name"]
            unknown = sorted(set(params.get("arguments") or {}) - self.known[name])
            if unknown:
                return error_result(
                    BadInputError(
                        f"{name} does not take argument(s) {', '.join(unknown)}",
                        hint=f"its arguments are: {', '.join(sorted(self.known[name]))}",
                    )
                )
        return await call_next(ctx)


def build_server(app: AppContext) -> MCPServer[AppContext]:
    """An MCP server exposing every tool of `app`'s workspace."""
    specs = all_tools()

    @asynccontextmanager
    async def lifespan(_: MCPServer[AppContext]) -> AsyncIterator[AppContext]:
        try:
            app.start_memory_check()
            yield app
        finally:
            await app.aclose()

    known = {
        spec.fn.__name__: set(list(inspect.signature(spec.fn).parameters)[1:]) for spec in specs
    }
    server: MCPServer[AppContext] = MCPServer(
        name="codeanchor",
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        middleware=[RejectUnknownArguments(known)],
    )
    for spec in specs:
        server.add_tool(
            bind(app, spec),
            name=spec.fn.__name__,
            title=spec.title,
            annotations=ToolAnnotations(
                title=spec.title,
                read_only_hint=spec.read_only,
                destructive_hint=False,
                idempotent_hint=spec.idempotent,
            ),
        )
    return server
