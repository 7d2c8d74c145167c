"""Point 1: a node ID whose path is wrong (a file that does not exist, a one-letter
typo in the file's name, a typo in a folder's name) must fail with `unknown_id`,
never be answered for another symbol; for a typo, the right file's ID should be
the first suggestion."""

from __future__ import annotations

import hashlib
import posixpath
import re

from accuracy.sample import Symbol

from agentview.session import Answer, Session
from agentview.tally import Findings, Tally
from agentview.workspace import Workspace

TOOLS = ("resolve", "nav_references")
VARIANTS = {
    "1a": "node ID naming a file that does not exist",
    "1b": "node ID with a one-letter typo in the file name",
    "1c": "node ID with a one-letter typo in a folder name",
}
NODE_ID = re.compile(r"[\w./-]+#[\w.~$]+")


async def check_targets(session: Session, ws: Workspace, findings: Findings, count: int) -> None:
    """Ask each tool about the wrong IDs of `count` sampled symbols (those in a folder first)."""
    pool = ws.ranked(ws.symbols, "targets")
    pool.sort(key=lambda s: "/" not in s.path)
    for symbol in pool[:count]:
        for point, wrong in _wrong_ids(ws, symbol).items():
            tally = findings.tally(point, VARIANTS[point])
            for tool in TOOLS:
                answer = await session.ask(tool, target=wrong)
                _count(answer, wrong, symbol, tally)
                tally.record(answer.ok, f"{tool} {wrong} -> {_answered_for(answer)}")


def _wrong_ids(ws: Workspace, symbol: Symbol) -> dict[str, str]:
    """The variants of the symbol's node ID whose path names nothing on disk."""
    folder, _, file_name = symbol.path.rpartition("/")
    qualified = symbol.node_id.partition("#")[2]
    stem, ext = posixpath.splitext(file_name)
    wrong = {"1a": f"{_join(folder, 'nonexistent' + ext)}#{qualified}"}
    typo = _typo(stem, symbol.node_id)
    if typo is not None:
        wrong["1b"] = f"{_join(folder, typo + ext)}#{qualified}"
    if folder:
        parent, _, last = folder.rpartition("/")
        folder_typo = _typo(last, symbol.node_id)
        if folder_typo is not None:
            wrong["1c"] = f"{_join(_join(parent, folder_typo), file_name)}#{qualified}"
    return {
        point: node_id
        for point, node_id in wrong.items()
        if not (ws.root / node_id.partition("#")[0]).exists()
    }


def _join(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _typo(word: str, seed: str) -> str | None:
    """`word` with one letter (not the first) left out, at a seeded place."""
    if len(word) < 3:
        return None
    at = 1 + hashlib.sha256(seed.encode()).digest()[0] % (len(word) - 1)
    return word[:at] + word[at + 1 :]


def _answered_for(answer: Answer) -> str:
    """The node or file the answer is about, as it says ("" for a failure)."""
    if not answer.ok:
        return f"error {answer.error.get('code')}"
    data = answer.data
    current = data.get("currentId") or (data.get("location") or {}).get("nodeId")
    target = data.get("target") or {}
    return str(current or target.get("nodeId") or target.get("path") or "an answer")


def _count(answer: Answer, wrong: str, symbol: Symbol, tally: Tally) -> None:
    """Sub-counts: silent swaps (answered, no warning naming both IDs), unknown_id
    failures, and those whose first suggested ID is the symbol's own."""
    if answer.ok:
        answered = _answered_for(answer)
        named_both = any(
            wrong in str(w) and answered.partition("#")[0] in str(w) for w in answer.warnings
        )
        tally.counts["answered silently"] += not named_both
        return
    tally.counts[f"error {answer.error.get('code')}"] += 1
    if answer.error.get("code") == "unknown_id":
        others = " ".join(str(v) for k, v in answer.error.items() if k not in {"message", "code"})
        suggested = [s for s in NODE_ID.findall(others) if s != wrong]
        tally.counts["right ID suggested first"] += (
            bool(suggested) and suggested[0] == symbol.node_id
        )
