"""Make every line a client sends over stdio one the MCP SDK can answer.

A JSON string may hold an escaped lone surrogate (`"\\ud800"`): valid JSON
text, but no Unicode, so the SDK's parser rejects the whole message and the
request never gets an answer. `start_stdin_relay` puts a pipe in front of fd 0
and copies each line through `clean_line`, which replaces such a string by
its escaped spelling and lists where it was in the request's
`_meta[INVALID_TEXT]`; the server's middleware answers that request with a
bad_input error. Every other line passes unchanged.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from typing import Any

INVALID_TEXT = "dev.codeanchor/invalid-text"
"""The `_meta` key listing the arguments that held lone surrogates."""


def clean_line(line: str) -> str:
    """`line` with lone surrogates escaped and reported in `_meta`; else unchanged."""
    if "\\u" not in line.lower():
        return line
    try:
        message = json.loads(line)
    except ValueError:
        return line
    found: list[str] = []
    cleaned = _clean(message, "", found)
    if not found:
        return line
    params = cleaned.get("params") if isinstance(cleaned, dict) else None
    if isinstance(params, dict):
        meta = params.get("_meta")
        params["_meta"] = {**(meta if isinstance(meta, dict) else {}), INVALID_TEXT: found}
    return json.dumps(cleaned, ensure_ascii=False) + ("\n" if line.endswith("\n") else "")


def _clean(value: Any, where: str, found: list[str]) -> Any:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            found.append(where)
            return _escaped(value)
        return value
    if isinstance(value, list):
        return [_clean(item, f"{where}[{i}]", found) for i, item in enumerate(value)]
    if isinstance(value, dict):
        cleaned: dict[str, Any] = {}
        for key, item in value.items():
            safe = _clean(key, f"{where}.{_escaped(key)}", found)
            cleaned[safe] = _clean(item, f"{where}.{safe}", found)
        return cleaned
    return value


def _escaped(text: str) -> str:
    return text.encode("utf-8", errors="backslashreplace").decode("utf-8")


def start_stdin_relay() -> None:
    """Make fd 0 a pipe fed line by line (cleaned) from the real stdin, for good;
    the pipe ends when the real stdin does."""
    real = os.dup(0)
    read_end, write_end = os.pipe()
    os.dup2(read_end, 0)
    os.close(read_end)

    def copy() -> None:
        with open(real, "rb") as source, open(write_end, "wb", buffering=0) as sink:
            for raw in source:
                line = raw.decode("utf-8", errors="replace")
                with contextlib.suppress(BrokenPipeError):
                    sink.write(clean_line(line).encode("utf-8"))

    thread = threading.Thread(target=copy, name="stdin-relay", daemon=True)
    thread.start()
