"""Run a page's examples as written, in order, in a scratch copy of the bundled
example repository (`scripts/example`, committed to git, as the demo leaves it).

- A shell block runs line by line (`bash -c`, in the copy): each line must
  exit 0, or as its comment says (`# exit 1: ...`, `# exit 0 or 1: ...`).
- A JSON block must parse. An MCP client configuration (`mcpServers`) must
  name a command that exists (`/path/to/codeanchor` is this checkout); it is
  started, serving the copy (`/path/to/your/repo`), and a tool call (`{"name",
  "arguments"}`) later on the page goes to it and must succeed. A block marked
  `output of: COMMAND` must have the keys COMMAND's JSON has.
- A TOML block must load through the project's own configuration loader
  (`pyproject.toml` when it has a `[tool...]` table, else `codeanchor.toml`),
  server tables and live and map settings included.
- A synopsis (`text` or no language) must name real commands and options.
- A block marked `not run` only has its command lines checked (synopsis).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import tomllib
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from bridge.config import load_config
from bridge.context import AppContext
from tests.docs.pages import JSON, REPO, SHELL, SYNOPSIS, TOML, Block, Page
from tests.docs.synopsis import command_problems, script_problems
from tests.gitrepo import GIT_ENV, commit_all

EXAMPLE = REPO / "scripts" / "example"
CHECKOUT = "/path/to/codeanchor"
"""How the pages name this checkout."""
SERVED = "/path/to/your/repo"
"""How the pages name the repository a server serves."""
EXIT = re.compile(r"\s#\s*exit (\d+)(?: or (\d+))?\b")
COMMAND_TIMEOUT_S = 120.0
CALL_TIMEOUT_S = 60.0


@dataclass
class Ran:
    """What running one page did."""

    checked: list[Block] = field(default_factory=list)
    """The blocks run or checked in full (not those marked `not run`)."""
    problems: list[str] = field(default_factory=list)
    served_tools: set[str] = field(default_factory=set)
    """The tools an MCP server started by the page listed."""


def logical_lines(text: str) -> list[str]:
    """The command lines of a block: continuations joined, blanks and comments left out."""
    joined = re.sub(r"\\\n\s*", " ", text)
    return [s for s in (line.strip() for line in joined.splitlines()) if s and s[0] != "#"]


async def run_page(page: Page, tmp: Path) -> Ran:
    """Run or check every block of `page`, in order."""
    runner = _Runner(tmp)
    try:
        for block in page.blocks:
            await runner.block(block)
    finally:
        await runner.stack.aclose()
    return runner.ran


class _Runner:
    """One page's scratch repository, environment and MCP session."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.root = tmp / "shop-repo"
        shutil.copytree(EXAMPLE, self.root)
        commit_all(self.root, "shop: first version")
        env = {k: v for k, v in os.environ.items() if k != "CODEANCHOR_STORE"}
        self.env = {
            **env,
            **GIT_ENV,
            "PATH": os.pathsep.join([str(REPO / ".venv" / "bin"), env.get("PATH", "")]),
            "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])),
            "CODEANCHOR_CONFIG_HOME": str(tmp / "config"),  # `codeanchor trust` writes here
        }
        self.ran = Ran()
        self.stack = AsyncExitStack()
        self.client: Client | None = None

    def problem(self, block: Block, message: str) -> None:
        self.ran.problems.append(f"{block.where}: {message}")

    async def block(self, block: Block) -> None:
        if block.not_run is not None:
            self.light(block)
            return
        if block.kind is None:
            self.problem(block, f"a ```{block.language} block must be marked <!-- not run: why -->")
            return
        if block.kind == SHELL:
            await self.shell(block)
        elif block.kind == JSON:
            await self.json_block(block)
        elif block.kind == TOML:
            self.toml(block)
        else:
            self.synopsis(block)
        self.ran.checked.append(block)

    def light(self, block: Block) -> None:
        """A block that cannot run: a reason, and command lines that name what exists."""
        if not block.not_run:
            self.problem(block, "`not run` needs a reason")
        if block.kind not in {SHELL, SYNOPSIS}:
            return
        for line in logical_lines(block.text):
            found = command_problems(line) if line.startswith("codeanchor ") else []
            for message in found or script_problems(line):
                self.problem(block, message)

    def synopsis(self, block: Block) -> None:
        lines = [line for line in logical_lines(block.text) if line.startswith("codeanchor ")]
        if not lines:
            self.problem(block, "nothing to check here: mark it <!-- not run: why -->")
        for line in lines:
            for message in command_problems(line):
                self.problem(block, message)

    async def shell(self, block: Block) -> None:
        for line in logical_lines(block.text):
            found = EXIT.search(line)
            expected = {0} if found is None else {int(g) for g in found.groups() if g}
            done = await self.command(line)
            if done.returncode not in expected or "Traceback" in done.stderr:
                self.problem(
                    block,
                    f"`{line}` exited {done.returncode} (documented: "
                    f"{' or '.join(map(str, sorted(expected)))})\n{done.stdout}{done.stderr}",
                )

    async def command(self, line: str) -> subprocess.CompletedProcess[str]:
        """Run one command line in the scratch repository."""
        return await asyncio.to_thread(
            subprocess.run,
            ["bash", "-c", line],
            cwd=self.root,
            env=self.env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=COMMAND_TIMEOUT_S,
        )

    async def json_block(self, block: Block) -> None:
        try:
            value = json.loads(block.text)
        except json.JSONDecodeError as exc:
            self.problem(block, f"not JSON: {exc}")
            return
        if block.output_of is not None:
            await self.output(block, block.output_of, value)
        elif isinstance(value, dict) and "mcpServers" in value:
            for spec in value["mcpServers"].values():
                await self.connect(block, spec)
        elif isinstance(value, dict) and set(value) == {"name", "arguments"}:
            await self.call(block, value["name"], value["arguments"])

    async def output(self, block: Block, command: str, documented: Any) -> None:
        done = await self.command(command)
        if done.returncode != 0:
            self.problem(block, f"`{command}` exited {done.returncode}: {done.stderr}")
            return
        actual = json.loads(done.stdout)
        if _keys(documented) != _keys(actual):
            self.problem(block, f"`{command}` prints other keys: {done.stdout}")

    async def connect(self, block: Block, spec: dict[str, Any]) -> None:
        command = str(spec["command"]).replace(CHECKOUT, str(REPO))
        if not _is_program(command):
            self.problem(block, f"the client would start {command}, which is no program")
            return
        args = [str(arg).replace(SERVED, str(self.root)) for arg in spec.get("args", [])]
        await self.start(StdioServerParameters(command=command, args=args, env=self.env))

    async def start(self, params: StdioServerParameters) -> Client:
        client = Client(params, read_timeout_seconds=CALL_TIMEOUT_S)
        self.client = await self.stack.enter_async_context(client)
        self.ran.served_tools |= {tool.name for tool in (await self.client.list_tools()).tools}
        return self.client

    async def call(self, block: Block, tool: str, arguments: dict[str, Any]) -> None:
        client = self.client or await self.start(
            StdioServerParameters(
                command=str(REPO / ".venv" / "bin" / "codeanchor"),
                args=["serve", "--root", str(self.root)],
                env=self.env,
            )
        )
        result = await client.call_tool(tool, arguments)
        text = "".join(getattr(part, "text", "") for part in result.content)
        if result.is_error or not json.loads(text).get("ok"):
            self.problem(block, f"{tool} failed: {text}")

    def toml(self, block: Block) -> None:
        root = self.tmp / f"config-{block.line}"
        root.mkdir()
        try:
            table = tomllib.loads(block.text)
            name = "pyproject.toml" if "tool" in table else "codeanchor.toml"
            (root / name).write_text(block.text)
            config = load_config(root)
            if config.source is None:
                self.problem(block, f"{name} with no codeanchor configuration in it")
            AppContext(root, config)  # the server tables, the live and map settings
        except Exception as exc:
            self.problem(block, f"the configuration does not load: {exc}")


def _is_program(path: str) -> bool:
    return Path(path).is_file() and os.access(path, os.X_OK)


def _keys(value: Any) -> Any:
    """The keys of `value`'s objects, nested; anything else is None."""
    if isinstance(value, dict):
        return {key: _keys(item) for key, item in value.items()}
    return None
