"""Where codeanchor keeps the language servers it installs: the user's data folder.

    $CODEANCHOR_DATA_DIR, else $XDG_DATA_HOME/codeanchor, else ~/.local/share/codeanchor
    └── servers/NAME/              one npm prefix per server (`codeanchor servers install`)
        ├── node_modules/.bin/     the executables `lsp.locate.locate` searches
        └── installed.json         the packages installed, as the catalog pinned them

Outside every repository and every install of codeanchor, so a server installed
once serves every repository, whichever way codeanchor itself was installed.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_DIR_ENV = "CODEANCHOR_DATA_DIR"
STAMP = "installed.json"


def data_dir() -> Path:
    """codeanchor's folder in the user's data folder (XDG base directories)."""
    explicit = os.environ.get(DATA_DIR_ENV)
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".local" / "share"
    return base / "codeanchor"


def servers_dir() -> Path:
    """The folder holding one npm prefix per installed server."""
    return data_dir() / "servers"


def server_folder(name: str) -> Path:
    """Where server `name` is (or would be) installed."""
    return servers_dir() / name


def installed_bins() -> tuple[Path, ...]:
    """The executables folder of every server installed here, by server name."""
    try:
        folders = sorted(servers_dir().iterdir())
    except OSError:
        return ()
    done = (f for f in folders if not f.name.startswith(".") and (f / STAMP).is_file())
    return tuple(folder / "node_modules" / ".bin" for folder in done)  # not one being installed
