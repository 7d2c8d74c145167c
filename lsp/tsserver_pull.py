"""Diagnostics asked of tsserver itself, through typescript-language-server.

typescript-language-server has no `textDocument/diagnostic`, and it publishes
a document's diagnostics only when they moved (a clean file edited into
another clean file gets no publish at all), so no publish can prove a clean
answer current. It passes requests on to tsserver (`workspace/executeCommand`
`typescript.tsserverRequest`), and tsserver answers them in order, after the
didChange sent before: its synchronous syntactic and semantic diagnostics of
a file are the diagnostics of the text we sent, as a pull. tsserver answers
them one at a time, so they are sent one at a time (`ServerSession.in_order`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient

from lsp.errors import ServerRequestError

if TYPE_CHECKING:
    from lsp.documents import OpenDocument
    from lsp.session import ServerSession

COMMAND = "typescript.tsserverRequest"
_KINDS = ("syntacticDiagnosticsSync", "semanticDiagnosticsSync")
"""Errors and warnings; tsserver's suggestions (hints such as an unused variable) are
left out: as long again to compute, for what no checker calls a problem."""
_SEVERITIES = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "suggestion": types.DiagnosticSeverity.Hint,
    "message": types.DiagnosticSeverity.Information,
}


async def tsserver_diagnostics(session: ServerSession, doc: OpenDocument) -> list[types.Diagnostic]:
    """Every diagnostic tsserver has for `doc` now; raises ServerRequestError when
    tsserver refuses one of the requests."""
    found: list[types.Diagnostic] = []
    for kind in _KINDS:
        async with session.in_order:
            answer = await session.ask(
                types.WORKSPACE_EXECUTE_COMMAND, _request(kind, doc.uri), path=doc.path
            )
        found.extend(_diagnostic(item) for item in _body(session.spec.name, kind, answer))
    return found


def _request(kind: str, uri: str) -> Callable[[LanguageClient], Awaitable[Any]]:
    params = types.ExecuteCommandParams(command=COMMAND, arguments=[kind, {"file": uri}])
    return lambda c: c.workspace_execute_command_async(params)


def _body(server: str, kind: str, answer: object) -> Sequence[Mapping[str, Any]]:
    if not isinstance(answer, Mapping) or not answer.get("success"):
        detail = answer.get("message") if isinstance(answer, Mapping) else answer
        raise ServerRequestError(server, COMMAND, f"{kind}: {detail}")
    body = answer.get("body") or []
    return [item for item in body if isinstance(item, Mapping)]


def _position(at: Mapping[str, Any]) -> types.Position:
    """tsserver's 1-based line and UTF-16 offset as an LSP position."""
    return types.Position(line=int(at["line"]) - 1, character=int(at["offset"]) - 1)


def _diagnostic(item: Mapping[str, Any]) -> types.Diagnostic:
    code = item.get("code")
    return types.Diagnostic(
        range=types.Range(start=_position(item["start"]), end=_position(item["end"])),
        message=str(item.get("text", "")),
        severity=_SEVERITIES.get(str(item.get("category")), types.DiagnosticSeverity.Error),
        code=code if isinstance(code, int | str) else None,
        source="typescript",
    )
