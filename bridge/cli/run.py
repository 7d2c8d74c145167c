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
    from bridge.cli.views.text import Page
    from bridge.context import AppContext
    from bridge.contract.envelope import Envelope

ToolCall: TypeAlias = "Callable[[AppContext], Awaitable[Envelope]]"
View: TypeAlias = "Callable[[Page, Any], None]"
"""Writes an answer's envelope on a page, for people (bridge.cli.views)."""


def run_tool(args: argparse.Namespace, call: ToolCall, view: View) -> int:
    """Run `call` against a fresh context for `args.root`; print its answer (as JSON
    with --json, else its `view`)."""
    import asyncio  # not for `map build`, which runs no event loop

    envelope = asyncio.run(_run(args, call))
    show(args, envelope, view)
    return 0


def show(args: argparse.Namespace, envelope: Any, view: View) -> None:
    """Print `envelope`: as JSON with --json, else its `view`, for people."""
    if args.json:
        print_json(envelope)
        return
    from bridge.cli.views.text import Page

    page = Page()
    view(page, envelope)
    page.print()


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
