"""A language server's own error, as one line an agent can read.

Servers put stack traces in their JSON-RPC error messages (tsserver sends its
whole Node.js stack); an answer carries the message without the frames.
"""

from __future__ import annotations

from bridge.errors import UnavailableError
from lsp import ServerRequestError


def server_failure(exc: ServerRequestError) -> str:
    """The server's error in one line: no stack frames, no repeated `Error:` lines."""
    kept = [
        line.strip()
        for line in str(exc).splitlines()
        if line.strip() and not line.lstrip().startswith(("at ", "Error: "))
    ]
    return " ".join(kept)


def server_error(exc: ServerRequestError) -> UnavailableError:
    """The ToolError a server's refusal becomes (raise it `from exc`)."""
    return UnavailableError(server_failure(exc), code="server_error")
