"""How complete a map answer is: its edges weighed against the uses linking left open.

The map ties a use to a definition by name through the imports; a use it
could not tie (an unknown receiver, a call through a local, a name with too
many definitions to guess, a guess by name) is recorded (map.linking.unresolved). A
guess by name is no edge an answer lists (map_neighbors and map_impact walk only
the edges that hold): it is one of these open uses. A use typed as something not
ours (`outside`: a library's module or type) is ruled out. A graph answer is
`complete` when no open use could stand for an edge it does not list, else
`partial` with one reason per cause:

| answer                       | the open uses that stand against it                        |
|------------------------------|------------------------------------------------------------|
| users (`in`, map_impact)     | uses of the name of a node whose users were walked (inside  |
|                              | listed nodes too): any may be a use the map missed          |
| callees (`out`)              | uses inside the bodies walked that resolve to nothing of    |
|                              | ours: library calls, unknown receivers, calls through locals|
| a path not found             | uses, inside what the start reaches, of the name of a node  |
|                              | that reaches the end: any may be the missing link           |

Hops: the users (or callees) of the nodes at each distance below the depth
are checked, nearest first, for at most `MAX_CHECKED_NODES` nodes; when the
cap stops short, `hops_not_checked` says which hops were not. A use bound by
an import from outside the project, or held by a local, cannot stand for a
project symbol's use; a bare name cannot stand for a member in a language
where members are always reached through a receiver (`RECEIVER_LANGUAGES`).
A server checks nothing while the map's graph is not loaded (`graph_not_loaded`:
it loads in the background, and an answer does not wait for it); while its link
loads after the graph, the open uses are read from the map's store when they
lie in a few files, else not weighed (`link_not_loaded`). A one-shot process
(`from_store`), where nothing loads in the background, reads the names and the
open uses it weighs from the store instead (the map loads what the store cannot
answer).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import cast

from map import CodeMap, EdgeKind, Neighbor, UnresolvedUse, language_for
from verify.map_reasons import (
    MapReason,
    MapReasonCode,
    OpenUse,
    callees_reason,
    count_uses,
    counted,
    split_reasons,
    users_reason,
)

MAX_CHECKED_NODES = 256
"""Nodes whose open uses one answer weighs (nearest first): a deep walk over a large
repository is checked as far as this goes, and says so."""
RECEIVER_LANGUAGES = frozenset({"python", "typescript", "tsx", "javascript", "go", "rust", "php"})
"""Languages where a member is always named through a receiver (`self.x`, `obj.x`)."""
MEMBER_KINDS = frozenset({"method", "field", "property", "constructor"})
CONSTRUCTOR_NAMES = frozenset({"__init__", "__construct"})
"""Methods a use of their class's name calls (`Cart()`, `new Cart()`): its open uses
are weighed too."""
NOT_A_USER = frozenset({"outside", "local", "builtin"})
"""Why-codes of open uses that cannot be a use of a project symbol of their name."""
IMPACT_USES = frozenset({"calls", "references", "inherits"})
"""The uses an impact walk follows that a use in code can stand for (not `imports`)."""
EVERY_HOP = 10**9
"""A walk's depth with no limit (the closures a path check needs)."""


@dataclass(frozen=True, slots=True)
class MapVerdict:
    """How complete one map answer is: `uses` in the order answers list them, and the
    hops whose open uses were weighed (`hops_checked` of the answer's depth)."""

    complete: bool
    reasons: tuple[MapReason, ...]
    uses: tuple[OpenUse, ...]
    hops_checked: int


def judge_users(
    code_map: CodeMap,
    starts: Sequence[str],
    reached: Sequence[Neighbor],
    depth: int,
    kinds: Collection[str],
    *,
    from_store: bool = False,
) -> MapVerdict:
    """An answer listing the users of `starts` (distance 0) that `reached` them over
    edges of `kinds`, to `depth`: the open uses of the walked nodes' names, inside
    the nodes listed too (a caller listed for one call may hold another use its
    `at` lines do not have; `from_store`: see the module docstring)."""
    if not code_map.graph_loaded and not from_store:
        return _not_loaded()
    walked, hops = _walked(starts, reached, depth)
    names = _Names.of(code_map, walked)
    open_uses = code_map.unresolved_named(names.first)
    if open_uses is None:
        return _not_linked()
    found = [
        OpenUse(use, names.first[use.name][0])
        for use in open_uses
        if use.kind in kinds and names.may_mean(use)
    ]
    found.sort(key=lambda u: names.first[u.use.name])
    uses = _distinct(found)
    return _verdict(split_reasons(uses, users_reason), uses, hops, depth)


