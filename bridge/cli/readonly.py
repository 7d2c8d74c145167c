"""Which commands only read: they never create `.codeanchor/` in the root.

A read-only command asked before any `map build` still answers: the map it
needs is built in a temporary folder (see `bridge.context.AppContext`).
"""

from __future__ import annotations

import argparse

_READ_ONLY: dict[str, frozenset[str] | None] = {
    "nav": None,  # every question
    "resolve": None,
    "doctor": None,
    "map": frozenset(
        {"status", "show", "search", "callers", "callees", "impact", "changes", "path", "overview"}
    ),
    "memory": frozenset({"list", "show", "recall", "check", "export"}),
}
"""Command -> its read-only actions (None: all of them)."""


def is_read_only(args: argparse.Namespace) -> bool:
    """Whether the parsed command line `args` names a command that only reads."""
    command = getattr(args, "command", None)
    if command not in _READ_ONLY:
        return False
    actions = _READ_ONLY[command]
    return actions is None or getattr(args, f"{command}_command", None) in actions
