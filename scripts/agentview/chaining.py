"""Point 7: answers an agent chains. nav_workspace_symbols results should carry the
symbol's node ID, its container and the line of its name (from the parse);
that result's `path:LINE` with its `name` (as given) fed to nav_references
should answer for the symbol; and every cut inside an answer's `data` should show in the
envelope's `truncated` (judged over every answer of the session)."""

from __future__ import annotations

import re

from accuracy.sample import Symbol

from agentview.session import Session
from agentview.tally import Findings, unreported_cuts
from agentview.workspace import Workspace


async def check_chaining(session: Session, ws: Workspace, findings: Findings, count: int) -> None:
    """`count` symbols, those whose definition starts above its name's line first
    (decorators, attributes, doc comments)."""
    pool = ws.ranked(ws.symbols, "chaining")
    pool.sort(key=lambda s: _starts_above_name(ws, s) is False)
    for symbol in pool[:count]:
        await _chain(session, ws, findings, symbol)
    await session.ask("map_overview")


def check_envelopes(session: Session, findings: Findings) -> None:
    """7c over every answer so far."""
    tally = findings.tally("7c", "a cut inside data that the envelope's truncated omits (all)")
    for answer in session.answers:
        if answer.ok:
            cuts = unreported_cuts(answer.envelope)
            tally.record(bool(cuts), f"{answer.tool}: {cuts}")
            for cut in cuts:
                tally.counts[f"{answer.tool}: {cut}"] += 1


async def _chain(session: Session, ws: Workspace, findings: Findings, symbol: Symbol) -> None:
    found = await session.ask("nav_workspace_symbols", query=symbol.name)
    entries = [
        e
        for e in found.data.get("symbols") or []
        if _names(str(e.get("name")), symbol.name) and e.get("path") == symbol.path
    ]
    carry = findings.tally(
        "7a", "nav_workspace_symbols: node ID, container or name line missing or wrong"
    )
    if not entries:
        said_cut = found.truncated is not None
        carry.record(not said_cut, f"{symbol.node_id}: not among the results")
        carry.counts["not found" + (" (cut, said so)" if said_cut else "")] += 1
        return
    entry = entries[0]
    declared = ws.by_id(symbol.node_id)
    container = declared.container if declared is not None else ""
    wrong = {
        "nodeId": entry.get("nodeId") != symbol.node_id,
        "container": bool(container) and _last(entry.get("container")) != container,
        "line": entry.get("line") != symbol.line,
    }
    carry.record(
        any(wrong.values()),
        f"{symbol.node_id}: {[k for k, v in wrong.items() if v]} wrong; got "
        f"{entry.get('nodeId')!r}, {entry.get('container')!r}, line {entry.get('line')} "
        f"(name on {symbol.line})",
    )
    for key, bad in wrong.items():
        carry.counts[f"{key} wrong"] += bad
    target = f"{entry.get('path')}:{entry.get('line')}"
    name = str(entry.get("name"))
    refs = await session.ask("nav_references", target=target, name=name)
    truth = {(o.path, o.line) for o in symbol.truth}
    listed = {(loc.get("path"), loc.get("line")) for loc in refs.data.get("locations") or []}
    on_symbol = (refs.data.get("target") or {}).get("line") == symbol.line or bool(listed & truth)
    findings.tally(
        "7b", "a workspace symbol's path:LINE + name fed to nav_references fails or misses"
    ).record(
        not (refs.ok and on_symbol),
        f"{target} name={name}: "
        + (str(refs.error.get("message"))[:120] if not refs.ok else "answered for another line"),
    )


def _names(given: str, name: str) -> bool:
    """A result names the symbol: its name, or a server's qualified spelling of it
    (gopls: `FlagSet.Parse`, `pflag.Parse`)."""
    return given == name or given.endswith(f".{name}")


def _starts_above_name(ws: Workspace, symbol: Symbol) -> bool:
    declared = ws.by_id(symbol.node_id)
    return declared is not None and declared.lines[0] < symbol.line


def _last(container: object) -> str:
    """The innermost name of a container as a server spells it (`a.B`, `(*B)`, `B::C`)."""
    parts = [p for p in re.split(r"[.:/ ]+", re.sub(r"[()*&]", "", str(container or ""))) if p]
    return parts[-1] if parts else ""
