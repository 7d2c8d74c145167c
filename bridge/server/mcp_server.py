"""`codeanchor serve`: every tool over MCP on stdio, with the official `mcp` SDK.

Each bridge tool is an async function `(app, **arguments) -> Envelope`; this
module binds the AppContext, publishes the rest of the signature as the
tool's input schema and the docstring as its description, and turns
ToolErrors into MCP tool errors whose text is the JSON error envelope.

Every failed call answers with that envelope, whatever went wrong: an
unknown tool, arguments that are not an object, unknown arguments (the SDK
would drop them silently), arguments of the wrong type or value, text that
is not valid Unicode (see `bridge.server.mcp_stdio`), and bugs (`internal_error`,
with the traceback in the server's log). When the client disconnects, the
lifespan shuts every language server down.
"""

from __future__ import annotations

import inspect
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

import orjson
import pydantic
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations

from bridge.about import package_version
from bridge.context import AppContext
from bridge.contract.envelope import error_envelope
from bridge.contract.errors import BadInputError, ToolError
from bridge.contract.inputs import check_arguments, shown
from bridge.contract.translate import as_tool_error, internal_error
from bridge.server.call_progress import reporting
from bridge.server.mcp_stdio import INVALID_TEXT
from bridge.server.registry import ToolSpec, all_tools

log = logging.getLogger(__name__)

INSTRUCTIONS = """\
codeanchor answers questions about this repository from LIVE language servers
(nav_* tools; never stale: files are re-read from disk before every query), a
cached map of symbols and edges (map_* tools; every answer says when the map was
built and flags files changed since), and memories anchored to code (memory_*).
Your first call: map_overview (the repository's shape: its most central
symbols, grouped by file). Then map_search or nav_workspace_symbols finds a
symbol's node ID (path#Qual.Name), and nav_* answer about it. Before trusting a
location you remember, call resolve: it says whether the code moved."""


def error_result(error: ToolError) -> CallToolResult:
    """A failed call: `is_error`, its text the JSON error envelope."""
    text = orjson.dumps(error_envelope(error)).decode()
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


def bind(app: AppContext, spec: ToolSpec) -> Callable[..., Awaitable[CallToolResult]]:
    """The MCP handler of one tool: `spec.fn` with `app` bound.

    The answer goes out both as structured content and as compact JSON text
    (the SDK would indent it, doubling its tokens); a ToolError becomes an
    error result whose text is the JSON error envelope. The SDK hands the
    handler the call's MCP context (not part of the tool's input schema): a
    map build the call waits for reports its progress there.
    """
    signature = inspect.signature(spec.fn, eval_str=True)
    parameters = list(signature.parameters.values())[1:]

    async def handler(mcp_context: Context, **arguments: Any) -> CallToolResult:
        try:
            check_arguments(arguments)
            async with reporting(mcp_context.report_progress):
                envelope = app.announce(await spec.fn(app, **arguments))
        except Exception as exc:
            error = as_tool_error(exc)
            if error is None:
                log.exception("%s failed on a bug", spec.fn.__name__)
                error = internal_error(exc)
            log.info("%s failed: %s", spec.fn.__name__, error.message)
            return error_result(error)
        text = orjson.dumps(envelope).decode()
        return CallToolResult(
            content=[TextContent(type="text", text=text)], structured_content=envelope
        )

    handler.__name__ = spec.fn.__name__
    handler.__doc__ = spec.fn.__doc__
    context = inspect.Parameter("mcp_context", inspect.Parameter.KEYWORD_ONLY, annotation=Context)
    handler.__signature__ = signature.replace(parameters=[*parameters, context])  # type: ignore[attr-defined]
    handler.__annotations__ = {p.name: p.annotation for p in [*parameters, context]} | {
        "return": signature.return_annotation
    }
    return handler


