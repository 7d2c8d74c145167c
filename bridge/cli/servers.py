"""`codeanchor servers ...`: install the npm-distributed language servers, list them all.

    codeanchor servers install [NAME ...]   typescript-language-server, pyright,
                                            intelephense, bash-language-server (all
                                            without NAME), at the catalog's pins
    codeanchor servers list                 every server: where it is found, or how to
                                            install it
    codeanchor servers uninstall NAME ...   remove what `install` put there

NAME is a server or a language (`typescript`, `php`, `bash`). Servers go to the
user's data folder (see `lsp.userdata`), found from there by every install of
codeanchor and every repository; they serve no repository, so these commands
take no `--root`.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bridge.cli.common import print_json
from bridge.contract.errors import BadInputError, UnavailableError
from lsp import (
    Catalog,
    Installed,
    InstallError,
    ServerSpec,
    choose_servers,
    data_dir,
    find_npm,
    install_server,
    install_status,
    npm_servers,
    uninstall_server,
)


def register(parser: argparse.ArgumentParser, parent: argparse.ArgumentParser) -> None:
    """Add the actions of `servers` to its parser (`--json` only: no root)."""
    json_only = argparse.ArgumentParser(add_help=False)
    json_only.add_argument(
        "--json", action="store_true", help="machine output on stdout, nothing else there"
    )
    sub = parser.add_subparsers(dest="servers_command", required=True, metavar="ACTION")
    install = sub.add_parser(
        "install",
        parents=[json_only],
        help="install npm language servers into your data folder (all without NAME)",
    )
    install.add_argument("names", nargs="*", metavar="NAME", help="a server or a language")
    install.set_defaults(handler=_install)
    listing = sub.add_parser("list", parents=[json_only], help="every server, and where it is")
    listing.set_defaults(handler=_list)
    uninstall = sub.add_parser(
        "uninstall", parents=[json_only], help="remove servers `servers install` installed"
    )
    uninstall.add_argument("names", nargs="+", metavar="NAME", help="a server or a language")
    uninstall.set_defaults(handler=_uninstall)


def _chosen(catalog: Catalog, names: list[str]) -> list[ServerSpec]:
    try:
        return choose_servers(catalog, names)
    except InstallError as exc:
        raise BadInputError(str(exc)) from exc


def _install(args: argparse.Namespace) -> int:
    catalog = Catalog.builtin()
    specs = _chosen(catalog, args.names)
    try:
        npm = find_npm()
        done = [install_server(spec, npm, _say) for spec in specs]
    except InstallError as exc:
        raise UnavailableError(str(exc)) from exc
    if args.json:
        print_json({"servers": [_installed_json(item) for item in done]})
    else:
        names = " ".join(item.name for item in done)
        print(f"installed {names} in {data_dir() / 'servers'}; `codeanchor doctor` checks them")
    return 0


def _uninstall(args: argparse.Namespace) -> int:
    specs = _chosen(Catalog.builtin(), args.names)
    removed = [spec.name for spec in specs if uninstall_server(spec)]
    if args.json:
        print_json({"removed": removed})
    else:
        for spec in specs:
            state = "removed" if spec.name in removed else "was not installed here"
            print(f"{spec.name}: {state}")
    return 0


def _list(args: argparse.Namespace) -> int:
    from lsp import examine  # runs each server's version command: only to list

    catalog = Catalog.builtin()
    ours = {spec.name: install_status(spec) for spec in npm_servers(catalog)}
    rows: list[dict[str, Any]] = [
        {
            "name": report.name,
            "languages": list(report.languages),
            "found": report.found,
            "path": report.path,
            "version": report.version,
            "installedHere": report.name in ours and ours[report.name].installed is not None,
            "pinned": list(ours[report.name].pinned) if report.name in ours else [],
            "install": report.install,
            "problem": report.problem,
        }
        for report in examine(catalog)
    ]
    if args.json:
        print_json({"dataDir": str(data_dir()), "servers": rows})
        return 0
    print(f"servers installed by `codeanchor servers install` go to {data_dir() / 'servers'}")
    for row in rows:  # one line each: paths are never wrapped or cut
        head = f"{row['name']} ({', '.join(row['languages'])})"
        if row["problem"]:
            print(f"{head}: broken at {row['path']}: {row['problem']}; install: {row['install']}")
        elif row["found"]:
            mark = "  [installed by codeanchor]" if row["installedHere"] else ""
            print(f"{head}: {row['version'] or 'found'} at {row['path']}{mark}")
        else:
            print(f"{head}: missing; install: {row['install']}")
    return 0


def _installed_json(item: Installed) -> dict[str, Any]:
    return {
        "name": item.name,
        "languages": list(item.languages),
        "folder": str(item.folder),
        "packages": list(item.installed or ()),
        "current": item.current,
    }


def _say(line: str) -> None:
    """Progress on stderr: stdout stays the answer's."""
    print(f"codeanchor: {line}", file=sys.stderr, flush=True)
