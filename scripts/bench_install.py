"""From one install line to live answers, as a new user waits for them.

Everything runs in temporary folders: a new virtual environment, a new HOME
(so no data folder, no client configuration and no codeanchor state of the
person running it), a copy of this checkout's files (as a git URL would give
them). Figures, each timed end to end with the user's commands:

- install: `pip install <copy>` into the new virtual environment;
- install line -> first live Python answer: that install, then `codeanchor nav
  def` on a tiny Python repository until it names the right definition (a wrong
  answer is printed, and its time counts);
- `servers install typescript` alone, and from it to the first live TypeScript
  answer (`nav def` on a tiny TypeScript repository);
- tools/list characters: the JSON of the tools a real MCP stdio client lists
  from the new install's `codeanchor serve`;
- the demo (`bash scripts/demo.sh`) on another fresh copy: wall time, and the
  disk it used (its .venv and its scratch repository).

pip's and npm's download caches are the runner's own unless `--cold` (then
empty ones in the temporary folder), and pip reads the machine's own pip
configuration (indexes, find-links): the report prints both. The npm figure has
a floor measured in the same run: the same packages with plain `npm install`
into another new folder, after ours (so with the cache ours left).
Goals: live Python answer
< 90 s after the install line starts; TypeScript < 3 min after `servers install`;
demo <= 60 s and <= 300 MB; tools/list <= 40,000 characters.

Usage: .venv/bin/python scripts/bench_install.py [--cold] [--keep]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from lsp import Catalog, choose_servers  # noqa: E402
from scripts.benchinfo import code_commit  # noqa: E402
from tests.gitrepo import commit_all, copy_checkout  # noqa: E402

PY_GOAL_S = 90.0
TS_GOAL_S = 180.0
DEMO_GOAL_S = 60.0
DEMO_GOAL_MB = 300.0
TOOLS_GOAL_CHARS = 40_000
STEP_TIMEOUT_S = 900.0
TRIES = 3

TINY_PY = {
    "pkg/core.py": "def helper():\n    return 1\n",
    "main.py": "from pkg.core import helper\n\nprint(helper())\n",
}
TINY_TS = {
    "tsconfig.json": '{"compilerOptions": {"strict": true}, "include": ["src"]}\n',
    "src/core.ts": "export function helper(): number {\n  return 1;\n}\n",
    "src/main.ts": 'import { helper } from "./core";\n\nconsole.log(helper());\n',
}


def user_env(tmp: Path, home: str, *, cold: bool) -> dict[str, str]:
    """A new user's environment: its own HOME (`tmp/home`), nothing of this checkout
    on any path."""
    keep = ("PATH", "LANG", "LC_ALL", "TERM", "TMPDIR")
    env = {k: v for k, v in os.environ.items() if k in keep}
    checkout_dirs = {
        str(REPO / ".venv" / "bin"),
        str(REPO / ".tools" / "node" / "node_modules" / ".bin"),
    }
    env["PATH"] = os.pathsep.join(
        d for d in env.get("PATH", os.defpath).split(os.pathsep) if d not in checkout_dirs
    )
    env["HOME"] = str(tmp / home)
    (tmp / home).mkdir(exist_ok=True)
    real_home = Path.home()
    pip_cache = tmp / "pip-cache" if cold else real_home / ".cache" / "pip"
    npm_cache = tmp / "npm-cache" if cold else real_home / ".npm"
    env["PIP_CACHE_DIR"] = str(pip_cache)
    env["npm_config_cache"] = str(npm_cache)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def sources(env: Mapping[str, str]) -> str:
    """Where pip and npm take packages from here: the label of every install figure."""
    pip = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"],
        capture_output=True,
        text=True,
        env=dict(env),
    ).stdout
    wanted = ("index-url", "extra-index-url", "find-links")
    pip_lines = [line for line in pip.splitlines() if line.split("=", 1)[0].endswith(wanted)]
    registry = subprocess.run(
        ["npm", "config", "get", "registry"], capture_output=True, text=True, env=dict(env)
    ).stdout.strip()
    caches = f"pip cache {env['PIP_CACHE_DIR']} ({mb_of(Path(env['PIP_CACHE_DIR']))} MB before)"
    npm_cache = f"npm cache {env['npm_config_cache']} ({mb_of(Path(env['npm_config_cache']))} MB)"
    return (
        f"pip config: {'; '.join(pip_lines) or 'defaults (PyPI)'}; {caches}; "
        f"npm registry {registry}, {npm_cache}"
    )


def mb_of(folder: Path) -> str:
    return f"{disk_mb(folder):.0f}" if folder.exists() else "0, absent"


def timed(command: list[str], env: Mapping[str, str], cwd: Path) -> tuple[float, str]:
    """Run `command` to the end; its wall time and stdout. Fails loudly."""
    started = time.monotonic()
    done = subprocess.run(
        command,
        env=dict(env),
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT_S,
        stdin=subprocess.DEVNULL,
    )
    elapsed = time.monotonic() - started
    if done.returncode != 0:
        raise SystemExit(
            f"`{' '.join(command)}` failed ({done.returncode}):\n{done.stderr[-3000:]}"
        )
    return elapsed, done.stdout


def tiny_repo(folder: Path, files: Mapping[str, str]) -> Path:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    commit_all(folder, "tiny")
    return folder


def live_definition(
    codeanchor: Path, repo: Path, where: str, env: Mapping[str, str]
) -> tuple[float | None, list[str]]:
    """Time until a `nav def` (a fresh process each) answers with the definition of
    helper in its core file (None: no right answer in `TRIES`), and the wrong answers
    before it."""
    wrong: list[str] = []
    total = 0.0
    while len(wrong) < TRIES:
        elapsed, out = timed(
            [str(codeanchor), "nav", "def", where, "--name", "helper", "--json"], env, repo
        )
        total += elapsed
        data = json.loads(out)["data"]
        paths = [f"{loc['path']}:{loc['line']}" for loc in data["locations"]]
        if data.get("completeness") == "complete" and paths and "core" in paths[0]:
            return total, wrong
        wrong.append(f"{data.get('completeness')} {paths}")
    return None, wrong


async def tools_list_chars(codeanchor: Path, repo: Path, env: Mapping[str, str]) -> int:
    """Characters of tools/list's JSON, as a real MCP stdio client receives it."""
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(
        command=str(codeanchor), args=["serve", "--root", str(repo)], env=dict(env)
    )
    async with Client(params, read_timeout_seconds=120) as client:
        listed = await client.list_tools()
    tools = [
        tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in listed.tools
    ]
    return len(json.dumps({"tools": tools}, separators=(",", ":")))


