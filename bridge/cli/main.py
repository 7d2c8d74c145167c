"""Entry point: parse the command line, run one command, map errors to exit codes.

Every command takes `--root DIR` and `--json`. Exit codes: 0 success, 1 the
command ran and found problems, 2 bad input (message on stderr, nothing
written). Every word of the command line must be UTF-8 text without NUL
before any command runs; a failure of any kind ends in a one-line message
(a bug's traceback only with CODEANCHOR_DEBUG=1).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import NamedTuple

from bridge.cli import common
from bridge.contract.errors import BadInputError
from bridge.contract.inputs import check_text

Handler = Callable[[argparse.Namespace], int]


class Command(NamedTuple):
    """One top-level command: its name, its one-line help, and where its arguments
    and handler are registered (`module:function`, called as `function(parser, common)`).

    A family (nav, map, memory) has actions of its own, each taking the common
    options; a single command takes them itself."""

    name: str
    help: str
    register: str
    family: bool = False


COMMANDS = (
    Command("nav", "ask the live language server", "bridge.cli.nav:register_nav", family=True),
    Command(
        "resolve",
        "where a node is now: live location vs the map",
        "bridge.cli.nav:register_resolve",
    ),
    Command("map", "the cached map of symbols and edges", "bridge.cli.map:register", family=True),
    Command("memory", "memories anchored to code", "bridge.cli.memory:register", family=True),
    Command("serve", "serve every tool over MCP on stdio", "bridge.cli.serve:register"),
    Command(
        "doctor",
        "which language servers are found, and what to install",
        "bridge.cli.doctor:register",
    ),
    Command(
        "setup",
        "register codeanchor with an MCP client (claude-code, cursor, vscode, ...)",
        "bridge.cli.setup:register",
    ),
    Command(
        "servers",
        "install the npm language servers; list every server and where it is",
        "bridge.cli.servers:register",
        family=True,
    ),
    Command(
        "trust",
        "let this repository's configuration run the language servers it names",
        "bridge.cli.trust:register",
    ),
)
"""Every command, in the order `--help` lists them."""


def build_parser(words: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The argument parser for the command line `words`.

    Only the command `words` names is registered in full (importing its module);
    the others are a name and a line of help. `--help`, and any command, so pays
    only for the modules it runs: not for the MCP SDK, the language-server client
    or the graph library when it does not need them.
    """
    parser = common.Parser(
        prog="codeanchor",
        description="Code intelligence for coding agents: live navigation, a cached "
        "code map, and memories anchored to code.",
    )
    parser.add_argument(
        "--version", action=_PrintVersion, nargs=0, help="print codeanchor's version and exit"
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    chosen = words[0] if words else None
    for command in COMMANDS:
        if command.name != chosen:
            subparsers.add_parser(command.name, help=command.help)
            continue
        shared = common.parent_parser()
        parents = [] if command.family else [shared]
        own = subparsers.add_parser(command.name, help=command.help, parents=parents)
        module, function = command.register.split(":")
        getattr(importlib.import_module(module), function)(own, shared)
    return parser


class _PrintVersion(argparse.Action):
    """`--version`: the package metadata read only when asked (not on every start)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from bridge.about import package_version

        print(f"codeanchor {package_version()}")
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the process exit code."""
    words = sys.argv[1:] if argv is None else list(argv)
    try:
        for number, word in enumerate(words, 1):
            check_text(f"command-line word {number}", word)
        args = build_parser(words).parse_args(words)
    except BadInputError as exc:
        common.report_error(exc, as_json="--json" in words)
        return exc.exit_code
    try:
        if "root" in args:  # `servers` serves no repository
            from bridge.root import choose_root

            args.root_option = args.root
            args.root = choose_root(args.root, guard=args.root_guard)
        handler: Handler = args.handler
        return handler(args)
    except Exception as exc:
        from bridge.contract.translate import (  # the lower layers' errors
            as_tool_error,
            internal_error,
        )

        error = as_tool_error(exc)
        if error is None:
            if os.environ.get("CODEANCHOR_DEBUG"):
                import traceback

                traceback.print_exc()
            error = internal_error(exc)
            error.hint = "this is a bug in codeanchor; run with CODEANCHOR_DEBUG=1 to see where"
        common.report_error(error, as_json=args.json)
        return error.exit_code
    except KeyboardInterrupt:
        print("codeanchor: interrupted", file=sys.stderr)
        return 130
