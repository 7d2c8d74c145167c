"""What a change introduced: each diagnostic `new` or `existing` against a baseline.

The baseline is what the same servers report for the same files with the
changed files put back as they were at `since` (`LivePool.diagnostics_as_if`),
the cheapest honest one: only the files with diagnostics now are asked again,
those not already had in the same baseline state (`bridge.tools.baseline_cache`),
and nothing when the change has no source files (then every diagnostic is
`existing`, and the answer is kept as that state's baseline). A diagnostic is
`existing` when the baseline has one in the same file with the same severity,
code and message, on a line with the same text, or failing that one whose
message differs past its first line only (tsserver spells out in a message's
later lines the types the change moved: `This expression is not callable`,
then the union's members); each baseline one matched once. It is `new`
otherwise, and `unknown` when its file's baseline did not come in time.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bridge.context import AppContext
from bridge.contract.change_shapes import DiagnosticChange, DiagnosticsBaseline
from bridge.tools.baseline_cache import BaselineState, baseline_state
from disk.errors import DiskError
from disk.text import decode_source, read_source_bytes
from memory import Diff

if TYPE_CHECKING:
    from lsp import Diagnostic, DiagnosticsReport

_Key = tuple[str, str, str | None, str, str]


@dataclass(frozen=True, slots=True)
class Told:
    """Each diagnostic's change (in the order given) and the baseline used."""

    changes: list[DiagnosticChange]
    baseline: DiagnosticsBaseline


async def tell_new(
    app: AppContext,
    found: list[Diagnostic],
    now: Mapping[str, DiagnosticsReport],
    diff: Diff,
    before: dict[str, str],
    within: float,
) -> Told:
    """Tell which of `found` (from the reports `now`, by path) the change `diff` made,
    `before` being the changed source files' texts at its commit by their path now."""
    commit = diff.since
    state = baseline_state(app.root, diff, before)
    asked = sorted({d.path for d in found})
    if not before:
        _keep(app, state, now)
        baseline = _baseline(commit, 0, 0, [], "no file changed: every diagnostic is existing")
        return Told(["existing"] * len(found), baseline)
    kept = {p: r for p in asked if (r := app.baselines.get(state, p)) is not None}
    wanted = [p for p in asked if p not in kept]
    fresh = await app.live.diagnostics_as_if(before, wanted, within=within) if wanted else {}
    _keep(app, state, fresh)
    reports = kept | fresh
    missing = [p for p in asked if p not in reports or not reports[p].settled]
    lines = _Lines(app.root, before)
    old = Counter(_key(d, lines.before(d.path)) for r in reports.values() for d in r.diagnostics)
    keys = [_key(d, lines.now(d.path)) for d in found]
    changes: list[DiagnosticChange | None] = [
        "unknown" if d.path in missing else None for d in found
    ]
    heads = Counter(_head(k) for k in old.elements())
    for i, key in enumerate(keys):  # the same message first
        if changes[i] is None and old[key] > 0:
            old[key] -= 1
            heads[_head(key)] -= 1
            changes[i] = "existing"
    for i, key in enumerate(keys):  # then the same first line of it
        if changes[i] is None and heads[_head(key)] > 0:
            heads[_head(key)] -= 1
            changes[i] = "existing"
    message = (
        f"the servers' diagnostics with the {len(before)} changed files as at {commit[:12]}"
        + (f"; {len(kept)} of the files' from an earlier answer in that state" if kept else "")
        + (f"; no baseline in time for {len(missing)} files" if missing else "")
    )
    told: list[DiagnosticChange] = [c or "new" for c in changes]
    return Told(told, _baseline(commit, len(before), len(asked), missing, message))


def _keep(app: AppContext, state: BaselineState, reports: Mapping[str, DiagnosticsReport]) -> None:
    """Keep `reports` as `state`'s baseline, but for those of a server still loading the
    workspace (their lists may lack items)."""
    loaded = {p: r for p, r in reports.items() if not app.live.still_loading(p)}
    app.baselines.put(state, loaded)


def _baseline(
    commit: str, changed: int, checked: int, missing: list[str], message: str
) -> DiagnosticsBaseline:
    return DiagnosticsBaseline(
        kind="since",
        commit=commit,
        changedFiles=changed,
        checkedFiles=checked,
        missing=missing,
        message=message,
    )


def _key(d: Diagnostic, lines: list[str]) -> _Key:
    text = lines[d.line - 1].strip() if 0 < d.line <= len(lines) else ""
    return (d.path, d.severity, d.code, d.message, text)


def _head(key: _Key) -> _Key:
    """`key` with its message cut to the first line."""
    path, severity, code, message, text = key
    return (path, severity, code, message.partition("\n")[0], text)


class _Lines:
    """The lines of each file now (the disk) and at the baseline, read once."""

    def __init__(self, root: Path, before: dict[str, str]) -> None:
        self._root = root
        self._before = {path: text.splitlines() for path, text in before.items()}
        self._now: dict[str, list[str]] = {}

    def now(self, path: str) -> list[str]:
        if path not in self._now:
            try:
                data = read_source_bytes(self._root / path)
                self._now[path] = decode_source(data, path=path).splitlines()
            except (DiskError, OSError):
                self._now[path] = []
        return self._now[path]

    def before(self, path: str) -> list[str]:
        return self._before[path] if path in self._before else self.now(path)
