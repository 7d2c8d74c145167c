"""Points 5 and 6, in the scratch clone (restored after each):

5. a required parameter added to a function that another file calls (every
   call the parse ties to it without spread arguments is then broken), then
   `nav_diagnostics {}` and `nav_diagnostics {path}` for each broken caller
   file: is an error shown on the call?
6. a memory anchored to a function whose callee then changes (the truth's call
   site is in the function's body), the memory being fresh (never verified)
   or stale (its own symbol edited and committed): does `map_changes` list it?
"""

from __future__ import annotations

from accuracy.sample import CALLABLE_KINDS, Symbol

from agentview.mapview import record_completeness
from agentview.session import Answer, Session
from agentview.source import Edit, EditError, apply, restore
from agentview.tally import Findings, Tally
from agentview.workspace import Workspace
from tests.gitrepo import git

NAMED_FILES = 3
"""Broken caller files judged per edit (each also asked for by name)."""


async def check_diagnostics(
    session: Session, ws: Workspace, findings: Findings, count: int
) -> None:
    """Break `count` functions' callers, one edit at a time."""
    broad_tally = findings.tally(
        "5a", "nav_diagnostics {}: a broken caller file unreported, `complete` claimed"
    )
    named_tally = findings.tally(
        "5b", "nav_diagnostics {path: broken caller}: no error at the call, `complete` claimed"
    )
    made = 0
    for symbol in ws.ranked(_called_from_elsewhere(ws), "diagnostics"):
        if made >= count:
            break
        try:
            edits = _add_parameter(ws, symbol)
        except EditError as exc:
            broad_tally.counts["edits not made"] += 1
            findings.figures.setdefault("edit errors", []).append(str(exc))
            continue
        made += 1
        broken = _broken_lines(ws, symbol, {e.path for e in edits})
        apply(ws.root, edits)
        try:
            broad = await session.ask("nav_diagnostics")
            named = {path: await session.ask("nav_diagnostics", path=path) for path in broken}
        finally:
            restore(ws.root, edits)
        for path, lines in broken.items():
            _judge_break(broad_tally, broad, symbol, path, lines)
            _judge_break(named_tally, named[path], symbol, path, lines)
    await session.ask("nav_diagnostics")  # the servers see the restored files again


def _broken_lines(ws: Workspace, symbol: Symbol, edited: set[str]) -> dict[str, set[int]]:
    """Files (not edited) whose calls of `symbol` the new parameter breaks, by the
    source: calls the parse ties to it, with no spread of arguments; each with the
    lines of those calls (a server may report on any of them)."""
    broken: dict[str, set[int]] = {}
    for call in symbol.calls:
        if call.direct and call.path not in edited:
            lines = ws.sources.plain_call_lines(call.path, call.line, call.column)
            if lines:
                broken.setdefault(call.path, set()).update(lines)
    return dict(sorted(broken.items())[:NAMED_FILES])


def _judge_break(tally: Tally, answer: Answer, symbol: Symbol, path: str, lines: set[int]) -> None:
    shown = any(
        d.get("path") == path and d.get("severity") == "error" and d.get("line") in lines
        for d in answer.data.get("diagnostics") or []
    )
    complete = answer.data.get("completeness") == "complete"
    tally.record(
        not shown and complete,
        f"{symbol.node_id} given a parameter; {path} broken; answer complete, "
        f"{answer.data.get('errorCount')} errors, files checked "
        f"{[f.get('path') for f in answer.data.get('files') or []]}",
    )
    tally.counts["missed, said partial"] += not shown and not complete


async def check_memories(session: Session, ws: Workspace, findings: Findings) -> None:
    """One fresh and one stale memory whose anchored function's callee changes."""
    tally = findings.tally("6", "map_changes: a memory whose callee changed, not listed")
    pairs = iter(_editable_pairs(ws))
    for state, (caller, callee) in zip(("fresh", "stale"), pairs, strict=False):
        saved = await session.ask(
            "memory_save", text=f"agent-view bench: {caller} ({state})", refs=[caller]
        )
        if not saved.ok:
            tally.counts["memories not saved"] += 1
            continue
        memory = str(saved.data.get("id"))
        try:
            if state == "stale":
                _commit(ws, ws.sources.change_body(*_where(ws, caller)))
                check = await session.ask("memory_check", ids=[memory])
                statuses = [m.get("status") for m in check.data.get("memories") or []]
                tally.counts[f"stale memory's status: {statuses}"] += 1
            edit = ws.sources.change_body(*_where(ws, callee.node_id))
            apply(ws.root, [edit])
            changes = await session.ask("map_changes")
        finally:
            ws.reset()
        record_completeness(findings, changes)
        listed = {str(m.get("id")) for m in changes.data.get("memories") or []}
        tally.record(
            memory not in listed,
            f"{state} memory on {caller}; {callee.node_id} changed; listed {sorted(listed)}",
        )


def _editable_pairs(ws: Workspace) -> list[tuple[str, Symbol]]:
    """The caller-callee pairs whose two bodies the benchmark can change."""
    editable = []
    for caller, callee in _caller_callee_pairs(ws):
        try:
            ws.sources.change_body(*_where(ws, caller))
            ws.sources.change_body(*_where(ws, callee.node_id))
        except EditError:
            continue
        editable.append((caller, callee))
    return editable


def _called_from_elsewhere(ws: Workspace) -> list[Symbol]:
    return [
        s
        for s in ws.symbols
        if s.kind in CALLABLE_KINDS
        and not s.macro
        and any(o.direct and o.path != s.path for o in s.calls)
    ]


def _add_parameter(ws: Workspace, symbol: Symbol) -> list[Edit]:
    edits = [ws.sources.add_parameter(*_where(ws, symbol.node_id))]
    if ws.language == "c":
        others = [p for p in ws.files if p != symbol.path]
        edits.extend(ws.sources.add_parameter_to_prototypes(symbol.name, others))
    return edits


def _caller_callee_pairs(ws: Workspace) -> list[tuple[str, Symbol]]:
    """(caller node ID, callee) where the truth has the call in the caller's body;
    seeded, each callee and caller used once."""
    pairs: list[tuple[str, Symbol]] = []
    used: set[str] = set()
    callees = [s for s in ws.symbols if s.calls and not s.macro]
    for callee in ws.ranked(callees, "memories"):
        for call in callee.calls:
            caller = ws.enclosing(call.path, call.line)
            declared = ws.by_id(caller)
            if (
                declared is None
                or declared.kind not in CALLABLE_KINDS
                or caller == callee.node_id
                or {caller, callee.node_id} & used
            ):
                continue
            pairs.append((caller, callee))
            used |= {caller, callee.node_id}
            break
    return pairs


def _where(ws: Workspace, node_id: str) -> tuple[str, str, tuple[int, int]]:
    declared = ws.by_id(node_id)
    if declared is None:
        raise EditError(f"{node_id} is not in the map's outline")
    return declared.path, declared.name, declared.lines


def _commit(ws: Workspace, edit: Edit) -> None:
    apply(ws.root, [edit])
    git(ws.root, "commit", "-qm", "agent-view bench: edit the anchored symbol", "--", edit.path)