def disk_mb(*folders: Path) -> float:
    total = 0
    for folder in folders:
        for path in folder.rglob("*"):
            if path.is_file() and not path.is_symlink():
                total += path.stat().st_size
    return total / 1e6


def row(label: str, value: str, goal: str = "") -> None:
    """One figure: its exact label, its value, and its goal with the verdict."""
    print(f"  {label + ':':<58}{value:>14}{'   ' + goal if goal else ''}")


def answered(
    what: str, start: str, before: float, first: float | None, wrong: list[str], goal: float
) -> None:
    """The time to the first right live answer, and from `start` (`before` seconds
    earlier) to it, against `goal`."""
    for answer in wrong:
        print(f"    a wrong {what} answer came first: {answer}")
    if first is None:
        row(f"first live {what} answer", f"none in {TRIES}", f"goal < {goal:.0f} s: MISSES")
        return
    total = before + first
    row(f"first right live {what} answer, after it", f"{first:.1f} s")
    row(f"{start} -> that answer", f"{total:.1f} s", f"goal < {goal:.0f} s: {verdict(total, goal)}")


def verdict(value: float, goal: float) -> str:
    return "meets" if value <= goal else "MISSES"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cold", action="store_true", help="empty pip and npm caches")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="codeanchor-bench-install-"))
    cache = "cold pip/npm caches" if args.cold else "the runner's pip/npm caches (warm)"
    try:
        env = user_env(tmp, "home", cold=args.cold)
        label = sources(env)
        source = copy_checkout(REPO, tmp / "src")
        venv = tmp / "venv"
        timed([sys.executable, "-m", "venv", str(venv)], env, tmp)
        codeanchor = venv / "bin" / "codeanchor"
        env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"
        py_repo = tiny_repo(tmp / "tiny-py", TINY_PY)
        ts_repo = tiny_repo(tmp / "tiny-ts", TINY_TS)

        install_s, _ = timed([str(venv / "bin" / "pip"), "install", "-q", str(source)], env, tmp)
        first_py_s, py_wrong = live_definition(codeanchor, py_repo, "main.py:3", env)
        ts_install_s, _ = timed([str(codeanchor), "servers", "install", "typescript"], env, tmp)
        first_ts_s, ts_wrong = live_definition(codeanchor, ts_repo, "src/main.ts:3", env)
        [typescript] = choose_servers(Catalog.builtin(), ["typescript"])
        floor = tmp / "npm-floor"
        npm = ["npm", "install", "--prefix", str(floor), "--no-audit", "--no-fund"]
        floor_s, _ = timed([*npm, *typescript.npm_packages], env, tmp)
        tools_chars = asyncio.run(tools_list_chars(codeanchor, py_repo, env))

        demo_source = copy_checkout(REPO, tmp / "demo-src")
        demo_env = user_env(tmp, "demo-home", cold=args.cold)
        demo_s, _ = timed(
            ["bash", "scripts/demo.sh", str(tmp / "demo-work")], demo_env, demo_source
        )
        demo_mb = disk_mb(demo_source / ".venv", tmp / "demo-work")

        print(f"bench_install at {code_commit()} ({cache}; new venv and HOME in {tmp})")
        print(f"  sources: {label}")
        row("pip install <checkout copy> into a new venv", f"{install_s:.1f} s")
        answered("Python (nav def, ty)", "install line", install_s, first_py_s, py_wrong, PY_GOAL_S)
        row("codeanchor servers install typescript", f"{ts_install_s:.1f} s")
        answered(
            "TypeScript (nav def)", "servers install", ts_install_s, first_ts_s, ts_wrong, TS_GOAL_S
        )
        row("floor: plain npm install of the same packages, after", f"{floor_s:.1f} s")
        row(
            "tools/list JSON (MCP stdio client, all tools)",
            f"{tools_chars:,} chars",
            f"goal <= {TOOLS_GOAL_CHARS:,}: {verdict(tools_chars, TOOLS_GOAL_CHARS)}",
        )
        row(
            "demo (bash scripts/demo.sh on a fresh copy, set-up included)",
            f"{demo_s:.1f} s",
            f"goal <= {DEMO_GOAL_S:.0f} s: {verdict(demo_s, DEMO_GOAL_S)}",
        )
        row(
            "demo disk (its .venv + scratch repository)",
            f"{demo_mb:.1f} MB",
            f"goal <= {DEMO_GOAL_MB:.0f} MB: {verdict(demo_mb, DEMO_GOAL_MB)}",
        )
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        row("load average at the end (1, 5, 15 min)", load)
    finally:
        if not args.keep:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
