"""The `codeanchor` command line: one subcommand module per tool family."""

from bridge.cli.main import main

__all__ = ["main"]
