"""`codeanchor doctor`: which language servers are found, versions, what to install."""

from __future__ import annotations

import argparse
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from bridge.cli.common import print_json
from bridge.config import catalog_of
from bridge.trust import TrustState, load_trusted
from lsp import ServerReport, examine


def register(parser: argparse.ArgumentParser, parent: argparse.ArgumentParser) -> None:
    """Make `doctor` run the examination (its `parser` has the common options)."""
    parser.set_defaults(handler=run, root_guard=False)  # doctor reads no tree


def run(args: argparse.Namespace) -> int:
    """List every server, and whether the repository's configuration is trusted; exit 1
    when a server chosen for a language is missing."""
    config, trust = load_trusted(args.root)
    reports = examine(catalog_of(config))
    missing_chosen = [r for r in reports if r.chosen_for and not r.found]
    if args.json:
        print_json({"servers": [_server_json(r) for r in reports], "config": trust.as_dict()})
    else:
        table = Table(title="Language servers")
        for column in ("server", "languages", "default for", "status", "version / install"):
            table.add_column(column)
        for r in reports:
            status = "[green]found[/]" if r.found else "[red]missing[/]"
            detail = (r.version or "?") if r.found else f"install: {r.install}"
            if r.problem:
                status, detail = "[red]broken[/]", f"{r.problem}; install: {r.install}"
            table.add_row(r.name, ", ".join(r.languages), ", ".join(r.chosen_for), status, detail)
        Console().print(table)
        Console(highlight=False).print(_trust_line(trust))
    return 1 if missing_chosen else 0


def _server_json(report: ServerReport) -> dict[str, Any]:
    """One server's report with camelCase keys, like every other answer."""
    return {
        "name": report.name,
        "languages": list(report.languages),
        "chosenFor": list(report.chosen_for),
        "found": report.found,
        "path": report.path,
        "version": report.version,
        "install": report.install,
        "problem": report.problem,
    }


def _trust_line(state: TrustState) -> str:
    """One line on the repository's configuration: trusted, untrusted, or nothing to trust."""
    source = escape(str(state.source))
    if state.source is None:
        return "configuration: none (defaults)"
    if not state.needs_trust:
        return f"configuration: {source} (runs no program of its own: no trust needed)"
    if state.trusted:
        return f"configuration: {source} [green]trusted[/] (its server commands run)"
    return (
        f"configuration: {source} [red]NOT trusted[/]: ignored {escape('; '.join(state.ignored))}"
        f"; to use it, review it, then run: {escape(state.command)}"
    )
