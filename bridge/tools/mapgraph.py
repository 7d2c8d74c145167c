"""map_neighbors, map_impact, map_path: graph answers from the CACHED map.

They say they are static (`source: "map"`, a `note`) and give each edge its
`confidence` and use lines (`at`); with `verify=true` the live server confirms
the listed edges (`verified` per edge: true, false, or null when it could not
be checked) and `verification` sums it up.

Each says how complete it is (verify.mapcheck): `completeness`, with
`completenessReasons`, and the uses linking left open that may stand for an
edge it does not list (`unresolved`, after the answer's own items as far as
the budget goes; `unresolvedCount` has them all). Walks also say their
`depth`, the `order` of their items and the hops whose open uses were weighed
(`hopsChecked`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from bridge.context import AppContext
from bridge.contract.envelope import Envelope, estimate_tokens, ranked_sections
from bridge.contract.errors import BadInputError
from bridge.contract.map_shapes import (
    WALK_ORDER,
    EdgeKinds,
    ImpactAnswer,
    ImpactData,
    ImpactDepth,
    NeighborsAnswer,
    NeighborsData,
    NodeId,
    PathAnswer,
    PathData,
    PathEnd,
    PathStart,
    StaticData,
    Step,
    UnresolvedSite,
    Verify,
    WalkDepth,
    WalkDirection,
)
from bridge.contract.map_verdicts import (
    map_checked,
    unresolved_site,
    verdict_warnings,
    verification_of,
    walked_checked,
)
from bridge.contract.schema_types import Budget
from bridge.tools.mapview import edge_facts, edge_of, map_answer, neighbor, path_of
from bridge.tools.targets import parse_node_id
from map import CodeMap, EdgeKind
from map import Neighbor as Reached
from verify import (
    Edge,
    MapVerdict,
    OpenSites,
    judge_callees,
    judge_dependents,
    judge_path,
    judge_users,
    verify_edges,
)

USE_EDGES: tuple[EdgeKind, ...] = ("calls", "references", "inherits")
PATH_EDGES: tuple[EdgeKind, ...] = (*USE_EDGES, "imports")
"""The edges `map_path` follows (map.graph.query.USE_KINDS)."""
MAX_DEPTH = 10
IMPACT_DEPTH = 2
"""map_impact's depth when none is given: a third of a repository at no limit."""
STATIC_NOTE = (
    "static edges from the cached map, resolved by name through the imports: confidence 1.0 "
    "resolved, 0.9 through a base class; map_neighbors and map_impact list a guess by name "
    "(a receiver of unknown type) apart, in `unresolved` (why `guess`), and a map_path "
    "step may be one (0.5 or less); "
    "pass verify=true to confirm the listed edges with the live server"
)
FIRST_LISTED = 64
"""A graph answer builds this many items, then twice as many, ... until the budget is
reached: a node with thousands of users costs what its answer lists."""


def _static() -> StaticData:
    """What says that an answer's edges come from the map."""
    return StaticData(source="map", note=STATIC_NOTE)


@dataclass
class _Listed:
    """A list of `size` items built from the front only as far as the answer needs
    (`first`): `build(i)` makes item `i`."""

    size: int
    build: Callable[[int], Any]
    built: list[Any] = field(default_factory=list)

    def first(self, count: int) -> list[Any]:
        """The first `count` items (fewer when there are fewer)."""
        while len(self.built) < min(count, self.size):
            self.built.append(self.build(len(self.built)))
        return self.built[:count]


@dataclass
class _Answer:
    """A graph answer in the making: its `data`, the list of its own items (`key`,
    over `edges`), the open uses it lists after them (`verdict`) and its files."""

    data: NeighborsData | ImpactData | PathData
    key: str
    edges: list[Edge]
    items: _Listed
    verdict: MapVerdict
    paths: set[str]


async def _respond(
    app: AppContext,
    code_map: CodeMap,
    answer: _Answer,
    budget: int | None,
    verify: bool,
    *,
    hops: bool = True,
) -> Envelope:
    """The answer, its edges first confirmed live when asked (`verified` per item,
    `verification`: then every item is built); its own items are kept before the
    open uses (`unresolved`, read from the disk only as far as they are listed)."""
    fields, key = cast(dict[str, Any], answer.data), answer.key
    notes = verdict_warnings(answer.verdict)
    if verify:
        fields[key] = answer.items.first(answer.items.size)
        built = code_map.built_at
        verification = await verify_edges(app, code_map, answer.edges)
        for item, edge in zip(fields[key], answer.edges, strict=True):
            item["verified"] = verification.verdicts.get(edge)
        fields["verification"] = verification_of(verification)
        if code_map.built_at != built:
            notes.append("the map was rebuilt while its edges were being verified: ask again")
    sites = OpenSites(code_map.root, answer.verdict.uses)
    unresolved = _Listed(len(sites), lambda i: _site(sites, i, hops))
    ranked = ranked_sections(
        fields,
        (key, answer.items.size, answer.items.first),
        ("unresolved", unresolved.size, unresolved.first),
    )
    budget_tokens, shown = app.budget(budget), FIRST_LISTED
    while shown < ranked.total and estimate_tokens(ranked.keep(shown)) <= budget_tokens:
        shown *= 2
    return map_answer(
        app,
        code_map,
        ranked.keep(min(shown, ranked.total)),
        paths={*answer.paths, *(u.use.path for u in answer.verdict.uses)},
        budget=budget,
        ranked=ranked,
        notes=notes,
    )


