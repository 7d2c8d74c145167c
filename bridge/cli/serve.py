"""`codeanchor serve`: the MCP server on stdio."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp.server.mcpserver import MCPServer

    from bridge.context import AppContext


def register(parser: argparse.ArgumentParser, parent: argparse.ArgumentParser) -> None:
    """Make `serve` run the server (its `parser` has the common options)."""
    parser.add_argument(
        "--tools",
        metavar="FAMILY,...",
        help="serve only these tool families: nav, resolve, map, change, memory "
        "(default: the configuration's `tools`, else all)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Serve until the client disconnects; language servers stop with it."""
    from bridge.context import AppContext  # the MCP SDK and every layer: only to serve
    from bridge.server.mcp_stdio import start_stdin_relay

    logging.basicConfig(level=logging.WARNING, format="codeanchor: %(levelname)s %(message)s")
    app = AppContext(args.root, serving=True)
    start_stdin_relay()
    families = tuple(f.strip() for f in args.tools.split(",") if f.strip()) if args.tools else None
    asyncio.run(_serve(app, families))
    return 0


async def _serve(app: AppContext, families: tuple[str, ...] | None) -> None:
    """Run the server; SIGTERM or SIGHUP (what a client sends when shutting down
    takes too long) kills every language server at once, then shuts down."""
    from map import import_graph_library

    # the map opens (watched, then checked against the disk) and the graph library loads
    # while the MCP SDK loads in a worker thread, the event loop free for the open's
    # steps: the first answers need not wait for them (the graph itself loads once the
    # server serves: see the lifespan in bridge.server.mcp_server)
    app.open_map_early()
    threading.Thread(target=import_graph_library, name="import-networkx", daemon=True).start()
    build_server = await asyncio.to_thread(_server_builder)

    main = asyncio.current_task()
    loop = asyncio.get_running_loop()

    def stop() -> None:
        app.live.kill_all()
        if main is not None:
            main.cancel()

    for signum in (signal.SIGTERM, signal.SIGHUP):
        loop.add_signal_handler(signum, stop)
    with contextlib.suppress(asyncio.CancelledError):
        await build_server(app, families).run_stdio_async()


def _server_builder() -> Callable[[AppContext, tuple[str, ...] | None], MCPServer[AppContext]]:
    """`build_server`, the MCP SDK and every tool imported (a second or more)."""
    from bridge.server.mcp_server import build_server

    return build_server
