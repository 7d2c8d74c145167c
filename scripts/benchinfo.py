"""What a benchmark report says about the code it measured."""

from __future__ import annotations

import subprocess
from pathlib import Path

import bridge


def code_commit(code: Path | None = None) -> str:
    """The commit of the code being measured (this checkout's, or `code`'s), with
    `+dirty` when the tree has edits; the folder's name when that code is no git
    checkout (an exported commit)."""
    code = code or Path(bridge.__file__).resolve().parents[1]
    if not (code / ".git").exists():
        return f"{code.name} (exported)"
    git = ["git", "-C", str(code)]
    head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(
        [*git, "status", "--porcelain", "--untracked-files=no"], capture_output=True, text=True
    )
    return head.stdout.strip() + ("+dirty" if dirty.stdout.strip() else "")
