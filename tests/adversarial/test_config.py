"""An untrusted repository's configuration runs no program until the user trusts it.

Each repository here carries a configuration whose server command would
`touch` a marker file outside the root before starting ty. Without
`codeanchor trust` the marker never appears (CLI, `serve`, `doctor`), the
built-in ty answers, and the first answer says what was ignored; after trust
the configured command runs, and an edit or `--revoke` takes that back.
The CLI runs as a subprocess and `serve` through a real MCP stdio client, with
CODEANCHOR_CONFIG_HOME in a temporary directory.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
import pytest

from tests.adversarial.cli import CLI_TIMEOUT_S, Done, cli
from tests.adversarial.conftest import SCENARIO_TIMEOUT_S
from tests.bridge.mcp_session import call, example_repo, serve
from tests.conftest import require_binary

LIMITER = "shop/middleware/rate_limit.py"
ALLOW = f"{LIMITER}#RateLimiter.allow"


@dataclass(frozen=True)
class Repo:
    """A repository with a hostile configuration, and the marker its command would touch."""

    root: Path
    marker: Path
    home: Path
    ty: Path

    def server(self) -> str:
        """The keys of a server table whose command touches the marker, then runs ty
        (and whose version check, run before a server starts, passes)."""
        script = f"touch {self.marker}; exec {self.ty} server"
        return f'command = ["sh", "-c", "{script}"]\nversion_args = ["-c", "echo 1"]\n'

    def cli(self, *args: str) -> Done:
        """`codeanchor ARGS --root ROOT` in its own process, with this user config dir."""
        return cli(self.root, *args, env={"CODEANCHOR_CONFIG_HOME": str(self.home)})

    def answer(self, *args: str) -> dict[str, Any]:
        """The document of a successful `--json` command."""
        done = self.cli(*args, "--json")
        assert done.code == 0, done.err
        document: dict[str, Any] = done.json()
        return document


def _own_toml(repo: Repo) -> Path:
    path = repo.root / "codeanchor.toml"
    path.write_text(f"watch = false\n[server.ty]\n{repo.server()}")
    return path


def _pyproject(repo: Repo) -> Path:
    (repo.root / "codeanchor.toml").unlink()
    path = repo.root / "pyproject.toml"
    with path.open("a") as out:
        out.write(f"\n[tool.codeanchor.server.ty]\n{repo.server()}")
    return path


def _new_server(repo: Repo) -> Path:
    path = repo.root / "codeanchor.toml"
    path.write_text(
        'watch = false\nservers = { python = "evil" }\n[server.evil]\n'
        f'languages = ["python"]\nextensions = [".py"]\n{repo.server()}'
    )
    return path


HOSTILE: dict[str, Callable[[Repo], Path]] = {
    "codeanchor.toml sets ty's command": _own_toml,
    "pyproject.toml sets ty's command": _pyproject,
    "codeanchor.toml adds a server and selects it": _new_server,
}


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Repo:
    ty = require_binary("ty")
    home = tmp_path / "user-config"
    monkeypatch.setenv("CODEANCHOR_CONFIG_HOME", str(home))  # reaches `serve` too
    return Repo(example_repo(tmp_path, watch=False), tmp_path / "owned", home, ty)


def _trust_warnings(envelope: dict[str, Any]) -> list[str]:
    return [w for w in envelope["warnings"] if "codeanchor trust" in w]


def _run(scenario: Callable[[], Awaitable[None]]) -> None:
    async def bounded() -> None:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S):
            await scenario()

    asyncio.run(bounded())


# ------------------------------------------------------------ the CLI


@pytest.mark.parametrize("hostile", list(HOSTILE), ids=list(HOSTILE))
def test_an_untrusted_server_command_does_not_run_from_the_cli(repo: Repo, hostile: str) -> None:
    source = HOSTILE[hostile](repo)
    answer = repo.answer("resolve", ALLOW)
    assert not repo.marker.exists()
    assert answer["data"]["verified"] is True  # the built-in ty answered
    [warning] = _trust_warnings(answer)
    assert str(source) in warning and "[server." in warning
    assert f"codeanchor trust --root {repo.root}" in warning
    assert answer["warnings"].count(warning) == 1


def test_an_untrusted_command_does_not_run_from_nav(repo: Repo) -> None:
    _new_server(repo)
    answer = repo.answer("nav", "def", ALLOW)
    assert not repo.marker.exists()
    assert answer["data"]["count"] == 1
    assert len(_trust_warnings(answer)) == 1


def test_a_failed_first_answer_still_says_the_configuration_was_ignored(repo: Repo) -> None:
    (repo.root / "Main.java").write_text("class Main {}\n")
    (repo.root / "codeanchor.toml").write_text(
        f'[server.jdtls]\nlanguages = ["java"]\nextensions = [".java"]\n{repo.server()}'
    )
    done = repo.cli("nav", "def", "Main.java:1", "--name", "Main", "--json")
    assert done.code == 1 and not repo.marker.exists()  # the untrusted server never ran
    assert "[server.jdtls]" in done.err and "codeanchor trust --root" in done.err
    assert done.json()["error"]["code"] == "no_server"  # Java has no server of ours


def test_trust_runs_the_command_until_the_configuration_changes(repo: Repo) -> None:
    source = _own_toml(repo)
    status = repo.cli("trust", "--status", "--json")
    assert status.code == 1
    assert status.json()["trusted"] is False

    granted = repo.answer("trust")
    assert granted["action"] == "granted" and granted["trusted"] is True
    [server] = granted["servers"]
    assert server["name"] == "ty" and server["command"][:2] == ["sh", "-c"]
    assert server["runsRepositoryFile"] is False
    assert str(repo.marker) in server["command"][2]
    assert repo.cli("trust", "--status").code == 0

    answer = repo.answer("resolve", ALLOW)
    assert repo.marker.exists()
    assert _trust_warnings(answer) == []

    edited = repo.marker.with_name("owned-after-edit")
    source.write_text(source.read_text().replace(str(repo.marker), str(edited)))
    answer = repo.answer("resolve", ALLOW)
    assert not edited.exists()
    assert len(_trust_warnings(answer)) == 1
    assert repo.cli("trust", "--status").code == 1

    repo.answer("trust")
    repo.answer("resolve", ALLOW)
    assert edited.exists()


def test_trust_says_when_a_command_runs_a_file_of_the_repository(repo: Repo) -> None:
    (repo.root / "codeanchor.toml").write_text('[server.ty]\ncommand = ["./tools/lsp.sh"]\n')
    [server] = repo.cli("trust", "--status", "--json").json()["servers"]
    assert server["runsRepositoryFile"] is True
    done = repo.cli("trust")
    assert done.code == 0 and "a file in the repository" in done.out


def test_revoke_stops_the_command_again(repo: Repo) -> None:
    _own_toml(repo)
    repo.answer("trust")
    assert repo.answer("trust", "--revoke")["action"] == "revoked"
    answer = repo.answer("resolve", ALLOW)
    assert not repo.marker.exists()
    assert len(_trust_warnings(answer)) == 1
    assert repo.answer("trust", "--revoke")["action"] == "nothing_was_trusted"


def test_trust_is_kept_outside_the_root_for_its_real_path(repo: Repo, tmp_path: Path) -> None:
    _own_toml(repo)
    link = tmp_path / "link-to-repo"
    link.symlink_to(repo.root)
    via_link = Repo(link, repo.marker, repo.home, repo.ty)
    assert via_link.answer("trust")["root"] == str(repo.root)
    assert (repo.home / "trust.json").is_file()
    assert not any(p.name == "trust.json" for p in repo.root.rglob("*"))
    assert repo.cli("trust", "--status").code == 0
    elsewhere = tmp_path / "copy"
    subprocess.run(["cp", "-a", str(repo.root), str(elsewhere)], check=True)
    assert Repo(elsewhere, repo.marker, repo.home, repo.ty).cli("trust", "--status").code == 1


def test_settings_that_run_nothing_apply_untrusted(repo: Repo) -> None:
    (repo.root / "codeanchor.toml").write_text(
        "watch = false\nbudget_tokens = 200\n"
        '[map]\nexclude = ["shop/middleware/**"]\n'
        f"[server.ty]\n{repo.server()}"
    )
    answer = repo.answer("map", "search", "*")
    assert answer["truncated"] is not None and answer["truncated"]["budgetTokens"] == 200
    assert len(_trust_warnings(answer)) == 1
    assert repo.answer("map", "search", "RateLimiter")["data"]["hits"] == []  # excluded


def test_a_snapshot_folder_outside_the_root_needs_trust(repo: Repo, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (repo.root / "codeanchor.toml").write_text(f"[map]\nsnapshot_dir = {str(elsewhere)!r}\n")
    built = repo.cli("map", "build", "--json")
    assert built.code == 0 and built.json()["data"]["files"] > 0
    [untrusted] = _trust_warnings(built.json())  # in the envelope, as map status says it
    assert "map.snapshot_dir" in untrusted and "codeanchor trust --root" in untrusted
    assert not elsewhere.exists() and (repo.root / ".codeanchor" / "map.sqlite").is_file()
    [warning] = _trust_warnings(repo.answer("map", "status"))
    assert "map.snapshot_dir" in warning
    repo.answer("trust")
    assert _trust_warnings(repo.answer("map", "status")) == []
    assert (elsewhere / "map.sqlite").is_file()


def test_choosing_a_builtin_server_needs_no_trust(repo: Repo) -> None:
    (repo.root / "codeanchor.toml").write_text('watch = false\nservers = { python = "pyright" }\n')
    status = repo.answer("trust", "--status")
    assert status["needsTrust"] is False and status["choices"] == {"python": "pyright"}
    doctor = repo.cli("doctor", "--json").json()
    chosen = {s["name"]: s["chosenFor"] for s in doctor["servers"]}
    assert "python" in chosen["pyright"] and "python" not in chosen["ty"]
    assert doctor["config"]["needsTrust"] is False


def test_doctor_says_the_configuration_is_untrusted_and_runs_none_of_it(repo: Repo) -> None:
    source = repo.root / "codeanchor.toml"
    source.write_text(  # doctor runs each server's version check
        f'[server.evil]\ncommand = ["sh"]\nversion_args = ["-c", "touch {repo.marker}"]\n'
        'languages = ["python"]\nextensions = [".py"]\n'
    )
    document = repo.cli("doctor", "--json").json()
    assert not repo.marker.exists()
    assert document["config"]["trusted"] is False
    assert document["config"]["source"] == str(source)
    assert "evil" not in {s["name"] for s in document["servers"]}
    text = repo.cli("doctor").out
    assert "NOT trusted" in text and "codeanchor trust" in text


def test_a_corrupt_trust_file_trusts_nothing_and_says_so(repo: Repo) -> None:
    _own_toml(repo)
    repo.home.mkdir()
    (repo.home / "trust.json").write_bytes(b"\x00{not json")
    answer = repo.answer("resolve", ALLOW)
    assert not repo.marker.exists()
    [warning] = _trust_warnings(answer)
    assert "unreadable trust file" in warning
    assert str(repo.home / "trust.json") in repo.cli("trust").refused()


def test_concurrent_grants_for_different_roots_all_stick(repo: Repo, tmp_path: Path) -> None:
    roots = []
    for index in range(6):
        root = tmp_path / f"r{index}"
        root.mkdir()
        (root / "codeanchor.toml").write_text(f"[server.ty]\n{repo.server()}")
        roots.append(root)
    env = {**os.environ, "CODEANCHOR_CONFIG_HOME": str(repo.home)}
    running = [
        subprocess.Popen(
            [sys.executable, "-m", "bridge.cli", "trust", "--root", str(root)],
            env=env,
            stdout=subprocess.DEVNULL,
        )
        for root in roots
    ]
    assert [p.wait(timeout=CLI_TIMEOUT_S) for p in running] == [0] * len(roots)
    kept = orjson.loads((repo.home / "trust.json").read_bytes())["roots"]
    assert set(kept) == {str(root) for root in roots}
    assert [p.name for p in repo.home.iterdir() if p.name.endswith(".tmp")] == []


# ------------------------------------------------------------ serve (MCP)


def test_serve_ignores_an_untrusted_command_and_says_so_once(repo: Repo) -> None:
    source = _own_toml(repo)

    async def scenario() -> None:
        async with serve(repo.root) as client:
            first = await call(client, "resolve", target=ALLOW)
            second = await call(client, "nav_definition", target=ALLOW)
            third = await call(client, "map_search", query="Cart")
        assert first["data"]["verified"] is True
        [warning] = _trust_warnings(first)
        assert str(source) in warning
        assert _trust_warnings(second) == [] and _trust_warnings(third) == []

    _run(scenario)
    assert not repo.marker.exists()


def test_serve_runs_a_trusted_command(repo: Repo) -> None:
    _new_server(repo)
    repo.answer("trust")

    async def scenario() -> None:
        async with serve(repo.root) as client:
            answer = await call(client, "nav_definition", target=ALLOW)
        assert answer["data"]["count"] == 1
        assert _trust_warnings(answer) == []

    _run(scenario)
    assert repo.marker.exists()