def _site(sites: OpenSites, index: int, hop: bool) -> UnresolvedSite:
    return unresolved_site(sites.first(index + 1)[index], hop=hop)


def _walk_answer(
    data: NeighborsData | ImpactData,
    code_map: CodeMap,
    target: str,
    found: list[Reached],
    incoming: bool,
    verdict: MapVerdict,
) -> _Answer:
    """The answer listing the nodes a walk from `target` reached (under `key`)."""
    key = "neighbors" if "neighbors" in data else "dependents"
    edges = [edge_of(n, incoming) for n in found]
    items = _Listed(len(found), lambda i: neighbor(code_map, found[i], incoming))
    paths = {path_of(target), *(path_of(n.node_id) for n in found)}
    return _Answer(data, key, edges, items, verdict, paths)


async def map_neighbors(
    app: AppContext,
    node_id: NodeId,
    direction: WalkDirection = "out",
    kinds: EdgeKinds = None,
    depth: WalkDepth = 1,
    budget: Budget = None,
    verify: Verify = False,
) -> NeighborsAnswer:
    """Graph neighbours of a node: "in" callers/users, "out" callees/uses, over edge
    `kinds` (default calls, references, inherits) to `depth`; `verify=true` checks
    them live. `unresolved`: uses the map could not tie (guesses among them)."""
    if not 1 <= depth <= MAX_DEPTH:
        raise BadInputError(f"depth {depth} is out of range", hint=f"pass 1 to {MAX_DEPTH}")
    target = parse_node_id(node_id).node_id
    code_map = await app.code_map(graph=depth > 1)
    edge_kinds = kinds or list(USE_EDGES)
    found = code_map.neighbors(target, direction, edge_kinds, depth, guesses=False)
    one_shot = not app.serving  # no graph loads in the background: read the store
    if direction == "in":
        verdict = judge_users(code_map, [target], found, depth, edge_kinds, from_store=one_shot)
    else:
        verdict = judge_callees(code_map, target, found, depth, edge_kinds, from_store=one_shot)
    data = NeighborsData(
        **_static(),
        **walked_checked(verdict, depth, WALK_ORDER),
        nodeId=target,
        direction=direction,
        neighbors=[],
    )
    answer = _walk_answer(data, code_map, target, found, direction == "in", verdict)
    return cast(NeighborsAnswer, await _respond(app, code_map, answer, budget, verify))


async def map_path(
    app: AppContext,
    source: PathStart,
    target: PathEnd,
    budget: Budget = None,
    verify: Verify = False,
) -> PathAnswer:
    """The shortest chain of edges from one node to another: `steps` with kind and
    `confidence` (`verify=true`: checked live). None found is partial when
    `unresolved` uses may hide one."""
    start, end = parse_node_id(source).node_id, parse_node_id(target).node_id
    code_map = await app.code_map(graph=True)
    chain = code_map.path(start, end)
    edges = [
        Edge(user, used, _kind_between(code_map, user, used))
        for user, used in itertools.pairwise(chain)
    ]
    verdict = _FOUND if chain else judge_path(code_map, start, end, PATH_EDGES)
    data = PathData(
        {
            **_static(),
            **map_checked(verdict),
            "from": start,
            "to": end,
            "path": chain,
            "found": bool(chain),
            "steps": [],
        }
    )
    items = _Listed(len(edges), lambda i: _step(code_map, edges[i]))
    answer = _Answer(data, "steps", edges, items, verdict, {path_of(n) for n in chain})
    return cast(PathAnswer, await _respond(app, code_map, answer, budget, verify, hops=False))


_FOUND = MapVerdict(True, (), (), 0)
"""A path found: nothing could make it more found."""


def _kind_between(code_map: CodeMap, user: str, used: str) -> str:
    """The use kind of the edge `map_path` followed from `user` to `used`."""
    kinds = code_map.edge_kinds(user, used)
    return min((k for k in kinds if k != "contains"), default="contains")


def _step(code_map: CodeMap, edge: Edge) -> Step:
    facts = edge_facts(code_map, edge.user, edge.used, edge.kind)
    return Step(
        {
            "from": edge.user,
            "to": edge.used,
            "via": cast(EdgeKind, edge.kind),
            "confidence": facts.confidence,
            "at": list(facts.at),
        }
    )


async def map_impact(
    app: AppContext,
    node_id: NodeId,
    depth: ImpactDepth = IMPACT_DEPTH,
    budget: Budget = None,
    verify: Verify = False,
) -> ImpactAnswer:
    """What depends on a node (or its members), transitively, nearest first, to
    `depth` (default 2; null: no limit): use before changing it. `verify=true`
    checks edges live; `unresolved`: uses the map could not tie."""
    if depth is not None and not 1 <= depth <= MAX_DEPTH:
        raise BadInputError(f"depth {depth} is out of range", hint=f"pass 1 to {MAX_DEPTH}")
    target = parse_node_id(node_id).node_id
    code_map = await app.code_map(graph=True)
    found = code_map.impact(target, depth, guesses=False)
    verdict = judge_dependents(code_map, target, found, depth)
    data = ImpactData(
        **_static(),
        **walked_checked(verdict, depth, WALK_ORDER),
        nodeId=target,
        count=len(found),
        dependents=[],
    )
    answer = _walk_answer(data, code_map, target, found, True, verdict)
    return cast(ImpactAnswer, await _respond(app, code_map, answer, budget, verify))
