"""Questions asked of the map's graph: data in, data out, nothing printed.

search (name, glob or regex, with a kind filter), outline of a file,
neighbors (callers/callees/imports/contains) to a depth, the path between
two nodes, impact (transitive dependents) and the overview: a repo map
ranked by PageRank that fits a token budget.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from map.graph.dispatch import dispatchers, implementers
from map.graph.mapgraph import FILE_KIND, MapGraph
from map.graph.overrides import family
from map.graph.patterns import scorer_of
from map.model import CONFIDENCE_GUESSED, EdgeKind

USE_KINDS: frozenset[str] = frozenset({"calls", "references", "inherits", "imports"})
"""Edges that mean "depends on"; `contains` is structure, not use."""
RANK_WEIGHTS: dict[str, float] = {"calls": 1.0, "inherits": 1.0, "references": 0.5, "imports": 0.2}
"""How much each kind of use counts toward a symbol's rank."""
RANK_MIN_CONFIDENCE = 0.9
"""Uses resolved only by name (below this confidence) are too noisy to rank by."""
CONTAINS_WEIGHT = 0.1
"""Rank flowing from a symbol to the members it contains."""
DAMPING = 0.85
RANK_ITERATIONS = 50
RANK_TOLERANCE = 1e-8
CHARS_PER_TOKEN = 4
_CONTAINS = frozenset({"contains"})


@dataclass(frozen=True)
class Hit:
    """A node found by `search`."""

    node_id: str
    kind: str
    name: str
    path: str
    lines: tuple[int, int] | None


@dataclass(frozen=True)
class OutlineEntry:
    """One symbol of a file outline; `depth` 0 is top level."""

    node_id: str
    name: str
    kind: str
    lines: tuple[int, int]
    depth: int


@dataclass(frozen=True)
class Neighbor:
    """A node reached from the start; `via` is the edge kind of the last step,
    `source` the node it was reached from, `confidence` the weakest edge on the way;
    `also`: the other starts it uses by an edge of that kind (a Go caller of both a
    method and an interface method that dispatches to it, a caller of two methods of
    one override family), whose use lines count too."""

    node_id: str
    kind: str
    distance: int
    via: str
    source: str
    confidence: float
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class Overview:
    """The repo map: `text` fits `token_budget`; `entries` are the symbols shown, best first."""

    text: str
    entries: tuple[str, ...]
    tokens: int
    token_budget: int
    truncated: bool
    ranked: int
    """How many symbols were ranked (`entries` are the first of them that fit)."""


def search(
    graph: MapGraph, pattern: str, *, kinds: Iterable[str] | None = None, limit: int = 50
) -> list[Hit]:
    """Nodes whose name matches `pattern`.

    `re:REGEX` (or a pattern with regex characters) is a regex searched in
    names, then qualified names, then node IDs, so `re:^get_` finds names
    that start with `get_`; one with `*`/`?` is a glob matched against the
    same three; anything else matches names case-insensitively: exact first,
    then prefix, then substring. Raises BadPatternError for a broken regex.
    """
    nodes = ((node_id, data) for node_id, data in graph.nodes(data=True))
    return search_nodes(nodes, pattern, kinds=kinds, limit=limit)


def search_nodes(
    nodes: Iterable[tuple[str, Mapping[str, Any]]],
    pattern: str,
    *,
    kinds: Iterable[str] | None = None,
    limit: int = 50,
) -> list[Hit]:
    """`search` over (node ID, attributes) pairs from anywhere (the graph, the store)."""
    wanted = frozenset(kinds) if kinds is not None else None
    scored: list[tuple[int, str, Mapping[str, Any]]] = []
    matcher = scorer_of(pattern)
    for node_id, data in nodes:
        if wanted is not None and data["kind"] not in wanted:
            continue
        score = matcher(node_id, data)
        if score is not None:
            scored.append((score, node_id, data))
    scored.sort(key=lambda found: found[:2])
    return [_hit(node_id, data) for _, node_id, data in scored[:limit]]


def outline(graph: MapGraph, path: str) -> list[OutlineEntry]:
    """The symbols of file `path`, nested by `contains`, in file order."""
    entries: list[OutlineEntry] = []
    stack = [(child, 0) for child in reversed(_children(graph, path))]
    while stack:
        node_id, depth = stack.pop()
        data = graph.nodes[node_id]
        entries.append(OutlineEntry(node_id, data["name"], data["kind"], data["lines"], depth))
        stack.extend((child, depth + 1) for child in reversed(_children(graph, node_id)))
    return entries


