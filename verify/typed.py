"""Candidate sites the map ties to something else than the symbol asked about.

A live answer is cross-checked against every line naming the symbol
(verify.completeness); a namesake's use there (`runner.invoke` on a library's
type, `other.invoke` on another class, a local of the same name) is no use the
server missed. Where the map's link types every use of the name on a line to
another symbol (`other`: a method of another class, a local that shadows it,
another definition) or to a library's (`library`: a member of a library's module
or type), the site takes that role and stands against nothing. A use the map
could not type (an unknown receiver, a guess by name, a bare name it could not
tie) keeps its role: it may be the symbol's.

The symbol asked about is known by its qualified name: the map's symbol of the
name defined at the queried line, else what the map ties the use there to.
Only files the map holds as they are on disk are weighed, and only lines where
each occurrence of the name is a use the map tied.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from map import CodeMap, UseTie
from verify.sites import Role, Site

WEIGHED: frozenset[Role | None] = frozenset({"call", "use", "inherits"})
"""The roles of the sites whose ties are weighed (uses in code)."""
_LIBRARY_WHY = frozenset({"outside", "builtin"})
_OTHER_WHY = frozenset({"local"})


def typed_elsewhere(
    code_map: CodeMap, target: tuple[str, int], name: str, sites: Sequence[Site]
) -> list[Site]:
    """`sites` with the role `other` or `library` where the map ties every use of
    `name` on the line to something else than the symbol at `target` ((path, 1-based
    line) of the question); the rest as they were."""
    weighed = [s for s in sites if s.role in WEIGHED]
    ours = _ours(code_map, target, name) if weighed else None
    if not ours:
        return list(sites)
    roles: dict[tuple[str, int], Role] = {}
    for path in sorted({s.path for s in weighed}):
        if path in code_map.stale_files() or code_map.changed_on_disk(path):
            continue
        ties = code_map.ties(path, name)
        if ties is None:
            break  # the link is loading: nothing more is weighed
        by_line: dict[int, list[UseTie]] = {}
        for tie in ties:
            by_line.setdefault(tie.line, []).append(tie)
        for site in weighed:
            held = by_line.get(site.line) if site.path == path else None
            role = _role(held, ours) if held and _each_tied(site, name, held) else None
            if role is not None:
                roles[site.place] = role
    return [replace(s, role=roles[s.place]) if s.place in roles else s for s in sites]


def _ours(code_map: CodeMap, target: tuple[str, int], name: str) -> frozenset[str]:
    """The qualified names the symbol asked about goes by: the map's definitions of
    `name` at the target line, else what the map ties the use there to."""
    path, line = target
    defined = frozenset(
        s.qualname
        for s in code_map.symbols_in(path)
        if s.name == name and s.selection.first_line == line
    )
    if defined:
        return defined
    ties = code_map.ties(path, name) or []
    return frozenset(_qualname(t) for tie in ties if tie.line == line for t in tie.targets)


def _role(ties: Sequence[UseTie], ours: frozenset[str]) -> Role | None:
    """`library` or `other` when every tie names something not ours, else None."""
    library = other = 0
    for tie in ties:
        if tie.targets and not any(_qualname(t) in ours for t in tie.targets):
            other += 1
        elif tie.why in _LIBRARY_WHY:
            library += 1
        elif tie.why in _OTHER_WHY:
            other += 1
        else:
            return None
    return "library" if library and not other else "other"


def _each_tied(site: Site, name: str, ties: Sequence[UseTie]) -> bool:
    """Whether the map tied as many uses on the line as the line names `name` (a
    name the extraction saw no use of, an attribute read, may be the symbol's)."""
    return len(re.findall(rf"(?<!\w){re.escape(name)}(?!\w)", site.text)) <= len(ties)


def _qualname(node_id: str) -> str:
    """A symbol node ID's qualified name (`path#Qual.Name~2` -> `Qual.Name`)."""
    return node_id.partition("#")[2].partition("~")[0]
