"""Baseline diagnostics already had, kept by the workspace state they were had in.

A baseline (`bridge.tools.diagnostic_baseline`) is the servers' diagnostics with
the changed files put back as at `since`. That workspace does not depend on
which files a change modified: every modified source file is sent as at
`since`, and every other file is as at `since` already. It moves only with the
commit, the files the change added (sent empty), deleted or renamed, and the
changed files that are not sent (no server's language, or no text at
`since`: the server reads those from the disk, so their stamps count). That is
the `BaselineState`; a file's baseline report is kept under it, so a second
change, or the same one asked again, does not hold the servers with the old
texts again for the files already asked. An answer to a workspace equal to
its baseline state (no source file changed) is that baseline itself.

What no diff shows is taken as unchanged: files git ignores (node_modules)
and the servers' configuration.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from disk.stamps import FileStamp

if TYPE_CHECKING:
    from lsp import DiagnosticsReport
    from memory import Diff

MAX_REPORTS = 4096
"""Baseline reports kept (one per file and state), the least recently used dropped."""


@dataclass(frozen=True, slots=True)
class BaselineState:
    """What a baseline workspace is, past the commit's tree (see the module)."""

    commit: str
    moved: frozenset[tuple[str, str, str | None]]
    """(path, change kind, new path) of the files added, deleted or renamed."""
    on_disk: frozenset[tuple[str, Hashable]]
    """(path, stamp) of the changed files left as on disk."""


def baseline_state(root: Path, diff: Diff, sent: Mapping[str, str]) -> BaselineState:
    """The state of the baseline of `diff` when the texts `sent` (by path now) are
    sent in place of the disk's."""
    moved: set[tuple[str, str, str | None]] = set()
    on_disk: set[tuple[str, Hashable]] = set()
    for old, change in diff.files.items():
        now = change.new_path or old
        if change.kind != "modified":
            moved.add((old, change.kind, change.new_path))
        if change.kind != "deleted" and now not in sent:
            on_disk.add((now, FileStamp.of(root / now)))
    return BaselineState(diff.since, frozenset(moved), frozenset(on_disk))


class BaselineCache:
    """Baseline reports by (state, path), at most `limit` of them."""

    def __init__(self, limit: int = MAX_REPORTS) -> None:
        self._limit = limit
        self._reports: OrderedDict[tuple[BaselineState, str], DiagnosticsReport] = OrderedDict()

    def get(self, state: BaselineState, path: str) -> DiagnosticsReport | None:
        """The settled report of `path` in `state`, if one was kept."""
        report = self._reports.get((state, path))
        if report is not None:
            self._reports.move_to_end((state, path))
        return report

    def put(self, state: BaselineState, reports: Mapping[str, DiagnosticsReport]) -> None:
        """Keep the settled ones of `reports` (by path) as had in `state`."""
        for path, report in reports.items():
            if report.settled:
                self._reports[(state, path)] = report
                self._reports.move_to_end((state, path))
        while len(self._reports) > self._limit:
            self._reports.popitem(last=False)