def judge_dependents(
    code_map: CodeMap, target: str, found: Sequence[Neighbor], depth: int | None
) -> MapVerdict:
    """An answer listing what depends on `target` or its members (`found`, as the map's
    impact walk gives it, to `depth`; None: no limit): `judge_users` from the target
    and every member, over the uses an impact follows."""
    members = code_map.neighbors(target, "out", ["contains"], EVERY_HOP)
    walked = depth if depth is not None else max((n.distance for n in found), default=0) + 1
    starts = [target, *(m.node_id for m in members)]
    return judge_users(code_map, starts, found, walked, IMPACT_USES)


def judge_changes(verdicts: Sequence[MapVerdict], removed: int) -> MapVerdict:
    """A change's blast radius as a whole (`verdicts`: one per changed symbol still in the
    map; `removed`: symbols gone from it, whose remaining uses the map no longer has):
    partial when any symbol's dependents are, one reason per cause."""
    reasons: list[MapReason] = []
    for code in dict.fromkeys(r.code for v in verdicts for r in v.reasons):
        first = next(r for v in verdicts for r in v.reasons if r.code == code)
        count = sum(any(r.code == code for r in v.reasons) for v in verdicts)
        reasons.append(MapReason(code, f"{count} changed symbols: {first.message}"))
    if removed:
        reasons.append(
            MapReason(
                "symbols_removed",
                f"{removed} symbols were removed: the map no longer has their remaining "
                "uses (nav_diagnostics shows what their removal broke)",
            )
        )
    return MapVerdict(not reasons, tuple(reasons), (), 0)


def judge_callees(
    code_map: CodeMap,
    start: str,
    reached: Sequence[Neighbor],
    depth: int,
    kinds: Collection[str],
    *,
    from_store: bool = False,
) -> MapVerdict:
    """An answer listing what `start` uses (`reached` over edges of `kinds`, to
    `depth`): the uses inside the walked bodies that resolve to nothing of ours
    (`from_store`: see the module docstring)."""
    if not code_map.graph_loaded and not from_store:
        return _not_loaded()
    walked, hops = _walked([start], reached, depth)
    open_uses = code_map.unresolved_within(walked)
    if open_uses is None:
        return _not_linked()
    found = [
        OpenUse(use, walked[use.scope] + 1)
        for use in open_uses
        if use.kind in kinds and not (use.why == "local" and use.kind == "references")
    ]
    found.sort(key=lambda u: u.hop)
    uses = _distinct(found)
    return _verdict(
        split_reasons(uses, lambda u: callees_reason(u, len(walked))), uses, hops, depth
    )


def judge_path(code_map: CodeMap, source: str, target: str, kinds: Collection[str]) -> MapVerdict:
    """An answer that found no path from `source` to `target` over edges of `kinds`:
    the open uses, inside what `source` reaches, of the names of what reaches `target`."""
    if not code_map.graph_loaded:
        return _not_loaded()
    edges = cast(list[EdgeKind], list(kinds))
    ahead = {source, *(n.node_id for n in code_map.neighbors(source, "out", edges, EVERY_HOP))}
    behind = code_map.neighbors(target, "in", edges, EVERY_HOP)
    names = _Names.of(code_map, {target: 0, **{n.node_id: n.distance for n in behind}})
    open_uses = code_map.unresolved_named(names.first)
    if open_uses is None:
        return _not_linked()
    uses = _distinct(
        OpenUse(use, 0)
        for use in open_uses
        if use.kind in kinds and use.scope in ahead and names.may_mean(use)
    )
    reasons = []
    if uses:
        reasons.append(
            MapReason(
                "unresolved_uses",
                f"{count_uses(uses)} inside what {source} reaches name something that leads to "
                f"{target}, but the map could not tie them to a definition "
                f"({counted(uses)}): any may be the link a path needs (in `unresolved`)",
            )
        )
    return _verdict(reasons, uses, 0, 0)


