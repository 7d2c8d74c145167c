"""What a rename preview leaves: every site naming the symbol that its edits miss.

A server's rename edits what it resolves as the symbol. The preview is checked
against every site that names it, each left site listed (`notRenamed`) with
why it counts:

    reference_not_edited  a live reference of the symbol the edits leave
    name_unconfirmed      a use of the name in code that the cross-check of
                          the references could not confirm nor rule out
                          (`verify.cross_checked`: an unknown receiver, a
                          dynamic call) and the edits leave
    base_declaration      the same method in a base class (the map's
                          inherits edges, up to HIERARCHY_DEPTH), not edited:
                          the rename splits the method from the one it
                          overrides (an abstract base keeps the old name)
    override              the same method in a subclass, not edited
    overload              another definition of the same name in the same class
                          (an `@overload` stub, the implementation), not edited
    protocol_use          (the method of a Protocol) a place naming the Protocol,
                          where a value must match it structurally: its class
                          or module keeps the old name, which no reference of
                          the method shows
    reexported_as_alias   an edit that renames an export as `new as old`:
                          the public name stays the old one, and the code
                          using it keeps it

The preview is `complete` when no site is left here and its trial on the live
servers (bridge.tools.rename_trial: `error_after_rename`) finds no error the
edits add.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from bridge.context import AppContext
from bridge.contract.change_shapes import NotRenamed, NotRenamedWhy
from bridge.contract.schema_types import Completeness
from bridge.tools.live_target import Aim, retry_once
from disk.columns import from_utf16
from disk.errors import DiskError
from disk.paths import resolve_in_root
from disk.text import read_source
from lsp import FileEdits, Location, LspError
from map import CodeMap, MapError, Range, Symbol
from verify import cross_checked, stands_against

HIERARCHY_DEPTH = 5
"""Inheritance edges followed up and down from the renamed method's class."""
MAX_OVERLOADS = 50
"""Same-named definitions of a class (`@overload` stubs: `~2`, `~3`, ...) looked at."""


@dataclass(frozen=True, slots=True)
class RenameCheck:
    """Whether the edits cover every site, and the sites they leave."""

    completeness: Completeness
    left: list[NotRenamed]
    old: str
    """The name renamed."""


async def check_rename(app: AppContext, aim: Aim, new: str, edits: list[FileEdits]) -> RenameCheck:
    """The sites naming the symbol at `aim` that `edits` (renaming it `new`) leave."""
    at = aim.position
    old = _name_at(app, at.path, at.line, at.character)
    edited = {(e.path, t.start_line + 1) for e in edits for t in e.edits}
    found, verdict = await cross_checked(
        app,
        at,
        "references",
        lambda: retry_once(
            lambda: app.live.references(at.path, at.line, at.character), app, at.path
        ),
        _places,
    )
    left: dict[tuple[str, int], NotRenamedWhy] = {}
    for place in sorted(_places(found)):
        left.setdefault(place, "reference_not_edited")
    for site in verdict.unconfirmed:
        if stands_against("references", site):
            left.setdefault((site.path, site.line), "name_unconfirmed")
    code_map = await app.code_map()
    for place, why in _hierarchy(code_map, at.path, at.line, old):
        left.setdefault(place, why)
    for place in await _protocol_uses(app, code_map, at.path, at.line, old):
        left.setdefault(place, "protocol_use")
    for place in edited:
        left.pop(place, None)
    alias = re.compile(rf"\b{re.escape(new)}\s+as\s+{re.escape(old)}\b")
    for e in edits:
        for t in e.edits:
            if alias.search(t.new_text):
                left[(e.path, t.start_line + 1)] = "reexported_as_alias"
    listed = [
        NotRenamed(path=path, line=line, text=_line(app, path, line), why=why)
        for (path, line), why in sorted(left.items())
    ]
    return RenameCheck("partial" if listed else "complete", listed, old)


async def _protocol_uses(
    app: AppContext, code_map: CodeMap, path: str, line: int, name: str
) -> list[tuple[str, int]]:
    """Where the Protocol class the renamed method belongs to is named (outside its own
    definition): a value standing for it there must have the method under its new
    name, a structural match no reference of the method shows."""
    owner = _owner(code_map, path, line, name)
    if owner is None:
        return []
    header = _line(app, path, owner.selection.start_line + 1)
    if not re.search(r"\bProtocol\b", header):
        return []
    where = owner.selection
    try:
        found = await app.live.references(path, where.start_line, where.start_char)
    except LspError:
        return []
    inside = range(owner.range.start_line + 1, owner.range.end_line + 2)
    return sorted(p for p in _places(found) if not (p[0] == path and p[1] in inside))


def _owner(code_map: CodeMap, path: str, line: int, name: str) -> Symbol | None:
    """The class holding the method named `name` whose name is on the 0-based `line`."""
    try:
        symbols = code_map.symbols_in(path)
    except MapError:
        return None
    method = next((s for s in symbols if s.selection.start_line == line and s.name == name), None)
    if method is None or not method.container:
        return None
    qualname = ".".join(method.container)
    return next((s for s in symbols if s.qualname == qualname), None)


def _places(found: list[Location]) -> set[tuple[str, int]]:
    return {(loc.path, loc.line) for loc in found}


def _hierarchy(
    code_map: CodeMap, path: str, line: int, name: str
) -> list[tuple[tuple[str, int], NotRenamedWhy]]:
    """The other same-named definitions of the renamed method's class (`overload`),
    and the same-named methods of the classes it inherits from (`base_declaration`)
    and of those inheriting from it (`override`)."""
    held = _owner(code_map, path, line, name)
    if held is None or not code_map.has_node(held.node_id):
        return []
    owner = held.node_id
    found: list[tuple[tuple[str, int], NotRenamedWhy]] = []
    base_id = f"{owner}.{name}"
    for number in range(1, MAX_OVERLOADS + 1):
        sibling = base_id if number == 1 else f"{base_id}~{number}"
        if not code_map.has_node(sibling):
            break
        where = code_map.node(sibling).get("selection")
        if isinstance(where, Range) and where.start_line != line:
            found.append(((path, where.start_line + 1), "overload"))
    sides: tuple[tuple[str, NotRenamedWhy], ...] = (
        ("out", "base_declaration"),
        ("in", "override"),
    )
    for direction, why in sides:
        for other in code_map.neighbors(owner, direction, ["inherits"], HIERARCHY_DEPTH):
            member = f"{other.node_id}.{name}"
            if "#" in other.node_id and code_map.has_node(member):
                where = code_map.node(member).get("selection")
                if isinstance(where, Range):
                    found.append(((member.partition("#")[0], where.start_line + 1), why))
    return found


def _name_at(app: AppContext, path: str, line: int, character: int) -> str:
    """The identifier at the 0-based position (the name being renamed)."""
    text = _line(app, path, line + 1, strip=False)
    column = from_utf16(text, character)
    for match in re.finditer(r"\w+", text):
        if match.start() <= column <= match.end():
            return match.group()
    return ""


def _line(app: AppContext, path: str, line: int, *, strip: bool = True) -> str:
    try:
        lines = read_source(resolve_in_root(app.root, path)).splitlines()
    except DiskError:
        return ""
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    return text.strip() if strip else text
