"""Asking the live server about a TARGET: where it points, once more after a crash,
and what to warn about the answer (a server still loading, a workspace it cannot
see whole, a node ID followed to another symbol).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from bridge.context import AppContext
from bridge.contract.errors import BadInputError, NotFoundError, UnavailableError
from bridge.contract.nav_shapes import TargetLine
from bridge.contract.server_errors import server_error
from bridge.tools.targets import parse_target, to_lsp_position
from lsp import ServerCrashedError, ServerGaveUpError, ServerRequestError
from verify import LspPosition, NodeTarget, resolve_live

T = TypeVar("T")


async def retry_once(
    call: Callable[[], Awaitable[T]], app: AppContext | None = None, path: str = ""
) -> T:
    """Run a live query; when its server crashed, run it once more on the restarted one.

    Given `app` and the queried `path`: a server error that the workspace explains
    (e.g. Go modules missing from the module cache) says so, its fix as the hint.
    """
    try:
        try:
            return await call()
        except ServerGaveUpError:
            raise
        except ServerCrashedError:
            return await call()
    except ServerRequestError as exc:
        problems = [] if app is None else app.live.workspace_problems(path)
        if not problems:
            raise server_error(exc) from exc
        cause = f"{problems[0].cause} ({exc.server} failed {exc.method})"
        raise UnavailableError(cause, code="workspace_incomplete", hint=problems[0].fix) from exc


@dataclass(frozen=True, slots=True)
class Aim:
    """Where a TARGET points; for a node ID followed to another symbol (evidence that
    the code moved), the ID asked, the ID answered for, and the evidence."""

    position: LspPosition
    requested: str | None = None
    current: str | None = None
    evidence: str | None = None

    def target(self) -> TargetLine:
        """The answer's `target`, naming both IDs when the asked one was followed."""
        line = TargetLine(path=self.position.path, line=self.position.line + 1)
        if self.requested is not None and self.current is not None:
            line["requestedId"] = self.requested
            line["currentId"] = self.current
        return line

    def warnings(self) -> list[str]:
        """The first warning of an answer for a followed node ID."""
        if self.requested is None:
            return []
        return [followed_warning(self.requested, self.current or "", self.evidence or "")]


def followed_warning(requested: str, current: str, evidence: str) -> str:
    """What an answer for a node ID followed to another says first."""
    return f"{requested} no longer names a symbol: answering for {current} ({evidence})"


async def aim_at(app: AppContext, target: str, name: str | None) -> Aim:
    """Where a TARGET points; a node ID is looked up live first, and followed
    elsewhere only with evidence that it moved (see `verify.resolve_live`)."""
    parsed = parse_target(target, name=name)
    if isinstance(parsed, NodeTarget):
        if parsed.qualname is None:
            raise BadInputError(
                f"{target!r} names a whole file; name a symbol (path#Qual.Name) or a "
                "position (path:LINE[:COL])"
            )
        res = await resolve_live(app, parsed)
        selection = res.live.selection if res.live is not None else None
        if res.live is None or selection is None:
            raise NotFoundError(f"{parsed.node_id}: no live server could locate it")
        position = LspPosition(res.path, selection.start_line, selection.start_char, "")
        if not res.relocated:
            return Aim(position)
        return Aim(position, parsed.node_id, res.live.node_id, res.evidence)
    return Aim(to_lsp_position(app.root, parsed))


def workspace_warnings(app: AppContext, path: str) -> list[str]:
    """What keeps the server for `path` from answering in full, found by its last query."""
    return [problem.warning for problem in app.live.workspace_problems(path)]


def loading_warnings(app: AppContext, path: str) -> list[str]:
    """A warning when the server answered while still loading the workspace."""
    if not app.live.still_loading(path):
        return []
    return [
        "the language server is still loading the workspace: this answer may be "
        "incomplete; ask again in a few seconds"
    ]
