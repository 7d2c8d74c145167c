"""Point 4: whether map answers say how complete they are, and how complete they
are: map callers against the tree-sitter truth's call sites (each call's
innermost enclosing symbol is a caller), map_impact's default depth and
whether it says how the shown dependents were chosen, map_path between a
function and one it calls."""

from __future__ import annotations

import re
from typing import Any

import orjson
from accuracy.sample import CALLABLE_KINDS, Symbol

from agentview.session import Answer, Session
from agentview.tally import Findings
from agentview.workspace import WHOLE_BUDGET, Workspace

MAP_TOOLS = ("map_neighbors", "map_impact", "map_path", "map_changes")
ORDER_KEYS = frozenset({"order", "orderedBy", "ordering", "chosenBy", "selection", "sortedBy"})
ORDER_WORDS = re.compile(r"ordered by|sorted by|ranked by|nearest first|closest first|chosen by")


def completeness(answer: Answer) -> str:
    """What a map answer says of its own completeness: `complete`, `partial`, or
    `unstated` (no field)."""
    value = answer.data.get("completeness")
    if isinstance(value, dict):
        value = value.get("status")
    return str(value) if value else "unstated"


def record_completeness(findings: Findings, answer: Answer) -> None:
    """Point 4's first row: a map answer listing edges without a completeness."""
    if answer.tool not in MAP_TOOLS or not answer.ok:
        return
    tally = findings.tally("4a", "map answers with no `completeness`")
    unstated = completeness(answer) == "unstated"
    tally.record(unstated, answer.tool)
    tally.counts[f"{answer.tool} unstated"] += unstated


def callable_sample(ws: Workspace, count: int) -> list[Symbol]:
    """Seeded functions and methods the truth sees called: half of them (rounded up)
    called from another file than their own, where the map must link across files."""
    pool = ws.ranked(
        [s for s in ws.symbols if s.kind in CALLABLE_KINDS and s.calls and not s.macro], "callers"
    )
    across = [s for s in pool if any(o.path != s.path for o in s.calls)][: (count + 1) // 2]
    return across + [s for s in pool if s not in across][: count - len(across)]


async def check_map(
    session: Session, ws: Workspace, findings: Findings, sizes: tuple[int, int, int]
) -> None:
    """Callers of `sizes[0]` functions, impact of `sizes[1]`, paths for `sizes[2]`."""
    sample = callable_sample(ws, sizes[0])
    tally = findings.tally("4b", "map callers vs the truth: silent partial answers")
    for symbol in sample:
        answer = await session.ask(
            "map_neighbors",
            node_id=symbol.node_id,
            direction="in",
            kinds=["calls"],
            budget=WHOLE_BUDGET,
        )
        record_completeness(findings, answer)
        truth = {ws.enclosing(o.path, o.line) for o in symbol.calls}
        listed = {str(n.get("nodeId")) for n in answer.data.get("neighbors") or []}
        tally.counts["true callers"] += len(truth)
        tally.counts["listed"] += len(listed)
        tally.counts["listed and true"] += len(listed & truth)
        short = bool(truth - listed)
        extra = findings.figures.setdefault("map callers not in the truth", [])
        extra.extend(f"{symbol.node_id} <- {n}" for n in sorted(listed - truth)[:2])
        tally.record(
            short and completeness(answer) != "partial",
            f"{symbol.node_id}: {len(listed & truth)} of {len(truth)} callers, "
            f"missing {sorted(truth - listed)[:2]}",
        )
    for symbol in sorted(sample, key=lambda s: -len(s.calls))[: sizes[1]]:
        await _impact(session, findings, symbol)
    for caller, callee in _call_pairs(ws, sample)[: sizes[2]]:
        answer = await session.ask("map_path", source=caller, target=callee, budget=WHOLE_BUDGET)
        record_completeness(findings, answer)
        found = bool(answer.data.get("found")) or bool(answer.data.get("path"))
        findings.tally("4d", "map_path: no path from a function to one it calls, unflagged").record(
            not found and completeness(answer) != "partial", f"{caller} -> {callee}"
        )


async def _impact(session: Session, findings: Findings, symbol: Symbol) -> None:
    answer = await session.ask("map_impact", node_id=symbol.node_id)
    record_completeness(findings, answer)
    data = answer.data
    shown = data.get("dependents") or []
    count = int(data.get("count") or len(shown))
    depth = data.get("depth")
    said_order = bool(ORDER_KEYS & set(data)) or bool(
        ORDER_WORDS.search(_text(data, answer.envelope.get("truncated"), answer.warnings))
    )
    tally = findings.tally(
        "4c", "map_impact default: no depth stated, or items cut without saying how chosen"
    )
    tally.record(
        not isinstance(depth, int) or (len(shown) < count and not said_order),
        f"{symbol.node_id}: depth {depth!r}, {len(shown)} of {count} shown",
    )
    distances = [int(d.get("distance", 0)) for d in shown if isinstance(d, dict)]
    tally.counts["dependents (count)"] += count
    tally.counts["shown"] += len(shown)
    tally.counts["deepest shown"] = max(tally.counts["deepest shown"], max(distances, default=0))
    tally.counts["depth stated"] += isinstance(depth, int)


def _call_pairs(ws: Workspace, sample: list[Symbol]) -> list[tuple[str, str]]:
    """(caller, callee) node IDs where the callee's call sits in the caller's body."""
    pairs = []
    for symbol in sample:
        for call in symbol.calls:
            caller = ws.enclosing(call.path, call.line)
            if "#" in caller and caller != symbol.node_id:
                pairs.append((caller, symbol.node_id))
                break
    return pairs


def _text(*parts: Any) -> str:
    return " ".join(orjson.dumps(p).decode() for p in parts)
