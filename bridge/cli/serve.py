"""`codeanchor serve`: the MCP server on stdio."""

from __future__ import annotations

import argparse
import asyncio
import logging
from typing import Any

from bridge.context import AppContext
from bridge.mcp_server import build_server


def register(subparsers: Any, parent: argparse.ArgumentParser) -> None:
    """Add the `serve` command."""
    parser = subparsers.add_parser(
        "serve", parents=[parent], help="serve every tool over MCP on stdio"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Serve until the client disconnects; language servers stop with it."""
    logging.basicConfig(level=logging.WARNING, format="codeanchor: %(levelname)s %(message)s")
    app = AppContext(args.root, serving=True)
    asyncio.run(build_server(app).run_stdio_async())
    return 0
