"""`codeanchor nav ...` and `codeanchor resolve`: live questions from the command line.

The tools (and the language-server client under them) are imported when a
command runs, not when the parser is built: `nav refs --help` stays cheap.
"""

from __future__ import annotations

import argparse
import importlib
from collections import Counter
from typing import TYPE_CHECKING, Any

from bridge.cli.run import run_tool
from bridge.contract.errors import BadInputError

if TYPE_CHECKING:
    from bridge.context import AppContext
    from bridge.contract.envelope import Envelope

_TARGET_HELP = "a node ID (path#Qual.Name) or path:LINE[:COL]"


def register_nav(parser: argparse.ArgumentParser, parent: argparse.ArgumentParser) -> None:
    """Add the `nav` questions to its `parser`."""
    nav_sub = parser.add_subparsers(dest="nav_command", required=True, metavar="QUESTION")
    for command, tool, help_text in (
        ("def", "nav_definition", "where it is defined"),
        ("type-def", "nav_type_definition", "where its type is defined"),
        ("impl", "nav_implementations", "its implementations"),
        ("refs", "nav_references", "every use of it"),
        ("hover", "nav_hover", "its type and docs"),
        ("callers", "nav_callers", "functions calling it"),
        ("callees", "nav_callees", "functions it calls"),
    ):
        sub = nav_sub.add_parser(command, parents=[parent], help=help_text)
        sub.add_argument("target", metavar="TARGET", help=_TARGET_HELP)
        sub.add_argument("--name", help="with path:LINE, the name on that line to ask about")
        sub.add_argument("--budget", type=int, help="answer size cap in tokens")
        sub.set_defaults(handler=_positional("bridge.tools.nav", tool))
    symbols = nav_sub.add_parser("symbols", parents=[parent], help="the live outline of a file")
    symbols.add_argument("path")
    symbols.add_argument("--budget", type=int)
    symbols.set_defaults(handler=_symbols)
    workspace = nav_sub.add_parser(
        "workspace-symbols", parents=[parent], help="find symbols by name across the workspace"
    )
    workspace.add_argument("query")
    workspace.add_argument(
        "--language", help="ask only this language's server (default: the workspace's languages)"
    )
    workspace.add_argument("--budget", type=int)
    workspace.set_defaults(handler=_workspace_symbols)
    diags = nav_sub.add_parser(
        "diagnostics",
        parents=[parent],
        help="errors and warnings now: of PATH, else of the files changed since --since "
        "and the files that use what they changed",
    )
    diags.add_argument("path", nargs="?")
    diags.add_argument("--since", default="HEAD", metavar="COMMIT")
    diags.add_argument("--budget", type=int)
    diags.set_defaults(handler=_diagnostics)
    renamer = nav_sub.add_parser(
        "rename", parents=[parent], help="rename a symbol: a preview, written with --apply"
    )
    renamer.add_argument("target", metavar="TARGET", help=_TARGET_HELP)
    renamer.add_argument("new_name", metavar="NEW_NAME")
    renamer.add_argument("--name", help="with path:LINE, the name on that line to rename")
    renamer.add_argument("--apply", action="store_true", help="write the edits")
    renamer.add_argument(
        "--hash",
        action="append",
        default=[],
        metavar="PATH=HASH",
        help="with --apply: write only if PATH still has the HASH its preview showed",
    )
    renamer.add_argument("--budget", type=int)
    renamer.set_defaults(handler=_rename)


def register_resolve(parser: argparse.ArgumentParser, parent: argparse.ArgumentParser) -> None:
    """Add the arguments of `resolve` to its `parser` (the common options are on it)."""
    parser.add_argument("target", metavar="ID", help=_TARGET_HELP)
    parser.add_argument("--name", help="with path:LINE, the name on that line")
    parser.add_argument("--budget", type=int)
    parser.set_defaults(handler=_positional("bridge.tools.resolve", "resolve"))


def _symbols(args: argparse.Namespace) -> int:
    from bridge.tools import nav

    return run_tool(args, lambda app: nav.nav_symbols(app, args.path, args.budget))


def _workspace_symbols(args: argparse.Namespace) -> int:
    from bridge.tools import nav

    return run_tool(
        args, lambda app: nav.nav_workspace_symbols(app, args.query, args.language, args.budget)
    )


def _diagnostics(args: argparse.Namespace) -> int:
    """`nav diagnostics`: exit 1 when an error is reported (as `memory check` for stale)."""
    from bridge.tools import diagnostics

    errors: list[int] = []

    async def call(app: AppContext) -> Envelope:
        envelope = await diagnostics.nav_diagnostics(app, args.path, args.since, args.budget)
        errors.append(envelope["data"]["errorCount"])
        return envelope

    code = run_tool(args, call, _show_diagnostics)
    return 1 if any(errors) else code


def _show_diagnostics(envelope: Envelope) -> None:
    """One line per diagnostic, as compilers print them, then the warnings."""
    data = envelope["data"]
    for d in data["diagnostics"]:
        tag = " [new]" if d["change"] == "new" else ""
        print(f"{d['path']}:{d['line']}:{d['column']}: {d['severity']}: {d['message']}{tag}")
    print(
        f"{data['errorCount']} errors ({data['newErrorCount']} new), "
        f"{data['warningCount']} warnings ({data['completeness']})"
    )
    if "since" in data["scope"]:
        why = Counter(f["why"] for f in data["files"])
        print(
            f"checked {len(data['files'])} files ({why['changed']} changed, "
            f"{len(data['files']) - why['changed']} that may use what changed); "
            f"{len(data['notChecked'])} left out (see --json: notChecked)"
        )
    for warning in envelope["warnings"]:
        print(f"warning: {warning}")


def _rename(args: argparse.Namespace) -> int:
    from bridge.tools import rename

    hashes: dict[str, str] = {}
    for item in args.hash:
        path, sep, digest = item.partition("=")
        if not sep or not path or not digest:
            raise BadInputError(f"bad --hash {item!r}", hint="pass PATH=HASH, as the preview shows")
        hashes[path] = digest
    return run_tool(
        args,
        lambda app: rename.nav_rename(
            app,
            args.target,
            args.new_name,
            args.name,
            apply=args.apply,
            hashes=hashes or None,
            budget=args.budget,
        ),
    )


def _positional(module: str, tool: str) -> Any:
    """The handler of a command that asks `module.tool(app, target, name, budget=)`."""

    def handler(args: argparse.Namespace) -> int:
        fn = getattr(importlib.import_module(module), tool)
        return run_tool(args, lambda app: fn(app, args.target, args.name, budget=args.budget))

    return handler