def neighbors(
    graph: MapGraph,
    node_id: str,
    direction: str = "out",
    kinds: Iterable[EdgeKind] | None = None,
    depth: int = 1,
    *,
    guesses: bool = True,
) -> list[Neighbor]:
    """Nodes reached along edges of `kinds` ("out": callees, "in": callers), breadth
    first; along edges guessed by name too unless `guesses` is False. A Go method's
    callers include those of the interface methods that may dispatch to it, an
    interface method's those of the methods it may dispatch to; a TS/JS method's
    those of the methods it overrides and that override them (map.graph.overrides)."""
    if direction not in {"in", "out"}:
        raise ValueError(f"direction must be 'in' or 'out', not {direction!r}")
    allowed = frozenset(kinds) if kinds is not None else USE_KINDS
    floor = -1.0 if guesses else CONFIDENCE_GUESSED
    loops = [  # a recursive function is its own caller and callee
        Neighbor(node_id, graph.nodes[node_id]["kind"], 1, kind, node_id, data["confidence"])
        for _, other, kind, data in graph.out_edges(node_id, keys=True, data=True)
        if kind in allowed and other == node_id and data["confidence"] > floor
    ][:1]
    starts = [node_id]
    if direction == "in":  # a Go method's callers include its interfaces' (map.graph.dispatch)
        starts += dispatchers(graph, node_id) + implementers(graph, node_id)
        starts += family(graph, node_id)
    found = _walk(graph, starts, direction == "in", allowed, depth, floor)
    if len(starts) > 1:
        found = [
            _with_other_starts(graph, n, starts, floor) if n.distance == 1 else n for n in found
        ]
    return loops + found


def _with_other_starts(
    graph: MapGraph, found: Neighbor, starts: list[str], floor: float
) -> Neighbor:
    """`found` (a caller) with the other starts it calls by an edge of the same kind
    whose confidence is above `floor` (a guess never adds its lines to a tie's)."""
    also = tuple(
        s
        for s in starts
        if s != found.source
        and graph.has_edge(found.node_id, s, found.via)
        and graph.edges[found.node_id, s, found.via].get("confidence", 1.0) > floor
    )
    return replace(found, also=also) if also else found


def path(
    graph: MapGraph, source: str, target: str, kinds: Iterable[EdgeKind] | None = None
) -> list[str]:
    """The shortest directed chain of node IDs from `source` to `target` along edges
    of `kinds` (default: uses, not `contains`); [] when there is none. Ties go to
    the chain that is first in ID order."""
    allowed = frozenset(kinds) if kinds is not None else USE_KINDS
    parents: dict[str, str | None] = {source: None}
    frontier = [source]
    while frontier and target not in parents:
        following: list[str] = []
        for current in frontier:
            for _, other, kind in sorted(graph.out_edges(current, keys=True)):
                if kind in allowed and other not in parents:
                    parents[other] = current
                    following.append(other)
        frontier = following
    if target not in parents:
        return []
    chain: list[str] = []
    step: str | None = target
    while step is not None:
        chain.append(step)
        step = parents[step]
    return chain[::-1]


def impact(
    graph: MapGraph, node_id: str, depth: int | None = None, *, guesses: bool = True
) -> list[Neighbor]:
    """Everything that uses `node_id` or one of its members, transitively (to `depth`);
    through edges guessed by name too unless `guesses` is False."""
    members = [node_id, *(e.node_id for e in _walk(graph, [node_id], False, _CONTAINS, len(graph)))]
    members += [found for member in list(members) for found in dispatchers(graph, member)]
    reach = depth if depth is not None else len(graph)
    found = _walk(graph, members, True, USE_KINDS, reach, -1.0 if guesses else CONFIDENCE_GUESSED)
    inside = set(members)
    return [n for n in found if n.node_id not in inside]


