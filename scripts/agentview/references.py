"""Points 2 and 3: what nav_references shows within the default budget, and what
its `unconfirmed` list and labels say, judged against the tree-sitter truth.

Each sampled symbol is asked twice: with the default budget (what an agent
gets) and with the largest (to tell what the default one dropped).
"""

from __future__ import annotations

import re
from collections import Counter

import orjson
from accuracy.sample import Symbol

from agentview.session import Answer, Session
from agentview.tally import Findings, unreported_cuts
from agentview.workspace import WHOLE_BUDGET, Workspace

ROOM = 0.5
"""An `unconfirmed` list cut while the whole answer used less than this share of
its budget was cut by something other than the budget."""
CHARS_PER_TOKEN = 4


async def check_references(
    session: Session, ws: Workspace, findings: Findings, count: int, mentions: int
) -> None:
    """`count` sampled symbols, plus the `mentions` ones the source names most often
    outside their truth (comments, strings, other code)."""
    sample = ws.ranked(ws.symbols, "references")[:count]
    words = _word_counts(ws)
    noisy = sorted(
        (s for s in ws.symbols if s not in sample),
        key=lambda s: (len(s.truth) - words[s.name], s.node_id),
    )[:mentions]
    seen_sites: set[tuple[str, int, int]] = set()
    for symbol in [*sample, *noisy]:
        default = await session.ask("nav_references", target=symbol.node_id)
        whole = await session.ask("nav_references", target=symbol.node_id, budget=WHOLE_BUDGET)
        if not default.ok or not whole.ok:
            findings.tally("2a", "").counts["errors"] += 1
            continue
        _budget_order(findings, symbol, default, whole)
        _unconfirmed_cap(findings, symbol, whole)
        for answer in (default, whole):
            cuts = unreported_cuts(answer.envelope)
            findings.tally(
                "3b", "nav_references: a cut inside data the envelope's truncated omits"
            ).record(bool(cuts), f"{symbol.node_id} budget {_budget(answer)}: {cuts}")
        _labels(findings, ws, whole, seen_sites)


def _budget_order(findings: Findings, symbol: Symbol, default: Answer, whole: Answer) -> None:
    data = default.data
    locations = _sites(data.get("locations"))
    unconfirmed = data.get("unconfirmed") or []
    count = int(data.get("count") or 0)
    findings.tally(
        "2a", "default budget: count > 0, no confirmed location, unconfirmed items listed"
    ).record(
        count > 0 and not locations and bool(unconfirmed),
        f"{symbol.node_id}: count {count}, 0 locations, {len(unconfirmed)} unconfirmed",
    )
    truth = {(o.path, o.line) for o in symbol.truth}
    dropped = (_sites(whole.data.get("locations")) & truth) - locations
    claims_complete = data.get("completeness") == "complete"
    tally = findings.tally("2b", "default budget: `complete` claimed with items dropped")
    listed = len(data.get("locations") or [])
    tally.record(
        claims_complete and (bool(dropped) or listed < count),
        f"{symbol.node_id}: complete, {len(dropped)} true sites dropped "
        f"({listed} of count {count} listed)",
    )
    tally.counts["true sites"] += len(truth)
    tally.counts["true sites listed (default budget)"] += len(truth & locations)


def _unconfirmed_cap(findings: Findings, symbol: Symbol, whole: Answer) -> None:
    total = int(whole.data.get("unconfirmedCount") or 0)
    listed = len(whole.data.get("unconfirmed") or [])
    if not total:
        return
    used = len(orjson.dumps(whole.envelope)) / CHARS_PER_TOKEN
    findings.tally("3a", "`unconfirmed` cut with the budget far from used (budget 50,000)").record(
        listed < total and used < ROOM * WHOLE_BUDGET,
        f"{symbol.node_id}: {listed} of {total} unconfirmed listed, ~{used:.0f} tokens used",
    )


def _labels(
    findings: Findings, ws: Workspace, answer: Answer, seen: set[tuple[str, int, int]]
) -> None:
    """Every unconfirmed site labelled a comment or string mention, against the parse."""
    tally = findings.tally("3c", "sites labelled text/mention that are code")
    for item in answer.data.get("unconfirmed") or []:
        site = (str(item.get("path")), int(item.get("line", 0)), int(item.get("column", 0)))
        if site in seen or not (ws.root / site[0]).is_file():
            continue
        seen.add(site)
        in_text = ws.sources.in_comment_or_string(*site)
        if item.get("source") == "text" or item.get("seenAs") == "mention":
            tally.record(not in_text, f"{site[0]}:{site[1]}: {ws.sources.line_text(*site[:2])!r}")
            macro = not in_text and ws.sources.in_macro_body(*site)
            tally.counts["code in a C macro body"] += macro
        else:
            tally.counts["code labels on comments or strings"] += in_text


def _sites(items: object) -> set[tuple[str, int]]:
    if not isinstance(items, list):
        return set()
    return {(str(i.get("path")), int(i.get("line", 0))) for i in items if isinstance(i, dict)}


def _budget(answer: Answer) -> str:
    return str(answer.arguments.get("budget", "default"))


def _word_counts(ws: Workspace) -> Counter[str]:
    """How often each word occurs in the language's files, anywhere."""
    counts: Counter[str] = Counter()
    for path in ws.files:
        counts.update(re.findall(r"\w+", (ws.root / path).read_text(errors="replace")))
    return counts
