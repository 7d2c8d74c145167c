"""Errors of the live layer.

    LspError
    ├── NoServerError           the language's server is not installed (or broken)
    ├── UnknownLanguageError    no server in the catalog serves that language
    ├── UnsupportedFileError    no language server knows the file's extension
    ├── PositionError           a line past the end of the file
    ├── UnsupportedQueryError   the server does not offer that request
    ├── ServerRequestError      the server answered the request with an error
    ├── RequestTimeoutError     no answer within the request timeout
    └── ServerCrashedError      the server process died (or would not start)
        └── ServerGaveUpError   crashed too often; not restarted for a while

Bad paths raise `disk.errors` (OutsideRootError, MissingFileError,
BinaryFileError, UndecodableFileError, ...), which are not LspErrors.
"""

from __future__ import annotations


class LspError(Exception):
    """A live query could not be answered; the message says why and what to do."""


class NoServerError(LspError):
    """The server chosen for a language is not installed."""

    def __init__(
        self, language: str, server: str, install: str, *, problem: str | None = None
    ) -> None:
        state = "is not installed" if problem is None else f"does not run ({problem})"
        super().__init__(
            f"no {language} language server: {server} {state}; install it with: "
            f"{install} (or run `codeanchor doctor`)"
        )
        self.language = language
        self.server = server
        self.install = install
        self.problem = problem


class UnknownLanguageError(LspError):
    """A language no server in the catalog declares."""

    def __init__(self, language: str, known: list[str]) -> None:
        shown = language if len(language) <= 40 else language[:39] + "…"
        super().__init__(f"unknown language {shown!r}")
        self.language = language
        self.known = known
        self.hint = f"pass one of: {', '.join(known)}"


class UnsupportedFileError(LspError):
    """No server in the catalog handles the file's extension."""

    def __init__(self, path: str) -> None:
        super().__init__(
            f"{path}: no language server handles this kind of file; "
            "add one to the catalog ([tool.codeanchor] servers)"
        )
        self.path = path


class PositionError(LspError):
    """The position lies past the end of the file."""

    def __init__(self, path: str, line: int, line_count: int) -> None:
        super().__init__(
            f"{path}: line {line + 1} is past the end of the file, which has "
            f"{line_count} line(s); lines are 1-based for people, 0-based in LSP positions"
        )
        self.path = path
        self.line = line
        self.line_count = line_count


class UnsupportedQueryError(LspError):
    """The server did not announce the capability the query needs."""

    def __init__(self, server: str, method: str) -> None:
        super().__init__(
            f"{server} does not support {method}; choose another server for this "
            "language in [tool.codeanchor]"
        )
        self.server = server
        self.method = method


class ServerRequestError(LspError):
    """The server answered with a JSON-RPC error (`code`: its error code)."""

    def __init__(self, server: str, method: str, detail: str, code: int | None = None) -> None:
        super().__init__(f"{server} failed {method}: {detail}")
        self.server = server
        self.method = method
        self.code = code


class RequestTimeoutError(LspError):
    """The server did not answer in time (slow, or hung: see `lsp.session`)."""

    def __init__(self, server: str, method: str, seconds: float) -> None:
        super().__init__(
            f"{server} did not answer {method} within {seconds:g} s (raise "
            "request_timeout if it is just slow; a server that keeps not answering "
            "is restarted)"
        )
        self.server = server
        self.method = method
        self.seconds = seconds


class ServerCrashedError(LspError):
    """The server process exited, or failed to start; the next query restarts it."""

    def __init__(self, server: str, detail: str) -> None:
        super().__init__(f"{server} crashed: {detail}; the next query restarts it")
        self.server = server
        self.detail = detail


class ServerGaveUpError(ServerCrashedError):
    """The server crashed too often within the restart window; it is left stopped."""

    def __init__(self, server: str, crashes: int, window: float) -> None:
        LspError.__init__(
            self,
            f"{server} crashed {crashes} times within {window:g} s; not restarting it "
            "until that window has passed (see its stderr, or `codeanchor doctor`)",
        )
        self.server = server
        self.detail = f"{crashes} crashes within {window:g} s"
