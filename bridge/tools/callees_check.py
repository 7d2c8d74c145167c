"""nav_callees' live answer, found for functions held by a constant, and checked.

tsserver prepares the call hierarchy of `const f = (...) => ...` at the name,
but of `const f = ((...) => ...) as F` at no place on the name: the item is
then prepared on the arrow (`=>`) of the declaration. The answer is checked
against the map: every symbol of ours the map sees the function call must be
among the callees listed (`missed` names those that are not); a function the
map does not hold cannot be checked (`unchecked`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bridge.context import AppContext
from bridge.contract.nav_shapes import CalleesReason
from bridge.contract.schema_types import Completeness
from disk.columns import from_utf16, to_utf16
from disk.errors import DiskError
from disk.paths import resolve_in_root
from disk.text import read_source
from lsp import CallSite
from map import MapError
from verify import LspPosition

ARROW_LINES = 5
"""Lines of a declaration searched for its arrow."""


@dataclass(frozen=True, slots=True)
class CalleesCheck:
    """How complete a callees answer is, and the map's callees it missed."""

    completeness: Completeness
    reasons: list[CalleesReason]
    missed: list[str]


async def live_callees(
    app: AppContext,
    position: LspPosition,
    ask: Callable[[LspPosition], Awaitable[list[CallSite]]],
) -> list[CallSite]:
    """`ask` at `position`; when nothing comes, at the arrow of the declaration there."""
    found = await ask(position)
    if found:
        return found
    arrow = _arrow(app, position)
    return found if arrow is None else await ask(arrow)


def _arrow(app: AppContext, position: LspPosition) -> LspPosition | None:
    try:
        lines = read_source(resolve_in_root(app.root, position.path)).splitlines()
    except DiskError:
        return None
    for number in range(position.line, min(position.line + ARROW_LINES, len(lines))):
        text = lines[number]
        start = 0 if number > position.line else from_utf16(text, position.character)
        at = text.find("=>", start)
        if at >= 0:
            return LspPosition(position.path, number, to_utf16(text, at), text)
    return None


async def check_callees(
    app: AppContext, position: LspPosition, sites: list[CallSite]
) -> CalleesCheck:
    """The callees the map sees the function at `position` call that `sites` lack."""
    code_map = await app.code_map()
    try:
        symbols = code_map.symbols_in(position.path)
    except MapError:
        symbols = []
    node = next(
        (
            s
            for s in symbols
            if s.selection.start_line == position.line
            and s.selection.start_char <= position.character <= s.selection.end_char
        ),
        None,
    )
    if node is None or not code_map.has_node(node.node_id):
        reason = CalleesReason(
            code="unchecked",
            message="the map holds no symbol at the target: the callees could not be checked",
        )
        return CalleesCheck("partial", [reason], [])
    listed = {site.name.rpartition(".")[2] for site in sites}
    seen = code_map.neighbors(node.node_id, "out", ["calls"], 1)
    missed = sorted(
        {n.node_id for n in seen if n.node_id.rpartition("#")[2].rpartition(".")[2] not in listed}
    )
    if not missed:
        return CalleesCheck("complete", [], [])
    reason = CalleesReason(
        code="callees_missed",
        message=f"the map sees {len(missed)} calls to symbols of ours the server did not "
        f"list ({', '.join(missed[:3])}): see `missed`",
    )
    return CalleesCheck("partial", [reason], missed)
