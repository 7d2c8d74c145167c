"""Errors of the memory domain.

    MemoryDomainError          code, message, hint; the bridge translates it
    ├── MemoryInputError       the request is wrong (malformed ref, empty text, ...)
    │   └── UnknownMemoryError no such memory ID or symbol; `suggestions` holds the nearest
    ├── MemoryNotFoundError    the file a reference names is not there (now)
    └── MemoryStoreError       the store cannot be used (unreachable, refused, not ours)

MemoryDomainError is a `disk.coded_error.CodedError`, UnknownMemoryError also
a `SuggestingError` (both shared with the bridge's errors). A refused request
writes nothing. `bridge.contract.translate.as_tool_error` turns these
into the bridge's ToolErrors at the tool boundary, like map/ and lsp/ errors.
"""

from __future__ import annotations

from disk.coded_error import CodedError, SuggestingError


class MemoryDomainError(CodedError):
    """A memory operation failed in a way a person or an agent can act on (code, message,
    hint: `CodedError`)."""

    code = "memory_error"


class MemoryInputError(MemoryDomainError):
    """The arguments are malformed, out of range, or point outside the root."""

    code = "bad_input"


class UnknownMemoryError(SuggestingError, MemoryInputError):
    """An ID or symbol that names nothing; `suggestions` holds the nearest known ones."""

    code = "unknown_id"


class MemoryNotFoundError(MemoryDomainError):
    """The file a reference or an import names does not exist."""

    code = "not_found"


class MemoryStoreError(MemoryDomainError):
    """The store cannot be opened or written; the message says what to fix."""

    code = "bad_store"