@dataclass(frozen=True)
class ToolShape:
    """What a tool takes: its parameter names, and a model to explain bad values."""

    parameters: frozenset[str]
    model: type[pydantic.BaseModel]

    @classmethod
    def of(cls, spec: ToolSpec) -> ToolShape:
        """The shape of `spec`'s function, `app` left out."""
        parameters = list(inspect.signature(spec.fn, eval_str=True).parameters.values())[1:]
        fields: dict[str, Any] = {
            p.name: (p.annotation, ... if p.default is inspect.Parameter.empty else p.default)
            for p in parameters
        }
        model = pydantic.create_model(f"{spec.fn.__name__}_arguments", **fields)
        return cls(frozenset(fields), model)

    def explain(self, name: str, arguments: Mapping[str, Any]) -> BadInputError:
        """Why `arguments` do not fit, as one line naming each argument at fault."""
        try:
            self.model.model_validate(arguments)
        except pydantic.ValidationError as exc:
            faults = [
                f"`{'.'.join(str(part) for part in e['loc'])}`: {e['msg']}"
                for e in exc.errors(include_url=False)
            ]
            return BadInputError(
                f"{name}: bad argument(s): {'; '.join(faults)}",
                hint=f"{name} takes: {self.describe()}",
            )
        return BadInputError(
            f"{name}: the arguments do not match its input schema",
            hint=f"{name} takes: {self.describe()}",
        )

    def describe(self) -> str:
        """`name: type` of every parameter, required ones first."""
        fields = self.model.model_fields
        ordered = sorted(fields, key=lambda f: not fields[f].is_required())
        return ", ".join(
            f"{f}: {_type_name(fields[f].annotation)}"
            + ("" if fields[f].is_required() else " (optional)")
            for f in ordered
        )


def _type_name(annotation: Any) -> str:
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


class GuardToolCalls:
    """Middleware: every tools/call that cannot run is answered with the error envelope."""

    def __init__(self, shapes: dict[str, ToolShape]) -> None:
        self.shapes = shapes

    async def __call__(self, ctx: Any, call_next: Callable[[Any], Awaitable[Any]]) -> Any:
        params = ctx.params if isinstance(ctx.params, Mapping) else {}
        if ctx.method != "tools/call" or "name" not in params:
            return await call_next(ctx)
        refused = self._refusal(params)
        if refused is not None:
            log.info("tools/call refused: %s", refused.message)
            return error_result(refused)
        result = await call_next(ctx)  # the answer as it goes on the wire
        if isinstance(result, Mapping) and result.get("isError") and not _is_envelope(result):
            # the SDK refused the arguments in its own words: say it our way
            name = params["name"]
            return error_result(self.shapes[name].explain(name, params.get("arguments") or {}))
        return result

    def _refusal(self, params: Mapping[str, Any]) -> BadInputError | None:
        name, arguments = params["name"], params.get("arguments")
        if not isinstance(name, str) or name not in self.shapes:
            return BadInputError(
                f"unknown tool {shown(str(name))}",
                code="unknown_tool",
                hint=f"the tools are: {', '.join(sorted(self.shapes))}",
            )
        meta = params.get("_meta")
        invalid = meta.get(INVALID_TEXT) if isinstance(meta, Mapping) else None
        if invalid:
            where = ", ".join(str(w).removeprefix(".params.arguments.") for w in invalid)
            return BadInputError(
                f"{name}: {where}: not valid Unicode text (a lone UTF-16 surrogate)",
                hint="send UTF-8 text; a \\uD800-\\uDFFF escape must be one half of a pair",
            )
        if arguments is not None and not isinstance(arguments, Mapping):
            return BadInputError(
                f"{name}: arguments must be an object of named values",
                hint=f"{name} takes: {self.shapes[name].describe()}",
            )
        unknown = sorted(set(arguments or {}) - self.shapes[name].parameters)
        if unknown:
            return BadInputError(
                f"{name} does not take argument(s) {', '.join(shown(u) for u in unknown)}",
                hint=f"its arguments are: {', '.join(sorted(self.shapes[name].parameters))}",
            )
        return None


def _is_envelope(result: Mapping[str, Any]) -> bool:
    """Whether a wire-form tool result already carries the error envelope."""
    content = result.get("content") or [{}]
    text = content[0].get("text", "") if isinstance(content[0], Mapping) else ""
    return isinstance(text, str) and text.startswith('{"ok":false')


def build_server(app: AppContext) -> MCPServer[AppContext]:
    """An MCP server exposing every tool of `app`'s workspace."""
    specs = all_tools()

    @asynccontextmanager
    async def lifespan(_: MCPServer[AppContext]) -> AsyncIterator[AppContext]:
        try:
            app.start_memory_check()
            app.load_graph_early()
            yield app
        finally:
            await app.aclose()

    shapes = {spec.fn.__name__: ToolShape.of(spec) for spec in specs}
    server: MCPServer[AppContext] = MCPServer(
        name="codeanchor",
        version=package_version(),
        instructions=INSTRUCTIONS,
        lifespan=lifespan,
        middleware=[GuardToolCalls(shapes)],
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
