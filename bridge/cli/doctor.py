"""`codeanchor doctor`: which language servers are found, versions, what to install."""

from __future__ import annotations

import argparse
from typing import Any

from bridge.cli.common import print_json
from bridge.cli.views.text import Page
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
        page = Page()
        page.table(
            (_server_row(r) for r in reports),
            header=["server", "languages", "default for", "status", "version / install"],
        )
        page.add(*_trust_line(trust))
        page.print()
    return 1 if missing_chosen else 0


def _server_row(r: ServerReport) -> list[str]:
    """One server: its name, languages, status and version, or how to install it."""
    status = "found" if r.found else "missing"
    detail = (r.version or "version unknown") if r.found else f"install: {r.install}"
    if r.problem:
        status, detail = "broken", f"{r.problem}; install: {r.install}"
    chosen = ", ".join(r.chosen_for) or "-"
    return [r.name, ", ".join(r.languages), chosen, status, detail]


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


def _trust_line(state: TrustState) -> tuple[str, str]:
    """One line on the repository's configuration (and its style): trusted, untrusted,
    or nothing to trust."""
    source = str(state.source)
    if state.source is None:
        return "configuration: none (defaults)", ""
    if not state.needs_trust:
        return f"configuration: {source} (runs no program of its own: no trust needed)", ""
    if state.trusted:
        return f"configuration: {source} trusted (its server commands run)", "green"
    return (
        f"configuration: {source} NOT trusted: ignored {'; '.join(state.ignored)}"
        f"; to use it, review it, then run: {state.command}",
        "red",
    )
