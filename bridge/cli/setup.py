"""`codeanchor setup CLIENT`: register `codeanchor serve` with an MCP client.

    codeanchor setup claude-code               .mcp.json of this repository
    codeanchor setup cursor --user             ~/.cursor/mcp.json, every workspace
    codeanchor setup claude-desktop --dry-run  print what would be written, write nothing

The entry runs this install's `codeanchor` by its absolute path; it is merged
into the client's file (see `bridge.config_merge`): other servers and settings
stay. Which file, and how the root is passed: `bridge.clients`.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from bridge.cli.common import print_json
from bridge.clients import CLIENTS, Client
from bridge.config_merge import NAME, Change, merge_json, merge_toml, toml_table
from bridge.contract.errors import BadInputError
from bridge.root import choose_root


def register(parser: argparse.ArgumentParser, parent: argparse.ArgumentParser) -> None:
    """Add the options of `setup` to its `parser` (the common options are on it)."""
    parser.description = (
        "Write CLIENT's configuration so that it starts `codeanchor serve`: for this "
        "repository (its project file), or with --user for every repository it opens. "
        "Other servers in the file are kept. See docs/clients.md."
    )
    parser.add_argument("client", choices=sorted(CLIENTS), metavar="CLIENT", help="/".join(CLIENTS))
    parser.add_argument(
        "--user", action="store_true", help="user-wide (the client's own file), not this repository"
    )
    parser.add_argument(
        "--dry-run", action="store_true", help="print the file and the entry; write nothing"
    )
    parser.add_argument(
        "--name", default="codeanchor", help="the server's name in the client (default codeanchor)"
    )
    parser.add_argument(
        "--force", action="store_true", help="replace an entry of that name serving something else"
    )
    parser.set_defaults(handler=run, root_guard=False)  # a user-wide entry needs no repository


def run(args: argparse.Namespace) -> int:
    """Write (or print) the entry; exit 2, nothing written, when it cannot be merged."""
    client: Client = CLIENTS[args.client]
    if not NAME.fullmatch(args.name):
        raise BadInputError(f"--name {args.name!r}: use letters, digits, '-' and '_' only")
    scope = client.scope(args.user)
    needs_repository = scope == "project" or client.needs_root
    root = choose_root(args.root_option) if needs_repository else args.root
    path = client.file(scope, root)
    entry = client.entry(codeanchor_command(), scope, root)
    text = _read(path)
    merge = merge_toml if client.file_format == "toml" else merge_json
    merged, change = merge(text, client.key, args.name, entry, force=args.force, where=str(path))
    if not args.dry_run and change != "unchanged":
        _write(path, merged)
    if args.json:
        print_json(
            {
                "client": client.name,
                "scope": scope,
                "file": str(path),
                "name": args.name,
                "entry": entry,
                "change": change,
                "written": not args.dry_run and change != "unchanged",
            }
        )
    else:
        _report(client, path, args.name, entry, change, dry_run=args.dry_run)
    return 0


def codeanchor_command() -> list[str]:
    """How a client starts this install of codeanchor: the absolute path of the
    `codeanchor` executable that runs now (a uv/pipx link stays a link, so an upgrade
    keeps working), else the one on PATH, else this Python running the package."""
    invoked = Path(sys.argv[0])
    if invoked.name == "codeanchor" and os.access(invoked, os.X_OK):
        return [str(invoked.absolute())]
    found = shutil.which("codeanchor")
    if found is not None:
        return [str(Path(found).absolute())]
    return [sys.executable, "-m", "bridge.cli"]


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInputError(f"{path} cannot be read ({exc}); nothing written") from exc


def _write(path: Path, text: str) -> None:
    """Replace `path` with `text` at once (a reader sees the old file or the new),
    keeping its permissions."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = path.stat().st_mode & 0o777 if path.exists() else 0o644
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _report(
    client: Client, path: Path, name: str, entry: dict[str, Any], change: Change, *, dry_run: bool
) -> None:
    if client.file_format == "toml":
        snippet = toml_table(f"{client.key}.{name}", entry)
    else:
        import json

        snippet = json.dumps({client.key: {name: entry}}, indent=2) + "\n"
    if dry_run:
        print(f"# {client.title}: would merge into {path} (nothing written)")
        sys.stdout.write(snippet)
        return
    done = {
        "added": f"added {name!r} to",
        "updated": f"updated {name!r} in",
        "unchanged": f"{name!r} is already set up in",
    }[change]
    print(f"{client.title}: {done} {path}")
    sys.stdout.write(snippet)
    print(f"next: {client.next_step}")
