"""`codeanchor trust`: let a repository's configuration run the servers it names.

    codeanchor trust            trust the configuration as it is now; shows what it runs
    codeanchor trust --status   whether it is trusted, and what it would run (exit 1: not)
    codeanchor trust --revoke   trust it no more

See `bridge.trust` for what needs trust and where trust is kept.
"""

from __future__ import annotations

import argparse
import os
import shlex
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from bridge.cli.common import print_json
from bridge.config import Config, catalog_of, load_config
from bridge.trust import TrustState, TrustStore, assess, trust
from lsp import ConfiguredServer, configured_servers


def register(parser: argparse.ArgumentParser, parent: argparse.ArgumentParser) -> None:
    """Add the options of `trust` to its `parser` (the common options are on it)."""
    parser.description = (
        "A repository's codeanchor.toml or [tool.codeanchor] can set the "
        "commands language servers run; they run only once you trust that configuration. "
        "Trust is kept in your user configuration directory, for this root and this exact "
        "configuration: any edit needs trust again."
    )
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument(
        "--status", action="store_true", help="say whether it is trusted and what it would run"
    )
    mode.add_argument("--revoke", action="store_true", help="trust it no more")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Grant, revoke or report trust for `args.root`; exit 1 from --status when untrusted."""
    store = TrustStore.default()
    if args.revoke:
        return _revoke(args, store)
    if args.status:
        config = load_config(args.root)
        catalog_of(config)
        state = assess(args.root, config, store)
        action = "status"
    else:
        config, state = trust(args.root, store)
        action = "granted" if state.needs_trust else "nothing_to_trust"
    servers = configured_servers({"servers": config.servers, "server": config.server})
    if args.json:
        print_json(_document(action, state, config, servers, store))
    else:
        _show(action, state, config, servers)
    return 1 if args.status and not state.applies else 0


def _revoke(args: argparse.Namespace, store: TrustStore) -> int:
    """Forget what was trusted for the root, whatever its configuration says now."""
    revoked = store.revoke(args.root)
    if args.json:
        action = "revoked" if revoked else "nothing_was_trusted"
        print_json({"action": action, "root": str(args.root), "trustFile": str(store.path)})
    elif revoked:
        print(f"trust revoked for {args.root}: its configuration runs no program of its own now")
    else:
        print(f"nothing was trusted for {args.root}")
    return 0


def _document(
    action: str,
    state: TrustState,
    config: Config,
    servers: list[ConfiguredServer],
    store: TrustStore,
) -> dict[str, Any]:
    return {
        "action": action,
        **state.as_dict(),
        "trustFile": str(store.path),
        "choices": dict(config.servers),
        "servers": [
            {
                "name": s.name,
                "command": list(s.command),
                "env": dict(s.env),
                "chosenFor": list(s.chosen_for),
                "keys": list(s.keys),
                "runsRepositoryFile": _in_repository(state.root, s.command[0]),
            }
            for s in servers
        ],
    }


def _show(action: str, state: TrustState, config: Config, servers: list[ConfiguredServer]) -> None:
    console = Console(highlight=False, soft_wrap=True)  # a path is never cut
    source = escape(str(state.source))
    if not state.needs_trust:
        what = (
            "no configuration"
            if state.source is None
            else f"{source} runs no program and writes nothing outside the root"
        )
        console.print(f"{what}: nothing to trust")
        return
    said = {
        "granted": f"[green]trusted[/] {source}",
        "status": f"{source}: " + ("[green]trusted[/]" if state.trusted else "[red]NOT trusted[/]"),
    }[action]
    console.print(said)
    console.print(f"  needs trust for: {escape('; '.join(state.ignored))}")
    if state.problem:
        console.print(f"[yellow]warning:[/] {escape(state.problem)}")
    verb = "runs" if state.trusted else "would run, once trusted"
    for server in servers:
        env = " ".join(f"{k}={shlex.quote(v)}" for k, v in server.env.items())
        chosen = ", ".join(server.chosen_for) or "no language"
        console.print(
            f"  {escape(server.name)} ({chosen}) {verb}: {escape(shlex.join(server.command))}"
            + (f"  [dim]env[/] {escape(env)}" if env else "")
        )
        if _in_repository(state.root, server.command[0]):
            console.print(
                "    [yellow]a file in the repository: trust does not cover what it holds "
                "later (a pull can change it without changing the configuration)[/]"
            )
    for language, name in config.servers.items():
        console.print(f"  servers.{escape(language)} = {escape(name)}")
    if not state.trusted:
        console.print(f"to trust it, review it, then run: {escape(state.command)}")


def _in_repository(root: Path, program: str) -> bool:
    """Whether a server's program is a file under the root (servers start in the root)."""
    if os.sep not in program:
        return False  # found on PATH
    real_root = os.path.realpath(root)
    return os.path.commonpath([real_root, os.path.realpath(root / program)]) == real_root
