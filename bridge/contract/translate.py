"""Turn the lower layers' exceptions into the bridge's ToolErrors, in one place.

Operating-system failures are translated too: a path the system refuses
(a symlink loop, a name too long) is bad input, any other OSError a failure
with its errno's name; anything else unknown is a bug (`internal_error`).
"""

from __future__ import annotations

import errno

from bridge.contract.errors import (
    BadInputError,
    NotFoundError,
    ToolError,
    UnavailableError,
    UnknownIdError,
)
from bridge.contract.inputs import shown
from disk.errors import DiskError, MissingFileError, OutsideRootError, UnreadableFileError
from lsp import (
    LspError,
    NoServerError,
    PositionError,
    RequestTimeoutError,
    ServerCrashedError,
    ServerRequestError,
    UnknownLanguageError,
    UnsupportedFileError,
    UnsupportedQueryError,
)
from map import BadPatternError, MapError, TeamStoreError, UnknownNodeError, language_for
from memory import (
    MemoryDomainError,
    MemoryInputError,
    MemoryNotFoundError,
    MemoryStoreError,
    UnknownMemoryError,
)
from verify import SymbolGoneError, UnknownSymbolError, VerifyError, live_failure


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
            f"{shown(exc.node_id)}: no such node in the map", suggestions=exc.suggestions
        )
    if isinstance(exc, BadPatternError):
        return BadInputError(str(exc), code="bad_pattern", hint=exc.hint)
    if isinstance(exc, TeamStoreError):
        return BadInputError(str(exc), code="bad_store", hint=exc.hint)
    if isinstance(exc, MapError):
        return ToolError(str(exc), code="map_error")
    if isinstance(exc, MemoryDomainError):
        return _memory(exc)
    if isinstance(exc, VerifyError):
        return _verify(exc)
    if isinstance(exc, OSError):
        return _os(exc)
    loop = exc.__context__
    if isinstance(exc, RuntimeError) and isinstance(loop, OSError) and loop.errno == errno.ELOOP:
        return _os(loop)  # how pathlib before 3.13 reports a symlink loop
    if isinstance(exc, ValueError) and str(exc) == _NUL_IN_PATH:
        return BadInputError("a path contains a NUL character", hint="remove it")
    return None


_NUL_IN_PATH = "embedded null byte"
"""What every `os` function raises (a plain ValueError) for a path with a NUL in it."""


def internal_error(exc: BaseException) -> ToolError:
    """The error reported for a bug: what broke, one line, and where to find more."""
    first = str(exc).splitlines()[0] if str(exc) else ""
    return ToolError(
        f"internal error: {type(exc).__name__}: {first[:200]}",
        code="internal_error",
        hint="this is a bug in codeanchor; the server log (stderr) has the traceback",
    )


_PATH_ERRORS = {
    errno.ELOOP: ("symlink_loop", "a symlink loop (too many levels of symbolic links)"),
    errno.ENAMETOOLONG: ("path_too_long", "a path longer than the system allows"),
    errno.ENOTDIR: ("not_a_directory", "a part of the path is not a directory"),
    errno.EACCES: ("permission_denied", "permission denied"),
    errno.EPERM: ("permission_denied", "operation not permitted"),
}


def _os(exc: OSError) -> ToolError:
    where = shown(str(exc.filename)) + ": " if exc.filename is not None else ""
    known = _PATH_ERRORS.get(exc.errno or 0)
    if known is not None:
        code, what = known
        return BadInputError(f"{where}{what}", code=code, hint="pass another path")
    name = errno.errorcode.get(exc.errno or 0, "error")
    return ToolError(f"{where}{exc.strerror or exc}", code=f"os_{name.lower()}")


def _memory(exc: MemoryDomainError) -> ToolError:
    if isinstance(exc, UnknownMemoryError):
        return UnknownIdError(exc.message, suggestions=exc.suggestions)
    if isinstance(exc, MemoryInputError | MemoryStoreError):
        return BadInputError(exc.message, hint=exc.hint, code=exc.code)
    if isinstance(exc, MemoryNotFoundError):
        return NotFoundError(exc.message, hint=exc.hint, code=exc.code)
    return ToolError(exc.message, hint=exc.hint, code=exc.code)


def _verify(exc: VerifyError) -> ToolError:
    if isinstance(exc, UnknownSymbolError):
        return UnknownIdError(exc.message, suggestions=exc.suggestions)
    if isinstance(exc, SymbolGoneError):
        return NotFoundError(exc.message, code="symbol_not_found", hint=exc.hint)
    return ToolError(exc.message, code="verify_error")


def _disk(exc: DiskError) -> ToolError:
    if isinstance(exc, OutsideRootError):
        return BadInputError(str(exc), code="outside_root")
    if isinstance(exc, MissingFileError):
        hint = "check the path, or search the map for the name"
        return NotFoundError(str(exc), code="file_not_found", hint=hint)
    if isinstance(exc, UnreadableFileError):
        return BadInputError(str(exc), code="unreadable_file")
    return BadInputError(str(exc))


MAP_INSTEAD = (
    "the map answers without one: map_outline (symbols), map_search (definitions), "
    "map_neighbors (callers, callees)"
)
"""What a nav_* answer without a live server (or one that lacks the query: no call
hierarchy in intelephense or bash-language-server) points to, in the same line."""


def _live(exc: LspError) -> ToolError:
    if isinstance(exc, UnknownLanguageError):
        return BadInputError(str(exc), code="unknown_language", hint=exc.hint)
    if isinstance(exc, NoServerError):
        return UnavailableError(f"{exc}; {MAP_INSTEAD}", code="no_server", hint=exc.install)
    if isinstance(exc, UnsupportedFileError):
        language = language_for(exc.path)
        if language is not None:  # a language the map reads and no server here serves
            return UnavailableError(
                f"{exc.path}: no {language} language server here; {MAP_INSTEAD}",
                code="no_server",
                hint="for live answers, add a server to the catalog ([tool.codeanchor] servers)",
            )
        return BadInputError(str(exc), code="unsupported_file")
    if isinstance(exc, PositionError):
        return BadInputError(str(exc), code="bad_position")
    if isinstance(exc, UnsupportedQueryError):
        return UnavailableError(f"{exc}; {MAP_INSTEAD}", code="unsupported_query")
    if isinstance(exc, RequestTimeoutError):
        return UnavailableError(str(exc), code="server_timeout")
    if isinstance(exc, ServerCrashedError):
        return UnavailableError(str(exc), code="server_crashed")
    if isinstance(exc, ServerRequestError):
        return UnavailableError(live_failure(exc), code="server_error")
    return UnavailableError(str(exc), code="server_error")
