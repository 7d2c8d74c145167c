"""Errors every tool and command reports the same way.

    ToolError                  code, message, hint; never returned, always raised
    ├── BadInputError          the request itself is wrong (CLI exit 2)
    │   └── UnknownIdError     no such node or memory ID (with suggestions)
    ├── NotFoundError          the thing asked about is not there (now)
    └── UnavailableError       no answer could be had: no server, timeout, crash

Errors from the lower layers (disk, lsp, map) are translated into these at
the tool boundary by `bridge.contract.translate.as_tool_error`.
"""

from __future__ import annotations

from collections.abc import Sequence


class ToolError(Exception):
    """A failure an agent or a person can act on."""

    code = "error"
    exit_code = 1

    def __init__(self, message: str, *, hint: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        if code is not None:
            self.code = code


class BadInputError(ToolError):
    """The arguments are malformed, out of range, or point outside the root."""

    code = "bad_input"
    exit_code = 2


class UnknownIdError(BadInputError):
    """An ID that names nothing; `suggestions` holds the nearest known IDs."""

    code = "unknown_id"

    def __init__(self, message: str, *, suggestions: Sequence[str] = ()) -> None:
        hint = f"did you mean: {', '.join(suggestions)}" if suggestions else None
        super().__init__(message, hint=hint)
        self.suggestions = tuple(suggestions)


class NotFoundError(ToolError):
    """The file or symbol asked about does not exist now."""

    code = "not_found"
    exit_code = 2


class UnavailableError(ToolError):
    """No live answer: no server installed, the server timed out or crashed."""

    code = "unavailable"
