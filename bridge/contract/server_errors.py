"""A language server's own error, as one line an agent can read.

Servers put stack traces in their JSON-RPC error messages (tsserver sends its
whole Node.js stack); an answer carries the message without the frames.
"""

from __future__ import annotations

from bridge.contract.errors import UnavailableError
from lsp import ServerRequestError
from verify import live_failure


def server_error(exc: ServerRequestError) -> UnavailableError:
    """The ToolError a server's refusal becomes (raise it `from exc`)."""
    return UnavailableError(live_failure(exc), code="server_error")
