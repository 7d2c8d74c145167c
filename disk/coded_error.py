"""The base of the error trees whose errors carry a code and a hint.

    CodedError          code, message, hint: what went wrong and what to do
    └── SuggestingError an ID or name that names nothing; the hint lists the nearest

`bridge.errors.ToolError` (every tool's and command's errors) and
`memory.errors.MemoryDomainError` (the memory domain's) derive from
`CodedError`; each tree's "unknown ID" error also derives from
`SuggestingError`, beside its own input error, e.g.
`class UnknownIdError(SuggestingError, BadInputError)`.
"""

from __future__ import annotations

from collections.abc import Sequence


class CodedError(Exception):
    """A failure a person or an agent can act on: a `code` (a class default, or given),
    the `message`, and a `hint` at what to do, when there is one."""

    code = "error"

    def __init__(self, message: str, *, hint: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        if code is not None:
            self.code = code


class SuggestingError(CodedError):
    """An ID or name that names nothing; `suggestions` holds the nearest known ones."""

    def __init__(self, message: str, *, suggestions: Sequence[str] = ()) -> None:
        hint = f"did you mean: {', '.join(suggestions)}" if suggestions else None
        super().__init__(message, hint=hint)
        self.suggestions = tuple(suggestions)
