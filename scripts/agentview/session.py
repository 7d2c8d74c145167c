"""One agent's MCP session: `codeanchor serve` under the mcp SDK's stdio client.

Every tool call is timed end to end (the agent's wait) and kept as an Answer:
the envelope of a success, or the `error` of a failure, as the agent reads it.
Nothing here knows the product's internals; the server runs from a checkout
given by path, so the same session drives any branch's code.
"""

from __future__ import annotations

import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson
from mcp import Client, StdioServerParameters
from mcp.client.stdio import get_default_environment

CALL_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Answer:
    """What one tool call showed the agent."""

    tool: str
    arguments: dict[str, Any]
    envelope: dict[str, Any]
    """The whole envelope: `{ok, data, warnings, truncated, ...}` or `{ok: false, error}`."""
    wall_s: float

    @property
    def ok(self) -> bool:
        """The call succeeded."""
        return bool(self.envelope.get("ok"))

    @property
    def data(self) -> dict[str, Any]:
        """The envelope's `data` ({} for a failure)."""
        data = self.envelope.get("data")
        return data if isinstance(data, dict) else {}

    @property
    def error(self) -> dict[str, Any]:
        """The envelope's `error` ({} for a success)."""
        error = self.envelope.get("error")
        return error if isinstance(error, dict) else {}

    @property
    def warnings(self) -> list[Any]:
        """The envelope's warnings."""
        warnings = self.envelope.get("warnings")
        return warnings if isinstance(warnings, list) else []

    @property
    def truncated(self) -> Any:
        """The envelope's `truncated` (None when it claims nothing was cut)."""
        return self.envelope.get("truncated")

    def brief(self) -> str:
        """One line for the log: the tool, its arguments, the outcome."""
        args = ", ".join(f"{k}={v!r}" for k, v in self.arguments.items())
        outcome = "ok" if self.ok else f"error {self.error.get('code')}"
        return f"{self.tool}({args}) -> {outcome} in {self.wall_s * 1000:.0f} ms"


@dataclass
class Session:
    """An initialized MCP session with a record of every call's wait."""

    client: Client
    answers: list[Answer] = field(default_factory=list)
    """Every answer of the session, in order."""

    async def ask(self, tool: str, **arguments: Any) -> Answer:
        """Call `tool` and keep what the agent would see (a failure is an Answer too)."""
        started = time.perf_counter()
        result = await self.client.call_tool(tool, arguments)
        wall = time.perf_counter() - started
        text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
        try:
            envelope = orjson.loads(text)
        except orjson.JSONDecodeError:
            envelope = {"ok": False, "error": {"code": "not_json", "message": text[:500]}}
        if not isinstance(envelope, dict):
            envelope = {"ok": False, "error": {"code": "not_an_envelope", "message": text[:500]}}
        if result.is_error:
            envelope["ok"] = False
        answer = Answer(tool, arguments, envelope, wall)
        self.answers.append(answer)
        return answer


def server_params(code: Path, root: Path) -> StdioServerParameters:
    """`codeanchor serve --root ROOT`, run from the checkout `code` (its own .venv
    interpreter when it has one), default settings."""
    python = code / ".venv" / "bin" / "python"
    env = dict(get_default_environment())
    env["PYTHONPATH"] = str(code)
    return StdioServerParameters(
        command=str(python if python.exists() else Path(sys.executable)),
        args=["-m", "bridge.cli", "serve", "--root", str(root)],
        env=env,
        cwd=str(code),
    )


@asynccontextmanager
async def session(code: Path, root: Path) -> AsyncIterator[Session]:
    """A session with a fresh server on `root`, closed (server ended) on exit."""
    async with Client(server_params(code, root), read_timeout_seconds=CALL_TIMEOUT_S) as client:
        yield Session(client)
