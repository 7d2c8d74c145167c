"""A rename preview tried on the live servers before anything is written.

The edits are sent to the servers in place of the files' content on disk
(`LivePool.diagnostics_as_if`, as a diagnostics baseline is), and the errors
of the edited files and of the files importing them (the map's imports edges,
up to IMPORT_DEPTH hops; a C or C++ file's includers through other headers)
are compared with those the same files have now: an error the rename would
add is a site it leaves broken, whether or not it
names the symbol (a class that stood for a Protocol through the renamed
method, a use of a type whose member was renamed, the cascade that follows).
Errors are compared by file, severity, code, message and line text, with the
new name read as the old one. Files past the caps of `nav_diagnostics`, or
whose diagnostics did not come in time, are named as not checked.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bridge.context import AppContext
from bridge.contract.change_shapes import NotRenamed, RenameTrial, UntriedFile
from bridge.tools.change_scope import ToCheck, import_depth
from bridge.tools.diagnostics import within_caps
from lsp import LspError
from map import MapError

if TYPE_CHECKING:
    from lsp import Diagnostic, DiagnosticsReport

IMPORT_DEPTH = 2
"""Hops along imports edges from an edited file (a re-exporting module counts one; a
C or C++ file's includers are followed as `nav_diagnostics` follows them)."""

_Key = tuple[str, str, str | None, str, str]


@dataclass(frozen=True, slots=True)
class TrialError:
    """An error the renamed code would have that the code has not now."""

    path: str
    line: int
    message: str


@dataclass(frozen=True, slots=True)
class Trial:
    """The errors the rename adds, how many files were checked, and those that were not
    (path and why)."""

    errors: list[TrialError]
    checked: int
    not_checked: list[tuple[str, str]]


async def try_rename(app: AppContext, texts: dict[str, str], old: str, new: str) -> Trial:
    """The errors the edited `texts` (by path) would add, on the live servers."""
    wanted, capped = await within_caps(app, await _scope(app, list(texts)))
    within = app.live_settings.cold_start_deadline
    left = [(f.path, f"over the cap of {cap} files") for f, cap in capped]
    try:
        after = await app.live.diagnostics_as_if(texts, [f.path for f in wanted], within=within)
    except LspError as exc:
        return Trial([], 0, [(f.path, str(exc)) for f in wanted] + left)
    broken = sorted(
        p for p, r in after.items() if any(d.severity == "error" for d in r.diagnostics)
    )
    now = await asyncio.gather(*(_now(app, p, within) for p in broken))
    left += [(p, "no diagnostics in time") for p, r in after.items() if not r.settled]
    left += [(p, r) for p, r in zip(broken, now, strict=True) if isinstance(r, str)]
    left += [(f.path, "no server") for f in wanted if f.path not in after]
    disk: dict[str, list[str]] = {}
    before = Counter(
        _key(d, _lines_now(app, d.path, disk), old, new)
        for r in now
        if not isinstance(r, str)
        for d in r.diagnostics
    )
    errors = []
    for path in broken:
        lines = texts[path].splitlines() if path in texts else _lines_now(app, path, disk)
        for d in after[path].diagnostics:
            if d.severity != "error":
                continue
            key = _key(d, lines, old, new)
            if before[key] > 0:
                before[key] -= 1
            else:
                errors.append(TrialError(d.path, d.line, d.message))
    return Trial(errors, len(after), sorted(dict(left).items()))


async def _scope(app: AppContext, edited: list[str]) -> list[ToCheck]:
    """The edited files, then the files importing them (nearest first)."""
    found = {path: ToCheck(path, "changed") for path in edited}
    try:
        code_map = await app.code_map()
        for path in edited:
            if not code_map.has_node(path):
                continue
            depth = import_depth(app, path, IMPORT_DEPTH)
            for user in code_map.neighbors(path, "in", ["imports"], depth):
                file = user.node_id.partition("#")[0]
                if app.catalog.language_of(file) is not None:
                    found.setdefault(file, ToCheck(file, "imports_changed_file"))
    except MapError:
        pass  # the edited files alone
    return list(found.values())


async def _now(app: AppContext, path: str, within: float) -> DiagnosticsReport | str:
    """The diagnostics of `path` as it is on disk (a sentence when they cannot be had)."""
    try:
        report = await app.live.diagnostics(path, within=within)
    except LspError as exc:
        return str(exc)
    return report if report.settled else "no diagnostics in time"


def _lines_now(app: AppContext, path: str, cache: dict[str, list[str]]) -> list[str]:
    """The lines of `path` on disk, read once."""
    if path not in cache:
        try:
            text = (app.root / path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        cache[path] = text.splitlines()
    return cache[path]


def _key(d: Diagnostic, lines: list[str], old: str, new: str) -> _Key:
    text = lines[d.line - 1].strip() if 0 < d.line <= len(lines) else ""
    return (d.path, d.severity, d.code, d.message.replace(new, old), text.replace(new, old))


def trial_sites(
    app: AppContext, trial: Trial, texts: dict[str, str], listed: list[NotRenamed]
) -> list[NotRenamed]:
    """The lines the trial found broken that `listed` does not hold yet, one each, with
    the line as the rename leaves it and the first error there."""
    seen = {(site["path"], site["line"]) for site in listed}
    disk: dict[str, list[str]] = {}
    found = []
    for error in trial.errors:
        if (error.path, error.line) in seen:
            continue
        seen.add((error.path, error.line))
        lines = (
            texts[error.path].splitlines()
            if error.path in texts
            else _lines_now(app, error.path, disk)
        )
        text = lines[error.line - 1].strip() if 0 < error.line <= len(lines) else ""
        found.append(
            NotRenamed(
                path=error.path,
                line=error.line,
                text=text,
                why="error_after_rename",
                message=error.message,
            )
        )
    return found


def trial_shape(trial: Trial) -> RenameTrial:
    """The trial as the answer shows it."""
    return RenameTrial(
        checkedFiles=trial.checked,
        newErrors=len(trial.errors),
        notChecked=[UntriedFile(path=p, message=m) for p, m in trial.not_checked],
    )
