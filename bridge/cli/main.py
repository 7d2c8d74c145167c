"""Entry point: parse the command line, run one command, map errors to exit codes.

Every command takes `--root DIR` and `--json`. Exit codes: 0 success, 1 the
command ran and found problems, 2 bad input (message on stderr, nothing
written). Every word of the command line must be UTF-8 text without NUL
before any command runs; a failure of any kind ends in a one-line message
(a bug's traceback only with CODEANCHOR_DEBUG=1).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

from bridge.cli import common
from bridge.errors import BadInputError
from bridge.inputs import check_text
from bridge.translate import as_tool_error, internal_error

Handler = Callable[[argparse.Namespace], int]


def _command_modules() -> list[ModuleType]:
    """The modules that each add a family of subcommands (`register(subparsers)`)."""
    from bridge.cli import doctor, map, memory, nav, serve, trust

    return [nav, map, memory, serve, doctor, trust]


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
    words = sys.argv[1:] if argv is None else list(argv)
    try:
        for number, word in enumerate(words, 1):
            check_text(f"command-line word {number}", word)
    except BadInputError as exc:
        common.report_error(exc, as_json=False)
        return exc.exit_code
    parser = build_parser()
    args = parser.parse_args(words)
    try:
        args.root = Path(args.root).resolve()
        if not args.root.is_dir():
            raise BadInputError(f"--root {args.root} is not a directory")
        handler: Handler = args.handler
        return handler(args)
    except Exception as exc:
        error = as_tool_error(exc)
        if error is None:
            if os.environ.get("CODEANCHOR_DEBUG"):
                traceback.print_exc()
            error = internal_error(exc)
            error.hint = "this is a bug in codeanchor; run with CODEANCHOR_DEBUG=1 to see where"
        common.report_error(error, as_json=args.json)
        return error.exit_code
    except KeyboardInterrupt:
        print("codeanchor: interrupted", file=sys.stderr)
        return 130
