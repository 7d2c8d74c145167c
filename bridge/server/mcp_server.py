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
from typing import Any, cast, get_args

import orjson
import pydantic
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from mcp_types import Tool as MCPTool

from bridge.about import package_version
from bridge.config import ConfigError
from bridge.context import AppContext
from bridge.contract.envelope import error_envelope
from bridge.contract.errors import BadInputError, ToolError
from bridge.contract.inputs import check_arguments, shown
from bridge.contract.translate import as_tool_error, internal_error
from bridge.server.call_progress import reporting
from bridge.server.mcp_stdio import INVALID_TEXT
from bridge.server.registry import ToolSpec, all_tools
from bridge.server.schemas import SchemaDetail, description, lean_input, lean_output

log = logging.getLogger(__name__)

ABOUT = """\
codeanchor answers questions about this repository from LIVE language servers
(nav_* tools; never stale: files are re-read from disk before every query), a
cached map of symbols and edges (map_* tools; every answer says when the map was
built and flags files changed since), and memories anchored to code (memory_*)."""
INSTRUCTIONS = f"""{ABOUT}
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


class CodeanchorServer(MCPServer[AppContext]):
    """The SDK's server, its tool list published lean (see bridge.server.schemas)."""

    def __init__(self, detail: SchemaDetail, **settings: Any) -> None:
        super().__init__(**settings)
        self.detail = detail

    async def list_tools(self) -> list[MCPTool]:
        """Every tool, its schemas lean unless the full ones are asked for."""
        tools = await super().list_tools()
        if self.detail == "full":
            return tools
        return [
            tool.model_copy(
                update={
                    "input_schema": lean_input(tool.input_schema),
                    "output_schema": tool.output_schema and lean_output(tool.output_schema),
                }
            )
            for tool in tools
        ]


def _instructions(served: list[str]) -> str:
    """The server's instructions: the first calls to make, when every tool is served;
    else what codeanchor is, and which tools this server serves (`serve --tools`)."""
    if len(served) == len(all_tools()):
        return INSTRUCTIONS
    return f"{ABOUT}\nThis server serves only these tools: {', '.join(served)}."


def _annotations(spec: ToolSpec) -> ToolAnnotations:
    """What a client may assume of a tool; the destructive and idempotent hints say
    something only of a tool that changes anything (MCP), so only such a tool has them."""
    if spec.read_only:
        return ToolAnnotations(read_only_hint=True)
    return ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=spec.idempotent
    )


def build_server(app: AppContext, families: tuple[str, ...] | None = None) -> MCPServer[AppContext]:
    """An MCP server exposing the tools of `families` (default: the configured ones,
    else all) of `app`'s workspace."""
    settings = app.config.bridge
    if settings.output_schemas not in get_args(SchemaDetail):
        raise ConfigError(
            f"{app.config.source}: output_schemas = {settings.output_schemas!r}: "
            f"say one of {', '.join(get_args(SchemaDetail))}"
        )
    specs = all_tools(settings.tools if families is None else families)

    @asynccontextmanager
    async def lifespan(_: MCPServer[AppContext]) -> AsyncIterator[AppContext]:
        try:
            app.start_memory_check()
            app.load_graph_early()
            yield app
        finally:
            await app.aclose()

    shapes = {spec.fn.__name__: ToolShape.of(spec) for spec in specs}
    server = CodeanchorServer(
        cast(SchemaDetail, settings.output_schemas),
        name="codeanchor",
        version=package_version(),
        instructions=_instructions([spec.fn.__name__ for spec in specs]),
        lifespan=lifespan,
        middleware=[GuardToolCalls(shapes)],
    )
    for spec in specs:
        server.add_tool(
            bind(app, spec),
            name=spec.fn.__name__,
            title=spec.title,
            description=description(spec.fn.__doc__),
            annotations=_annotations(spec),
        )
    return server
