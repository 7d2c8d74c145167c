"""Run one tool from the command line: build the context, await, print, close.

The context (and the layers under it) is imported when a tool runs, so that a
command module can import `run_tool` while its parser is built, for nothing.
"""

from __future__ import annotations

import argparse
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeAlias

from bridge.cli.common import print_json, report_warning
from bridge.cli.readonly import is_read_only

if TYPE_CHECKING:
    from bridge.context import AppContext
    from bridge.contract.envelope import Envelope

ToolCall: TypeAlias = "Callable[[AppContext], Awaitable[Envelope]]"


def run_tool(
    args: argparse.Namespace, call: ToolCall, show: Callable[[Envelope], None] | None = None
) -> int:
    """Run `call` against a fresh context for `args.root`; print its answer
    (as JSON with --json, else with `show`, by default a generic listing)."""
    import asyncio  # not for `map build`, which runs no event loop

    envelope = asyncio.run(_run(args, call))
    if args.json:
        print_json(envelope)
    else:
        (show or show_listing)(envelope)
    return 0


async def _run(args: argparse.Namespace, call: ToolCall) -> Envelope:
    from bridge.context import AppContext
    from bridge.contract.translate import as_tool_error

    app = AppContext(args.root, read_only=is_read_only(args))
    try:
        return app.announce(await call(app))
    except Exception as exc:
        error = as_tool_error(exc)
        if error is None:
            raise
        for notice in app.take_notices():  # a failed answer has no warnings: say it here
            report_warning(notice)
        raise error from exc
    finally:
        await app.aclose()


def show_listing(envelope: Envelope) -> None:
    """Print an answer for a person: its items one per line, then its warnings."""
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False)
    data = envelope["data"]
    if isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, list):
                console.print(f"[bold]{key}[/] ({len(value)})")
                for item in value:
                    console.print("  " + _line(item))
            elif not isinstance(value, dict) or key in {"location", "mapRange"}:
                console.print(f"[bold]{key}[/]: {escape(_line(value))}")
    else:
        console.print(escape(str(data)))
    if envelope.get("stale"):
        console.print("[yellow]stale: a file in this answer changed since the map was built[/]")
    for warning in envelope["warnings"]:
        console.print(f"[yellow]warning:[/] {escape(warning)}")


def _line(item: Any) -> str:
    from rich.markup import escape

    if isinstance(item, dict):
        where = item.get("nodeId") or item.get("path") or item.get("name") or item.get("code") or ""
        line = item.get("line") or item.get("startLine")
        head = f"{where}:{line}" if line and "#" not in str(where) else str(where)
        if "#" in str(where) and item.get("startLine"):
            head += f"  (lines {item['startLine']}-{item.get('endLine')})"
        text = item.get("text") or item.get("kind") or item.get("message") or ""
        return escape(f"{head}  {text}".rstrip())
    return str(item)
