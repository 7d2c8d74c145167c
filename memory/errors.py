"""Errors of the memory domain.

    MemoryDomainError          code, message, hint; the bridge translates it
    ├── MemoryInputError       the request is wrong (malformed ref, empty text, ...)
    │   └── UnknownMemoryError no such memory ID or symbol; `suggestions` holds the nearest
    ├── MemoryNotFoundError    the file a reference names is not there (now)
    └── MemoryStoreError       the store cannot be used (unreachable, refused, not ours)

A refused request writes nothing. `bridge.translate.as_tool_error` turns these
into the bridge's ToolErrors at the tool boundary, like map/ and lsp/ errors.
"""

from __future__ import annotations

from collections.abc import Sequence


class MemoryDomainError(Exception):
    """A memory operation failed in a way a person or an agent can act on."""

    code = "memory_error"

    def __init__(self, message: str, *, hint: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        if code is not None:
            self.code = code


class MemoryInputError(MemoryDomainError):
    """The arguments are malformed, out of range, or point outside the root."""

    code = "bad_input"


class UnknownMemoryError(MemoryInputError):
    """An ID or symbol that names nothing; `suggestions` holds the nearest known ones."""

    code = "unknown_id"

    def __init__(self, message: str, *, suggestions: Sequence[str] = ()) -> None:
        hint = f"did you mean: {', '.join(suggestions)}" if suggestions else None
        super().__init__(message, hint=hint)
        self.suggestions = tuple(suggestions)


class MemoryNotFoundError(MemoryDomainError):
    """The file a reference or an import names does not exist."""

    code = "not_found"


class MemoryStoreError(MemoryDomainError):
    """The store cannot be opened or written; the message says what to fix."""

    code = "bad_store"