@dataclass(frozen=True, slots=True)
class _Names:
    """The names of the nodes whose users are weighed: for each, the hop its uses
    would be found at and the rank of its first node (`first`), and which names a
    bare use may stand for (`bare`: not only receiver-reached members)."""

    first: dict[str, tuple[int, int]]
    bare: frozenset[str]

    @classmethod
    def of(cls, code_map: CodeMap, walked: dict[str, int]) -> _Names:
        """The names of `walked` (node -> distance): from the graph when it is loaded,
        else from the store."""
        first: dict[str, tuple[int, int]] = {}
        bare: set[str] = set()
        named = (
            code_map.names_of(walked) if code_map.graph_loaded else _stored_names(code_map, walked)
        )
        for rank, (node_id, (name, kind)) in enumerate(named.items()):
            first.setdefault(name, (walked[node_id] + 1, rank))
            if not _member_only(node_id, kind):
                bare.add(name)
            owner = _class_built(node_id, name)
            if owner:
                first.setdefault(owner, (walked[node_id] + 1, rank))
                bare.add(owner)
        return cls(first, frozenset(bare))

    def may_mean(self, use: UnresolvedUse) -> bool:
        """Whether an open use may stand for a use of a node of its name."""
        return use.why not in NOT_A_USER and (use.receiver is not None or use.name in self.bare)


def _stored_names(code_map: CodeMap, node_ids: Iterable[str]) -> dict[str, tuple[str, str]]:
    """`CodeMap.names_of` read from the map's store, one node at a time (a one-shot
    answer weighs a few)."""
    named: dict[str, tuple[str, str]] = {}
    for node_id in node_ids:
        found = code_map.attrs(node_id)
        if found is not None and found["kind"] != "file":
            named[node_id] = (found["name"], found["kind"])
    return named


def _walked(
    starts: Sequence[str], reached: Sequence[Neighbor], depth: int
) -> tuple[dict[str, int], int]:
    """The nodes whose uses are weighed, nearest first (node -> distance; at most
    `MAX_CHECKED_NODES`), and how many hops that covers in full."""
    ahead = [(node, 0) for node in starts]
    ahead += [(n.node_id, n.distance) for n in reached if n.distance < depth]
    walked = dict(ahead[:MAX_CHECKED_NODES])
    if len(ahead) <= MAX_CHECKED_NODES:
        return walked, depth
    return walked, ahead[MAX_CHECKED_NODES][1]  # every node nearer than the first left out


def _class_built(node_id: str, name: str) -> str:
    """The name of the class a constructor builds (`a.php#Cart.__construct`: Cart), or
    "" for another node."""
    if name not in CONSTRUCTOR_NAMES:
        return ""
    owner = node_id.partition("#")[2].rpartition(".")[0]
    return owner.rpartition(".")[2].partition("~")[0]


def _member_only(node_id: str, kind: str) -> bool:
    """Whether the node is a member that code always names through a receiver."""
    return kind in MEMBER_KINDS and language_for(node_id.partition("#")[0]) in RECEIVER_LANGUAGES


def _distinct(uses: Iterable[OpenUse]) -> tuple[OpenUse, ...]:
    """One use per name per line, the first."""
    seen: dict[tuple[str, int, str], OpenUse] = {}
    for found in uses:
        seen.setdefault((found.use.path, found.use.line, found.use.name), found)
    return tuple(seen.values())


def _verdict(
    reasons: list[MapReason], uses: tuple[OpenUse, ...], hops: int, depth: int
) -> MapVerdict:
    if hops < depth:
        covered = f"hops 1 to {hops}" if hops else "no hop in full"
        reasons.append(
            MapReason(
                "hops_not_checked",
                f"open uses were weighed for the nearest {MAX_CHECKED_NODES} nodes walked, "
                f"which covers {covered} of {depth}: hops {hops + 1} to {depth} may miss more "
                "than `unresolved` lists",
            )
        )
    return MapVerdict(not reasons, tuple(reasons), uses, hops)


def _not_linked() -> MapVerdict:
    return _not_weighed(
        "link_not_loaded",
        "the map's link is still loading (seconds after a server starts): the uses linking "
        "left open lie in more files than are read from the store meanwhile, and were not "
        "weighed; ask again once map_status says linkLoaded",
    )


def _not_loaded() -> MapVerdict:
    return _not_weighed(
        "graph_not_loaded",
        "answered from the map's store without loading its graph: the uses linking left "
        "open were not weighed; ask with depth 2 or more (which loads the graph), or again "
        "once a server's map_status says graphLoaded",
    )


def _not_weighed(code: MapReasonCode, message: str) -> MapVerdict:
    """A partial answer whose open uses were not weighed, and why."""
    return MapVerdict(False, (MapReason(code, message),), (), 0)
