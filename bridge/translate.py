"""Turn the lower layers' exceptions into the bridge's ToolErrors, in one place."""

from __future__ import annotations

from bridge.errors import BadInputError, NotFoundError, ToolError, UnavailableError, UnknownIdError
from disk.errors import DiskError, MissingFileError, OutsideRootError, UnreadableFileError
from lsp.errors import (
    LspError,
    NoServerError,
    PositionError,
    RequestTimeoutError,
    ServerCrashedError,
    UnsupportedFileError,
    UnsupportedQueryError,
)
from map.errors import MapError, UnknownNodeError
from memory.errors import (
    MemoryDomainError,
    MemoryInputError,
    MemoryNotFoundError,
    MemoryStoreError,
    UnknownMemoryError,
)


def as_tool_error(exc: Exception) -> ToolError | None:
    """The ToolError for a known lower-layer exception, or None for a bug."""
    if isinstance(exc, ToolError):
        return exc
    if isinstance(exc, DiskError):
        return _disk(exc)
    if isinstance(exc, LspError):
        return _live(exc)
    if isinstance(exc, UnknownNodeError):
        return UnknownIdError(
            f"{exc.node_id}: no such node in the map", suggestions=exc.suggestions
        )
    if isinstance(exc, MapError):
        return ToolError(str(exc), code="map_error")
    if isinstance(exc, MemoryDomainError):
        return _memory(exc)
    return None


def _memory(exc: MemoryDomainError) -> ToolError:
    if isinstance(exc, UnknownMemoryError):
        return UnknownIdError(exc.message, suggestions=exc.suggestions)
    if isinstance(exc, MemoryInputError | MemoryStoreError):
        return BadInputError(exc.message, hint=exc.hint, code=exc.code)
    if isinstance(exc, MemoryNotFoundError):
        return NotFoundError(exc.message, hint=exc.hint, code=exc.code)
    return ToolError(exc.message, hint=exc.hint, code=exc.code)


def _disk(exc: DiskError) -> ToolError:
    if isinstance(exc, OutsideRootError):
        return BadInputError(str(exc), code="outside_root")
    if isinstance(exc, MissingFileError):
        hint = "check the path, or search the map for the name"
        return NotFoundError(str(exc), code="file_not_found", hint=hint)
    if isinstance(exc, UnreadableFileError):
        return BadInputError(str(exc), code="unreadable_file")
    return BadInputError(str(exc))


def _live(exc: LspError) -> ToolError:
    if isinstance(exc, NoServerError):
        return UnavailableError(str(exc), code="no_server", hint=exc.install)
    if isinstance(exc, UnsupportedFileError):
        return BadInputError(str(exc), code="unsupported_file")
    if isinstance(exc, PositionError):
        return BadInputError(str(exc), code="bad_position")
    if isinstance(exc, UnsupportedQueryError):
        return UnavailableError(str(exc), code="unsupported_query")
    if isinstance(exc, RequestTimeoutError):
        return UnavailableError(str(exc), code="server_timeout")
    if isinstance(exc, ServerCrashedError):
        return UnavailableError(str(exc), code="server_crashed")
    return UnavailableError(str(exc), code="server_error")
