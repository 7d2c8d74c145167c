"""The tools' words in command-line syntax.

The tools speak to agents over MCP: their messages and hints name tools
(`map_outline`) and arguments (`verify=true`). On the command line the same
text names commands (`codeanchor map show`) and options (`--verify`):
`for_cli` rewrites it at the edge, so each message is written once.
"""

from __future__ import annotations

import re

COMMANDS = {
    "map_overview": "map overview",
    "map_status": "map status",
    "map_rebuild": "map build",
    "map_search": "map search",
    "map_outline": "map show",
    "map_neighbors": "map callers|callees",
    "map_path": "map path",
    "map_impact": "map impact",
    "map_changes": "map changes",
    "nav_definition": "nav def",
    "nav_type_definition": "nav type-def",
    "nav_implementations": "nav impl",
    "nav_references": "nav refs",
    "nav_hover": "nav hover",
    "nav_symbols": "nav symbols",
    "nav_workspace_symbols": "nav workspace-symbols",
    "nav_callers": "nav callers",
    "nav_callees": "nav callees",
    "nav_diagnostics": "nav diagnostics",
    "nav_rename": "nav rename",
    "memory_save": "memory add",
    "memory_recall": "memory recall",
    "memory_check": "memory check",
    "memory_verify": "memory verify",
    "memory_supersede": "memory supersede",
    "memory_retire": "memory retire",
}
"""Each tool that has a command, and the command (after `codeanchor`)."""

OPTIONS = {
    "verify=true": "--verify",
    "`verify: true`": "--verify",
    "apply=true": "--apply",
    "`apply`": "--apply",
    "`include_stale`": "--include-stale",
    "include_stale (--include-stale)": "--include-stale",
    "`language`": "--language",
    "`hashes`": "--hash PATH=HASH",
    "a larger budget": "a larger --budget",
}
"""Arguments as tools' messages write them, and the option that says the same."""

_TOOL = re.compile(
    r"(?<![\w#./-])`?(" + "|".join(sorted(COMMANDS, key=len, reverse=True)) + r")`?(?![\w/#-]|\.\w)"
)
_OPTION = re.compile("|".join(re.escape(o) for o in sorted(OPTIONS, key=len, reverse=True)))


def for_cli(text: str) -> str:
    """`text` with tool names as `codeanchor` commands and arguments as options; a node
    ID or a path that holds a tool's name (`src/map_status.py#map_status`) is kept."""
    text = _TOOL.sub(lambda m: f"`codeanchor {COMMANDS[m.group(1)]}`", text)
    return _OPTION.sub(lambda m: OPTIONS[m.group(0)], text)
