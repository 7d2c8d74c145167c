"""The MCP clients `codeanchor setup` configures: where each keeps its servers, and how.

| client         | this repository      | user-wide                          | key          |
|----------------|----------------------|------------------------------------|--------------|
| claude-code    | .mcp.json            | ~/.claude.json                     | mcpServers   |
| claude-desktop | (none)               | Claude/claude_desktop_config.json  | mcpServers   |
| cursor         | .cursor/mcp.json     | ~/.cursor/mcp.json                 | mcpServers   |
| vscode         | .vscode/mcp.json     | Code/User/mcp.json                 | servers      |
| windsurf       | (none)               | ~/.codeium/windsurf/mcp_config.json| mcpServers   |
| codex          | .codex/config.toml   | ~/.codex/config.toml ($CODEX_HOME) | mcp_servers  |

A user-wide entry serves whichever repository the client works in: Claude Code
and Codex start servers in the folder they were started in (the root is then
its git top-level); VS Code and Cursor expand `${workspaceFolder}`. Claude
Desktop (which starts servers in `/`) and Windsurf have no repository of their
own, so their entry always names this repository's root.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

Scope = Literal["project", "user"]


@dataclass(frozen=True, slots=True)
class Client:
    """One MCP client's configuration file format."""

    name: str
    title: str
    key: str
    """The table of servers in its file (`mcpServers`, `servers`, `mcp_servers`)."""
    user_file: Callable[[], Path]
    project_file: str | None = None
    """Relative to the repository root; None: the client has no per-repository file."""
    file_format: Literal["json", "toml"] = "json"
    stdio_type: bool = False
    """Its entries say `"type": "stdio"`."""
    workspace_root: str | None = None
    """What a user-wide entry passes as `--root`: a variable the client expands to the
    folder it works in; None: nothing (it starts servers in that folder), unless
    `needs_root`."""
    needs_root: bool = False
    """Its servers start in no repository: every entry names this one's root."""
    next_step: str = ""
    """What the user does after the file is written."""

    def scope(self, user: bool) -> Scope:
        """Where the entry goes: `user` asks for user-wide; a client without a
        per-repository file has only that."""
        return "user" if user or self.project_file is None else "project"

    def file(self, scope: Scope, root: Path) -> Path:
        """The configuration file for `scope` (`root`: the repository's)."""
        if scope == "project" and self.project_file is not None:
            return root / self.project_file
        return self.user_file()

    def entry(self, command: list[str], scope: Scope, root: Path) -> dict[str, Any]:
        """The server entry: `command` (the codeanchor executable and any arguments
        before `serve`), then `serve` and the root as this client needs it."""
        args = [*command[1:], "serve"]
        if scope == "project" or self.needs_root:
            args += ["--root", str(root)]
        elif self.workspace_root is not None:
            args += ["--root", self.workspace_root]
        entry: dict[str, Any] = {"type": "stdio"} if self.stdio_type else {}
        return {**entry, "command": command[0], "args": args}


def _home() -> Path:
    return Path.home()


def _config_home() -> Path:
    """Where desktop applications keep their settings on this system."""
    if sys.platform == "darwin":
        return _home() / "Library" / "Application Support"
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA") or _home() / "AppData" / "Roaming")
    return Path(os.environ.get("XDG_CONFIG_HOME") or _home() / ".config")


def _codex_home() -> Path:
    return Path(os.environ.get("CODEX_HOME") or _home() / ".codex")


CLIENTS: dict[str, Client] = {
    client.name: client
    for client in (
        Client(
            "claude-code",
            "Claude Code",
            "mcpServers",
            lambda: _home() / ".claude.json",
            project_file=".mcp.json",
            stdio_type=True,
            next_step="start `claude` in the repository; it asks once to approve a "
            "project's .mcp.json servers (`/mcp` lists them)",
        ),
        Client(
            "claude-desktop",
            "Claude Desktop",
            "mcpServers",
            lambda: _config_home() / "Claude" / "claude_desktop_config.json",
            needs_root=True,
            next_step="quit Claude Desktop completely and start it again",
        ),
        Client(
            "cursor",
            "Cursor",
            "mcpServers",
            lambda: _home() / ".cursor" / "mcp.json",
            project_file=".cursor/mcp.json",
            workspace_root="${workspaceFolder}",
            next_step="enable it in Cursor Settings > MCP (or reload the window)",
        ),
        Client(
            "vscode",
            "VS Code",
            "servers",
            lambda: _config_home() / "Code" / "User" / "mcp.json",
            project_file=".vscode/mcp.json",
            stdio_type=True,
            workspace_root="${workspaceFolder}",
            next_step="run `MCP: List Servers` in VS Code and start it (agent mode)",
        ),
        Client(
            "windsurf",
            "Windsurf",
            "mcpServers",
            lambda: _home() / ".codeium" / "windsurf" / "mcp_config.json",
            needs_root=True,
            next_step="press refresh in Windsurf's MCP panel (Cascade)",
        ),
        Client(
            "codex",
            "Codex",
            "mcp_servers",
            lambda: _codex_home() / "config.toml",
            project_file=".codex/config.toml",
            file_format="toml",
            next_step="start `codex` in the repository (a project's .codex/config.toml is "
            "read once the project is trusted); `/mcp` lists the servers",
        ),
    )
}
"""Every client `codeanchor setup` knows, by name."""
