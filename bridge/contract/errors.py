"""Errors every tool and command reports the same way.

    ToolError                  code, message, hint; never returned, always raised
    ├── BadInputError          the request itself is wrong (CLI exit 2)
    │   └── UnknownIdError     no such node or memory ID (with suggestions)
    ├── NotFoundError          the thing asked about is not there (now)
    └── UnavailableError       no answer could be had: no server, timeout, crash

ToolError is a `disk.coded_error.CodedError`, UnknownIdError also a
`SuggestingError` (both shared with memory's errors). Errors from the lower
layers (disk, lsp, map) are translated into these at the tool boundary by
`bridge.contract.translate.as_tool_error`.
"""

from __future__ import annotations

from disk.coded_error import CodedError, SuggestingError


class ToolError(CodedError):
    """A failure an agent or a person can act on (code, message, hint: `CodedError`)."""

    exit_code = 1


class BadInputError(ToolError):
    """The arguments are malformed, out of range, or point outside the root."""

    code = "bad_input"
    exit_code = 2


class UnknownIdError(SuggestingError, BadInputError):
    """An ID that names nothing; `suggestions` holds the nearest known IDs."""

    code = "unknown_id"


class NotFoundError(ToolError):
    """The file or symbol asked about does not exist now."""

    code = "not_found"
    exit_code = 2


class UnavailableError(ToolError):
    """No live answer: no server installed, the server timed out or crashed."""

    code = "unavailable"
