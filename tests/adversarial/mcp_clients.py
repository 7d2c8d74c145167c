"""Two ways to talk to one `codeanchor serve` for many test cases.

`SharedSession`: the mcp SDK's stdio client (tests.bridge.mcp_session.serve),
kept open on a background event loop so that parametrized tests and a
hypothesis run reuse one server. `RawSession`: JSON-RPC lines written by
hand, for what the SDK client refuses to send (a lone surrogate, arguments
that are not an object). Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import select
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
from mcp import Client

from tests.bridge.mcp_session import CALL_TIMEOUT_S, serve, server_params

ENVELOPE_KEYS = {"ok", "data", "warnings", "truncated", "mapBuiltAt", "stale"}
ERROR_KEYS = {"code", "message", "hint"}
"""What every error carries; an unknown ID's also lists the nearest IDs (`suggestions`)."""

Work = tuple[Callable[[Client], Awaitable[Any]], "concurrent.futures.Future[Any]"]


def envelope_of(is_error: bool, text: str) -> dict[str, Any]:
    """The envelope in a tool result's text, checked for the documented shape."""
    envelope: dict[str, Any] = orjson.loads(text)
    if is_error:
        assert set(envelope) == {"ok", "error"} and envelope["ok"] is False, text
        error = envelope["error"]
        assert set(error) - {"suggestions"} == ERROR_KEYS, text
        assert ("suggestions" in error) <= (error["code"] == "unknown_id"), text
        assert isinstance(envelope["error"]["message"], str), text
        assert "\n" not in envelope["error"]["message"], "one line"
        assert "Traceback" not in text
    else:
        assert set(envelope) == ENVELOPE_KEYS and envelope["ok"] is True, text
    return envelope


class SharedSession:
    """One SDK client session on `root`, served from a background thread."""

    def __init__(self, root: Path) -> None:
        self._loop = asyncio.new_event_loop()
        self._queue: asyncio.Queue[Work | None] | None = None
        self._ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._thread = threading.Thread(target=self._run, args=(root,), daemon=True)
        self._thread.start()
        self._ready.result(CALL_TIMEOUT_S)

    def _run(self, root: Path) -> None:
        self._loop.run_until_complete(self._serve(root))

    async def _serve(self, root: Path) -> None:
        self._queue = asyncio.Queue()
        try:
            async with serve(root) as client:
                self._ready.set_result(None)
                while (work := await self._queue.get()) is not None:
                    make, future = work
                    try:
                        future.set_result(await asyncio.wait_for(make(client), CALL_TIMEOUT_S))
                    except Exception as exc:
                        future.set_exception(exc)
        except Exception as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            raise

    def call(self, tool: str, arguments: dict[str, Any]) -> tuple[bool, str]:
        """Call a tool; returns (is_error, text) as the client received them."""
        future: concurrent.futures.Future[Any] = concurrent.futures.Future()

        async def make(client: Client) -> Any:
            return await client.call_tool(tool, arguments)

        assert self._queue is not None
        self._loop.call_soon_threadsafe(self._queue.put_nowait, (make, future))
        result = future.result(CALL_TIMEOUT_S + 5)
        text = result.content[0].text
        return bool(result.is_error), str(text)

    def close(self) -> None:
        """Disconnect (the server shuts down) and stop the thread."""
        if self._queue is not None:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, None)
        self._thread.join(CALL_TIMEOUT_S)
        self._loop.close()


class RawSession:
    """`codeanchor serve` driven with JSON-RPC lines written by hand."""

    def __init__(self, root: Path) -> None:
        params = server_params(root)
        self._process = subprocess.Popen(
            [params.command, *params.args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._next_id = 0
        self.request(
            "initialize",
            '{"protocolVersion": "2025-06-18", "capabilities": {}, '
            '"clientInfo": {"name": "raw", "version": "1"}}',
        )
        self._send('{"jsonrpc": "2.0", "method": "notifications/initialized"}')

    def request(self, method: str, params_json: str) -> dict[str, Any]:
        """Send a request whose params are the given JSON text; returns its response."""
        self._next_id += 1
        ident = self._next_id
        self._send(
            f'{{"jsonrpc": "2.0", "id": {ident}, "method": "{method}", "params": {params_json}}}'
        )
        deadline = time.monotonic() + CALL_TIMEOUT_S
        assert self._process.stdout is not None
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self._process.stdout], [], [], 0.5)
            if not ready:
                continue
            line = self._process.stdout.readline()
            assert line, "the server closed its output"
            message: dict[str, Any] = orjson.loads(line)
            if message.get("id") == ident:
                return message
        raise AssertionError(f"no answer to request {ident} ({method}) in {CALL_TIMEOUT_S} s")

    def call(self, tool: str, arguments_json: str) -> tuple[bool, str]:
        """tools/call with the arguments as JSON text; returns (is_error, text)."""
        answer = self.request("tools/call", f'{{"name": "{tool}", "arguments": {arguments_json}}}')
        result = answer["result"]
        return bool(result.get("isError")), str(result["content"][0]["text"])

    def _send(self, line: str) -> None:
        assert self._process.stdin is not None
        self._process.stdin.write(line.encode("ascii") + b"\n")
        self._process.stdin.flush()

    def close(self) -> None:
        """Close stdin (a disconnect) and wait for the server to exit."""
        assert self._process.stdin is not None
        self._process.stdin.close()
        try:
            self._process.wait(CALL_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        assert self._process.stdout is not None
        self._process.stdout.close()