def overview(graph: MapGraph, token_budget: int, ordered: list[str] | None = None) -> Overview:
    """The most central symbols, grouped by file, in at most `token_budget` tokens
    (`ordered` as `ranked` gives them, when already known)."""
    ordered = ranked(graph, rank(graph)) if ordered is None else ordered
    by_file: dict[str, list[str]] = {}
    budget_chars = token_budget * CHARS_PER_TOKEN
    used = 0
    shown: list[str] = []
    for node_id in ordered:
        data = graph.nodes[node_id]
        cost = len(_entry_line(data)) + 1
        if data["path"] not in by_file:
            cost += len(data["path"]) + 2
        if used + cost > budget_chars:
            break
        used += cost
        by_file.setdefault(data["path"], []).append(node_id)
        shown.append(node_id)
    lines: list[str] = []
    for file_path, members in by_file.items():
        lines.append(f"{file_path}:")
        members.sort(key=lambda n: graph.nodes[n]["lines"])
        lines.extend(_entry_line(graph.nodes[n]) for n in members)
    text = "\n".join(lines)
    return Overview(
        text=text,
        entries=tuple(shown),
        tokens=-(-len(text) // CHARS_PER_TOKEN),
        token_budget=token_budget,
        truncated=len(shown) < len(ordered),
        ranked=len(ordered),
    )


def ranked(graph: MapGraph, ranks: dict[str, float]) -> list[str]:
    """The symbols (not files) of the graph, most central first (ties by ID)."""
    symbols = sorted(n for n, d in graph.nodes(data=True) if d["kind"] != FILE_KIND)
    # stable, reversed too: ties stay in ID order; keys are the ranks' own floats
    symbols.sort(key=lambda n: ranks.get(n, 0.0), reverse=True)
    return symbols


def rank(graph: MapGraph) -> dict[str, float]:
    """Weighted PageRank of the graph: uses weigh by kind and confidence.

    The weighted links are held as flat arrays (about 24 bytes a link): as
    tuples in lists they were the largest transient of a loaded server."""
    nodes = list(graph.nodes)
    size = len(nodes)
    if not size:
        return {}
    index = {n: i for i, n in enumerate(nodes)}
    sources, ends, targets, shares = array("l"), array("l"), array("i"), array("d")
    for u, neighbours in graph.adjacency():
        row: dict[int, float] = {}
        for v, keys in neighbours.items():
            for kind, data in keys.items() if v != u else ():
                confidence = data.get("confidence", 1.0)
                weight = CONTAINS_WEIGHT if kind == "contains" else RANK_WEIGHTS.get(kind, 0.0)
                if weight > 0 and confidence >= RANK_MIN_CONFIDENCE:
                    row[index[v]] = row.get(index[v], 0.0) + weight * confidence
        total = sum(row.values())
        if total > 0:
            sources.append(index[u])
            targets.extend(row)
            shares.extend(w / total for w in row.values())
            ends.append(len(targets))
    del index  # the largest transient: gone before the scores and the answer come
    has_out = bytearray(size)
    for i in sources:
        has_out[i] = 1
    dangling_nodes = array("l", (i for i in range(size) if not has_out[i]))
    del has_out
    scores = array("d", [1.0 / size]) * size
    for _ in range(RANK_ITERATIONS):
        dangling = sum(scores[i] for i in dangling_nodes)
        base = (1.0 - DAMPING + DAMPING * dangling) / size
        following = array("d", [base]) * size
        start = 0
        for i, end in zip(sources, ends, strict=True):
            share = DAMPING * scores[i]
            for j, w in zip(targets[start:end], shares[start:end], strict=True):
                following[j] += share * w
            start = end
        change = sum(abs(a - b) for a, b in zip(following, scores, strict=True))
        scores = following
        if change < RANK_TOLERANCE * size:
            break
    del sources, ends, targets, shares  # before the answer's floats come
    return dict(zip(nodes, scores, strict=True))


def _walk(
    graph: MapGraph,
    starts: list[str],
    backwards: bool,
    kinds: frozenset[str],
    depth: int,
    floor: float = -1.0,
) -> list[Neighbor]:
    """The nodes reached from `starts` along edges of `kinds` whose confidence is
    above `floor`, breadth first."""
    seen = set(starts)
    found: list[Neighbor] = []
    queue: deque[tuple[str, int, float]] = deque((s, 0, 1.0) for s in starts)
    while queue:
        current, distance, confidence = queue.popleft()
        if distance >= depth:
            continue
        edges = (
            graph.in_edges(current, keys=True, data=True)
            if backwards
            else graph.out_edges(current, keys=True, data=True)
        )
        steps = sorted(
            ((u if backwards else v), k, d)
            for u, v, k, d in edges
            if k in kinds and d.get("confidence", 1.0) > floor
        )
        for other, kind, data in steps:
            if other in seen:
                continue
            seen.add(other)
            weakest = min(confidence, data.get("confidence", 1.0))
            found.append(
                Neighbor(other, graph.nodes[other]["kind"], distance + 1, kind, current, weakest)
            )
            queue.append((other, distance + 1, weakest))
    return found


def _children(graph: MapGraph, node_id: str) -> list[str]:
    children = [v for _, v, k in graph.out_edges(node_id, keys=True) if k == "contains"]
    return sorted(children, key=lambda n: (graph.nodes[n]["lines"], n))


def _hit(node_id: str, data: Mapping[str, Any]) -> Hit:
    return Hit(
        node_id=node_id,
        kind=data["kind"],
        name=data.get("name", data["path"]),
        path=data["path"],
        lines=data.get("lines"),
    )


def _entry_line(data: dict[str, Any]) -> str:
    first, last = data["lines"]
    return f"  {data['kind']} {data['qualname']}  L{first}-{last}"
