"""codeanchor as a user installs it: built, installed into a fresh virtual environment
outside the checkout, and answering live with nothing else set up.

Slow (minutes: the build and the install fetch from PyPI), and run by CI like every
other test. The checkout's files are copied first (as a git URL would give them), so
the build writes nothing into the checkout; the installed command runs with a new
HOME and with nothing of the checkout on PATH or PYTHONPATH.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from mcp import Client, StdioServerParameters

from tests.conftest import write_tree
from tests.gitrepo import commit_all, copy_checkout

REPO = Path(__file__).resolve().parents[1]
VERSION = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
STEP_TIMEOUT_S = 600.0
TINY = {
    "pkg/__init__.py": "",
    "pkg/core.py": "def helper():\n    return 1\n",
    "main.py": "from pkg.core import helper\n\nprint(helper())\n",
}

pytestmark = [pytest.mark.install, pytest.mark.timeout(1800)]


def _run(command: list[str], cwd: Path, env: dict[str, str], exits: tuple[int, ...] = (0,)) -> str:
    done = subprocess.run(
        command,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode in exits, f"{command} exited {done.returncode}:\n{done.stderr[-4000:]}"
    return done.stdout


def _user_env(tmp: Path, venv: Path) -> dict[str, str]:
    """A new user's environment: its own HOME, the new install first on PATH, nothing
    of the checkout anywhere (no PYTHONPATH, no .venv or .tools on PATH)."""
    home = tmp / "home"
    home.mkdir()
    ours = {str(REPO / ".venv" / "bin"), str(REPO / ".tools" / "node" / "node_modules" / ".bin")}
    path = [d for d in os.environ.get("PATH", os.defpath).split(os.pathsep) if d not in ours]
    keep = {
        k: v for k, v in os.environ.items() if k in ("LANG", "LC_ALL", "TMPDIR", "PIP_INDEX_URL")
    }
    return {**keep, "HOME": str(home), "PATH": os.pathsep.join([str(venv / "bin"), *path])}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], Path]:
    """(the installed `codeanchor`, a user's environment, the folder of the built files)."""
    tmp = tmp_path_factory.mktemp("install")
    source = copy_checkout(REPO, tmp / "src")
    dist = tmp / "dist"
    venv = tmp / "venv"
    env = _user_env(tmp, venv)
    build_env = {**env, "PATH": os.environ.get("PATH", os.defpath)}
    _run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)], tmp, build_env)
    _run([sys.executable, "-m", "venv", str(venv)], tmp, env)
    [wheel] = dist.glob("*.whl")
    _run([str(venv / "bin" / "pip"), "install", "-q", str(wheel)], tmp, env)
    return venv / "bin" / "codeanchor", env, dist


def test_the_wheel_and_sdist_carry_the_metadata_and_the_queries(
    installed: tuple[Path, dict[str, str], Path],
) -> None:
    _, _, dist = installed
    [wheel] = dist.glob(f"codeanchor-{VERSION}-*.whl")
    [sdist] = dist.glob(f"codeanchor-{VERSION}.tar.gz")
    names = zipfile.ZipFile(wheel).namelist()
    queries = sorted(n for n in names if n.endswith(".scm"))
    expected = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "map").rglob("*.scm"))
    assert queries == expected and queries
    metadata = zipfile.ZipFile(wheel).read(f"codeanchor-{VERSION}.dist-info/METADATA").decode()
    for field in ("License-Expression: MIT", "Requires-Python: >=3.11", "Classifier: "):
        assert field in metadata
    assert "Requires-Dist: ty==" in metadata  # live Python answers with no extra
    with tarfile.open(sdist) as archive:
        members = {m.name.split("/", 1)[1] for m in archive.getmembers() if "/" in m.name}
    assert {"LICENSE", "README.md", "pyproject.toml", *expected} <= members


def test_the_installed_command_answers_live_from_any_folder(
    installed: tuple[Path, dict[str, str], Path], tmp_path: Path
) -> None:
    codeanchor, env, _ = installed
    assert _run([str(codeanchor), "--version"], tmp_path, env) == f"codeanchor {VERSION}\n"
    repo = write_tree(tmp_path / "tiny", TINY)
    commit_all(repo, "tiny")
    out = _run(
        [str(codeanchor), "nav", "def", "main.py:3", "--name", "helper", "--json"],
        repo / "pkg",  # from a subfolder: the root is the repository
        env,
    )
    data = json.loads(out)["data"]
    assert [loc["path"] for loc in data["locations"]] == ["pkg/core.py"]
    assert data["completeness"] == "complete"
    # exit 1: servers a fresh install has not got (TypeScript, ...) are missing
    doctor = json.loads(_run([str(codeanchor), "doctor", "--json"], repo, env, exits=(0, 1)))
    [ty] = [s for s in doctor["servers"] if s["name"] == "ty"]
    assert ty["found"] and Path(ty["path"]).parent == codeanchor.parent
    assert not (repo / ".codeanchor").exists()  # nothing but read-only commands ran


def test_the_installed_server_tells_a_client_its_version(
    installed: tuple[Path, dict[str, str], Path], tmp_path: Path
) -> None:
    codeanchor, env, _ = installed
    repo = write_tree(tmp_path / "tiny", TINY)
    commit_all(repo, "tiny")

    async def server_info() -> tuple[str, str]:
        params = StdioServerParameters(
            command=str(codeanchor), args=["serve", "--root", str(repo)], env=env
        )
        async with Client(params, read_timeout_seconds=120) as client:
            info = client.server_info
            return info.name, info.version

    assert asyncio.run(asyncio.wait_for(server_info(), 180)) == ("codeanchor", VERSION)
