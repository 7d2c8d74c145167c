"""What every subcommand shares: the common options, JSON output, error output."""

from __future__ import annotations

import argparse
import sys
from typing import Any, NoReturn

from bridge.contract.errors import BadInputError, ToolError


class Parser(argparse.ArgumentParser):
    """A parser whose refusal is a BadInputError: one line on stderr (and the error
    envelope with --json), exit 2, as for any other bad input."""

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("codeanchor").strip() or "codeanchor"
        raise BadInputError(f"{command}: {message}", hint=f"see `{self.prog} --help`")


def parent_parser() -> Parser:
    """The options every command takes: `--root DIR` and `--json`."""
    parent = Parser(add_help=False)
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
    """Say on stderr, in command-line words, something the user should know that is not
    part of the answer."""
    from bridge.cli.wording import for_cli

    print(f"codeanchor: warning: {for_cli(message)}", file=sys.stderr)


def report_error(exc: ToolError, *, as_json: bool) -> None:
    """Say what went wrong on stderr, in command-line words (and with --json, as the
    error envelope on stdout: `{"ok": false, "error": {code, message, hint}}`)."""
    from bridge.cli.wording import for_cli
    from bridge.contract.envelope import error_envelope

    exc.message = for_cli(exc.message)
    exc.hint = for_cli(exc.hint) if exc.hint else exc.hint
    if as_json:
        print_json(error_envelope(exc))
    print(f"codeanchor: {exc.message}", file=sys.stderr)
    if exc.hint:
        print(f"  hint: {exc.hint}", file=sys.stderr)
