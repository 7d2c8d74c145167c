"""Entry point: parse the command line, run one command, map errors to exit codes.

Every command takes `--root DIR` and `--json`. Exit codes: 0 success, 1 the
command ran and found problems, 2 bad input (message on stderr, nothing
written).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

from bridge.cli import common
from bridge.translate import as_tool_error

Handler = Callable[[argparse.Namespace], int]


def _command_modules() -> list[ModuleType]:
    """The modules that each add a family of subcommands (`register(subparsers)`)."""
    from bridge.cli import doctor, map, memory, nav, serve

    return [nav, map, memory, serve, doctor]


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser, with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="codeanchor",
        description="Code intelligence for coding agents: live navigation, a cached "
        "code map, and memories anchored to code.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in _command_modules():
        module.register(subparsers, common.parent_parser())
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the process exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    args.root = Path(args.root).resolve()
    if not args.root.is_dir():
        print(f"codeanchor: --root {args.root} is not a directory", file=sys.stderr)
        return 2
    handler: Handler = args.handler
    try:
        return handler(args)
    except Exception as exc:
        error = as_tool_error(exc)
        if error is None:
            raise
        common.report_error(error, as_json=args.json)
        return error.exit_code
    except KeyboardInterrupt:
        print("codeanchor: interrupted", file=sys.stderr)
        return 130
