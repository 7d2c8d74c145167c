"""What a change introduced: each diagnostic `new` or `existing` against a baseline.

The baseline is what the same servers report for the same files with the
changed files put back as they were at `since` (`LivePool.diagnostics_as_if`),
the cheapest honest one: only the files with diagnostics now are asked again,
and nothing when the change has no files (then every diagnostic is
`existing`). A diagnostic is `existing` when the baseline has one in the same
file with the same severity, code and message, on a line with the same text
(each baseline one matched once), `new` otherwise, and `unknown` when its
file's baseline did not come in time.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bridge.context import AppContext
from bridge.contract.change_shapes import DiagnosticChange, DiagnosticsBaseline
from disk.errors import DiskError
from disk.text import decode_source, read_source_bytes

if TYPE_CHECKING:
    from lsp import Diagnostic

_Key = tuple[str, str, str | None, str, str]


@dataclass(frozen=True, slots=True)
class Told:
    """Each diagnostic's change (in the order given) and the baseline used."""

    changes: list[DiagnosticChange]
    baseline: DiagnosticsBaseline


async def tell_new(
    app: AppContext, found: list[Diagnostic], before: dict[str, str], commit: str, within: float
) -> Told:
    """Tell which of `found` the change made, `before` being the changed files' texts at
    `commit` by their path now."""
    asked = sorted({d.path for d in found})
    if not before:
        baseline = _baseline(commit, 0, 0, [], "no file changed: every diagnostic is existing")
        return Told(["existing"] * len(found), baseline)
    reports = await app.live.diagnostics_as_if(before, asked, within=within) if asked else {}
    missing = [p for p in asked if p not in reports or not reports[p].settled]
    lines = _Lines(app.root, before)
    old = Counter(_key(d, lines.before(d.path)) for r in reports.values() for d in r.diagnostics)
    changes: list[DiagnosticChange] = []
    for d in found:
        key = _key(d, lines.now(d.path))
        if d.path in missing:
            changes.append("unknown")
        elif old[key] > 0:
            old[key] -= 1
            changes.append("existing")
        else:
            changes.append("new")
    message = (
        f"the servers' diagnostics with the {len(before)} changed files as at {commit[:12]}"
        + (f"; no baseline in time for {len(missing)} files" if missing else "")
    )
    return Told(changes, _baseline(commit, len(before), len(asked), missing, message))


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
