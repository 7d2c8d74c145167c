"""`codeanchor setup CLIENT`: each client's file gets the entry, and keeps everything else.

Every client runs against fixture configuration files already holding other
servers and settings, in a private HOME; the command runs in-process from a
subfolder of a scratch repository.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bridge.cli.main import main
from bridge.cli.setup import codeanchor_command
from tests.adversarial.cli import Done
from tests.conftest import write_tree
from tests.gitrepo import commit_all

OTHER = {"command": "npx", "args": ["-y", "other-mcp"], "env": {"TOKEN": "x"}}
CODEX_FIXTURE = """\
# my Codex settings
model = "gpt-5"

[mcp_servers.other]
command = "npx"
args = ["-y", "other-mcp"]

[mcp_servers.other.env]
TOKEN = "x"  # kept as written

[profiles.fast]
model = "small"
"""


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for name in ("XDG_CONFIG_HOME", "CODEX_HOME", "APPDATA"):
        monkeypatch.delenv(name, raising=False)
    return folder


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = write_tree(tmp_path / "shop", {"app/main.py": "def run():\n    return 1\n"})
    commit_all(root, "first")
    return root.resolve()


LAUNCHER = codeanchor_command()[1:]
"""What starts codeanchor after the command: nothing for the `codeanchor` executable,
`-m bridge.cli` for a Python running the package (when none is on PATH)."""


def setup(capsys: pytest.CaptureFixture[str], cwd: Path, *args: str) -> Done:
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        code = main(["setup", *args])
    captured = capsys.readouterr()
    return Done(code, captured.out, captured.err)


# client -> (its file for this repository or user-wide, the key of its servers)
JSON_CLIENTS: dict[str, tuple[str, str]] = {
    "claude-code": ("REPO/.mcp.json", "mcpServers"),
    "claude-desktop": ("HOME/.config/Claude/claude_desktop_config.json", "mcpServers"),
    "cursor": ("REPO/.cursor/mcp.json", "mcpServers"),
    "vscode": ("REPO/.vscode/mcp.json", "servers"),
    "windsurf": ("HOME/.codeium/windsurf/mcp_config.json", "mcpServers"),
}


def _file(template: str, repo: Path, home: Path) -> Path:
    return Path(template.replace("REPO", str(repo)).replace("HOME", str(home)))


def _ours(repo: Path, **extra: Any) -> dict[str, Any]:
    return {
        **extra,
        "command": codeanchor_command()[0],
        "args": [*LAUNCHER, "serve", "--root", str(repo)],
    }


@pytest.mark.parametrize("client", sorted(JSON_CLIENTS))
def test_a_json_client_file_gets_the_entry_and_keeps_the_rest(
    client: str, repo: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template, key = JSON_CLIENTS[client]
    path = _file(template, repo, home)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"theme": "dark", key: {"other": OTHER}}))

    done = setup(capsys, repo / "app", client)
    assert done.code == 0, done.err
    written = json.loads(path.read_text())
    stdio = {"type": "stdio"} if client in ("claude-code", "vscode") else {}
    assert written == {"theme": "dark", key: {"other": OTHER, "codeanchor": _ours(repo, **stdio)}}
    assert str(path) in done.out

    again = setup(capsys, repo, client)
    assert again.code == 0 and "already set up" in again.out
    assert json.loads(path.read_text()) == written


@pytest.mark.parametrize("client", sorted(JSON_CLIENTS))
def test_a_dry_run_prints_the_entry_and_writes_nothing(
    client: str, repo: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    template, key = JSON_CLIENTS[client]
    done = setup(capsys, repo, client, "--dry-run")
    assert done.code == 0, done.err
    assert not _file(template, repo, home).exists()
    assert "nothing written" in done.out
    printed = json.loads(done.out.split("\n", 1)[1])
    assert printed[key]["codeanchor"]["args"] == [*LAUNCHER, "serve", "--root", str(repo)]


def test_codex_toml_keeps_comments_tables_and_other_servers(
    repo: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = home / ".codex" / "config.toml"
    path.parent.mkdir()
    path.write_text(CODEX_FIXTURE)
    done = setup(capsys, repo, "codex", "--user")
    assert done.code == 0, done.err
    text = path.read_text()
    assert text.startswith(CODEX_FIXTURE.rstrip())  # every line as written, comments too
    document = tomllib.loads(text)
    assert document["mcp_servers"]["codeanchor"] == {
        "command": codeanchor_command()[0],
        "args": [*LAUNCHER, "serve"],  # Codex starts it where it works
    }
    assert document["mcp_servers"]["other"]["env"] == {"TOKEN": "x"}
    assert document["profiles"] == {"fast": {"model": "small"}}


def test_codex_replaces_its_own_table_in_place(
    repo: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = repo / ".codex" / "config.toml"
    path.parent.mkdir()
    old = '[mcp_servers.codeanchor]\ncommand = "/old/bin/codeanchor"\nargs = ["serve"]\n\n'
    path.write_text(old + CODEX_FIXTURE.split("\n", 3)[3])
    done = setup(capsys, repo, "codex", "--force")
    assert done.code == 0, done.err
    document = tomllib.loads(path.read_text())
    assert document["mcp_servers"]["codeanchor"] == _ours(repo)
    assert set(document["mcp_servers"]) == {"codeanchor", "other"}
    assert path.read_text().index("codeanchor") < path.read_text().index("other")


def test_an_entry_serving_another_repository_is_not_replaced(
    repo: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = home / ".config" / "Claude" / "claude_desktop_config.json"
    path.parent.mkdir(parents=True)
    theirs = {"command": "/x/codeanchor", "args": ["serve", "--root", "/elsewhere"]}
    path.write_text(json.dumps({"mcpServers": {"codeanchor": theirs}}))
    before = path.read_text()

    refused = setup(capsys, repo, "claude-desktop")
    message = refused.refused()
    assert "--name" in message and "--force" in message
    assert path.read_text() == before

    named = setup(capsys, repo, "claude-desktop", "--name", "codeanchor-shop")
    assert named.code == 0, named.err
    servers = json.loads(path.read_text())["mcpServers"]
    assert servers["codeanchor"] == theirs
    assert servers["codeanchor-shop"] == _ours(repo)


def test_a_json_file_with_comments_is_refused_untouched(
    repo: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = repo / ".vscode" / "mcp.json"
    path.parent.mkdir()
    path.write_text('{\n  // my servers\n  "servers": {}\n}\n')
    before = path.read_text()
    assert "not plain JSON" in setup(capsys, repo, "vscode").refused()
    assert path.read_text() == before


def test_user_wide_entries_follow_the_clients_workspace(
    repo: Path, home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    claude = home / ".claude.json"
    claude.write_text(json.dumps({"projects": {"/p": {"mcpServers": {}}}, "numStartups": 3}))
    assert setup(capsys, repo, "claude-code", "--user").code == 0
    written = json.loads(claude.read_text())
    assert written["projects"] == {"/p": {"mcpServers": {}}} and written["numStartups"] == 3
    assert written["mcpServers"]["codeanchor"]["args"] == [*LAUNCHER, "serve"]

    assert setup(capsys, home, "vscode", "--user").code == 0  # no repository needed
    vscode = json.loads((home / ".config" / "Code" / "User" / "mcp.json").read_text())
    assert vscode["servers"]["codeanchor"]["args"] == [
        *LAUNCHER,
        "serve",
        "--root",
        "${workspaceFolder}",
    ]


def test_a_repository_entry_from_the_home_directory_is_refused(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "--root" in setup(capsys, home, "cursor").refused()
    assert not (home / ".cursor").exists()
