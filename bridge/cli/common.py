"""What every subcommand shares: the common options, JSON output, error output."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bridge.contract.errors import ToolError


def parent_parser() -> argparse.ArgumentParser:
    """The options every command takes: `--root DIR` and `--json`."""
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--root",
        metavar="DIR",
        help="the repository to serve (default: the git top-level of the current folder)",
    )
    parent.set_defaults(root_guard=True)
    parent.add_argument(
        "--json", action="store_true", help="machine output on stdout, nothing else there"
    )
    return parent


def print_json(data: Any) -> None:
    """Write `data` as one JSON document on stdout."""
    import orjson  # not for `--help`

    sys.stdout.write(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode() + "\n")


def report_warning(message: str) -> None:
    """Say on stderr something the user should know that is not part of the answer."""
    print(f"codeanchor: warning: {message}", file=sys.stderr)


def report_error(exc: ToolError, *, as_json: bool) -> None:
    """Say what went wrong on stderr (and as JSON on stdout with --json)."""
    if as_json:
        print_json({"error": {"code": exc.code, "message": exc.message, "hint": exc.hint}})
    print(f"codeanchor: {exc.message}", file=sys.stderr)
    if exc.hint:
        print(f"  hint: {exc.hint}", file=sys.stderr)
