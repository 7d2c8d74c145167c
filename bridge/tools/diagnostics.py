"""nav_diagnostics: the errors and warnings the LIVE servers see now, after the disk re-sync.

For one file, or for a change: the files changed since a commit (default: the
working tree against HEAD) and the files that use what it changed (first hop,
from the map; see bridge.tools.change_scope), each listed with why it was
checked. Each file's diagnostics are pulled (`source: "pull"`) from servers
that answer `textDocument/diagnostic`, else collected as the server published
them for what it was just sent (`source: "published"`), waiting at most the
cold-start deadline. The answer is `partial` while a server still loads the
workspace (`server_loading`), when a wait timed out (`diagnostics_timeout`),
when files had no server (`no_server`), when there were more files than one
answer checks (`files_capped`), when the users of some changed symbols could
not be looked for (`users_unknown`), or when a C function's declarations conflict
(`conflicting_declaration`: clang leaves its later uses unchecked).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from typing import TYPE_CHECKING, cast

from bridge.context import AppContext
from bridge.contract.change_shapes import (
    DiagnosticChange,
    DiagnosticItem,
    DiagnosticsAnswer,
    DiagnosticsData,
    DiagnosticsFile,
    DiagnosticsPath,
    DiagnosticsReason,
    DiagnosticsScope,
    NotChecked,
    NotCheckedReason,
    Severity,
    Since,
)
from bridge.contract.envelope import ranked_lists, respond
from bridge.contract.errors import ToolError
from bridge.contract.schema_types import Budget
from bridge.tools.change_scope import ChangeScope, ToCheck, change_scope
from bridge.tools.diagnostic_baseline import Told, tell_new
from bridge.tools.live_target import retry_once, workspace_warnings
from bridge.tools.targets import checked_path, parse_node_id
from lsp import LspError, NoServerError, UnsupportedFileError
from memory import Diff, MemoryInputError, diff_files

if TYPE_CHECKING:  # the LSP types load with the first language server, not at start
    from lsp import Diagnostic, DiagnosticsReport

MAX_FILES = 40
"""Files checked in one answer, changed ones first (the rest are named in `notChecked`),
of servers waited for one file at a time (published diagnostics, tsserver)."""
MAX_PULLED_FILES = 200
"""The same cap for the files of servers that answer pulls for many files at once."""
_RANK: dict[str, int] = {"error": 0, "warning": 1, "information": 2, "hint": 3}


def _item(d: Diagnostic, change: DiagnosticChange) -> DiagnosticItem:
    return DiagnosticItem(
        path=d.path,
        line=d.line,
        column=d.column,
        endLine=d.end_line,
        endColumn=d.end_column,
        severity=cast(Severity, d.severity),
        message=d.message,
        code=d.code,
        source=d.source,
        change=change,
    )


def _file(file: ToCheck, report: DiagnosticsReport, loading: bool) -> DiagnosticsFile:
    found = [d.severity for d in report.diagnostics]
    return DiagnosticsFile(
        path=report.path,
        why=file.why,
        symbols=list(file.symbols),
        source=report.source,
        settled=report.settled,
        loading=loading,
        errors=found.count("error"),
        warnings=found.count("warning"),
        total=len(found),
    )


async def nav_diagnostics(
    app: AppContext, path: DiagnosticsPath = None, since: Since = "HEAD", budget: Budget = None
) -> DiagnosticsAnswer:
    """Errors and warnings the live servers report now: for `path`, else for the
    change since `since` (its files and their users), new errors first; `notChecked`
    and `completeness` say what was left."""
    budget_tokens = app.budget(budget)
    if path is not None:
        asked = ToCheck(checked_path(app.root, parse_node_id(path).path), "asked")
        diff = await _diff(app, since)
        scope = ChangeScope([asked], [], diff)
    else:
        scope = await change_scope(app, since)
    wanted, capped = await within_caps(app, scope.files)
    within = app.live_settings.cold_start_deadline

    async def one(file: str) -> DiagnosticsReport | tuple[NotCheckedReason, str]:
        try:
            return await retry_once(lambda: app.live.diagnostics(file, within=within), app, file)
        except (NoServerError, UnsupportedFileError) as exc:
            if path is not None:
                raise
            return "no_server", str(exc)
        except (LspError, ToolError) as exc:  # one file's failure is not the answer's
            if path is not None:
                raise
            return "server_error", str(exc)

    answers: dict[ToCheck, DiagnosticsReport | tuple[NotCheckedReason, str]] = {}
    for start in range(0, len(wanted), app.live.batch):  # each file still open when asked
        batch = wanted[start : start + app.live.batch]
        if len(batch) > 1:  # every file sent first: a server cancels a pull when a file opens
            with contextlib.suppress(LspError):  # each file's own query says it again
                await app.live.sync([f.path for f in batch])
        answers.update(zip(batch, await asyncio.gather(*(one(f.path) for f in batch)), strict=True))
    reports = {f: a for f, a in answers.items() if not isinstance(a, tuple)}
    left = {f: a for f, a in answers.items() if isinstance(a, tuple)}
    loading = {r.path for r in reports.values() if app.live.still_loading(r.path)}
    found = [d for r in reports.values() for d in r.diagnostics]
    warnings = [w for f in wanted[:1] for w in workspace_warnings(app, f.path)]
    now = {r.path: r for r in reports.values()}
    told = await _told(app, found, now, scope.diff, within, warnings)
    unknown: list[DiagnosticChange] = ["unknown"] * len(found)
    changes = told.changes if told is not None else unknown
    ranked = sorted(zip(found, changes, strict=True), key=_rank)
    reasons = _reasons(list(reports.values()), loading, left, len(capped), scope.unknown)
    reasons += _conflicts(found)
    data = DiagnosticsData(
        scope=DiagnosticsScope(path=wanted[0].path) if path is not None else {"since": since},
        errorCount=sum(d.severity == "error" for d in found),
        warningCount=sum(d.severity == "warning" for d in found),
        count=len(found),
        newCount=changes.count("new"),
        newErrorCount=sum(c == "new" and d.severity == "error" for d, c in ranked),
        existingCount=changes.count("existing"),
        baseline=None if told is None else told.baseline,
        completeness="partial" if reasons else "complete",
        completenessReasons=reasons,
        files=[_file(f, r, r.path in loading) for f, r in reports.items()],
        notChecked=[_left_out(f, why, m) for f, (why, m) in left.items()]
        + [_left_out(f, "files_capped", f"over the cap of {cap} files") for f, cap in capped],
        diagnostics=[_item(d, c) for d, c in ranked],
    )
    if reasons:
        codes = ", ".join(r["code"] for r in reasons)
        warnings.append(f"partial answer ({codes}): see data.completenessReasons")
    # the diagnostics are the answer: the lists of files checked and left go first
    order = ranked_lists(data, "diagnostics", "notChecked", "files")
    return respond(data, budget_tokens=budget_tokens, ranked=order, warnings=warnings)


_CHANGE_RANK: dict[str, int] = {"new": 0, "unknown": 1, "existing": 2}


def _rank(item: tuple[Diagnostic, DiagnosticChange]) -> tuple[int, int, str, int, int]:
    """Errors first, and within each severity the new ones first."""
    d, change = item
    return (_RANK.get(d.severity, 4), _CHANGE_RANK[change], d.path, d.line, d.column)


async def within_caps(
    app: AppContext, files: list[ToCheck]
) -> tuple[list[ToCheck], list[tuple[ToCheck, int]]]:
    """The files to check, in order, within the cap of their server's kind (MAX_FILES,
    or MAX_PULLED_FILES for a server answering pulls), and those left with their cap.
    The servers are started first: whether one pulls is known once it runs."""
    if len(files) <= MAX_FILES:
        return files, []
    first = {app.catalog.language_of(f.path): f.path for f in reversed(files)}
    with contextlib.suppress(LspError):
        await app.live.sync(list(first.values()))
    counts: Counter[int] = Counter()
    wanted: list[ToCheck] = []
    capped: list[tuple[ToCheck, int]] = []
    for file in files:
        cap = MAX_PULLED_FILES if app.live.pulls_diagnostics(file.path) else MAX_FILES
        counts[cap] += 1
        if counts[cap] <= cap:
            wanted.append(file)
        else:
            capped.append((file, cap))
    return wanted, capped


async def _diff(app: AppContext, since: str) -> Diff | None:
    """The change from `since` a single file's diagnostics are told against (None:
    no git repository, or no such commit)."""
    try:
        return await asyncio.to_thread(diff_files, app.root, since)
    except MemoryInputError:
        return None


async def _told(
    app: AppContext,
    found: list[Diagnostic],
    now: dict[str, DiagnosticsReport],
    diff: Diff | None,
    within: float,
    warnings: list[str],
) -> Told | None:
    """Which of `found` the change made (None, with a warning: no baseline could be had)."""
    if diff is None:
        warnings.append("no baseline (not a git repository, or no such commit): `change` unknown")
        return None
    before = await asyncio.to_thread(diff.texts_before, app.root)
    known = {p: t for p, t in before.items() if app.catalog.language_of(p) is not None}
    try:
        return await tell_new(app, found, now, diff, known, within)
    except LspError as exc:
        warnings.append(f"no baseline ({exc}): `change` unknown")
        return None


CONFLICTING = frozenset({"conflicting_types"})
"""clang's codes for a redeclaration that conflicts with an earlier one: the function
is then invalid and its later uses are not checked (gcc still reports those calls)."""


def _conflicts(found: list[Diagnostic]) -> list[DiagnosticsReason]:
    """The reason an answer with conflicting declarations is partial: the calls the
    server skipped after them are not listed."""
    sites = [d for d in found if d.severity == "error" and d.code in CONFLICTING]
    if not sites:
        return []
    named = ", ".join(f"{d.message.split(chr(10))[0]} ({d.path}:{d.line})" for d in sites[:3])
    return [
        DiagnosticsReason(
            code="conflicting_declaration",
            message=f"{named}{' ...' if len(sites) > 3 else ''}: clang does not check the "
            "uses of a function after a declaration conflicting with an earlier one, so "
            "calls that no longer match may be missing; make the declarations agree and ask again",
        )
    ]


def _left_out(file: ToCheck, reason: NotCheckedReason, message: str) -> NotChecked:
    return NotChecked(
        path=file.path, reason=reason, message=message, why=file.why, symbols=list(file.symbols)
    )


def _reasons(
    reports: list[DiagnosticsReport],
    loading: set[str],
    left: dict[ToCheck, tuple[NotCheckedReason, str]],
    capped: int,
    unknown: list[str],
) -> list[DiagnosticsReason]:
    reasons = []
    if loading:
        reasons.append(
            DiagnosticsReason(
                code="server_loading",
                message=f"the language server was still loading the workspace ({len(loading)} "
                "files): diagnostics may be missing; ask again in a few seconds",
            )
        )
    late = [r.path for r in reports if not r.settled]
    if late:
        reasons.append(
            DiagnosticsReason(
                code="diagnostics_timeout",
                message=f"no diagnostics published for the current text of {len(late)} files "
                f"in time ({', '.join(late[:10])}{' ...' if len(late) > 10 else ''}; each "
                "`settled: false` in files): what is listed for them may be old or missing items",
            )
        )
    no_server = sum(why == "no_server" for why, _ in left.values())
    if no_server:
        reasons.append(
            DiagnosticsReason(
                code="no_server",
                message=f"{no_server} files to check have no language server (see notChecked)",
            )
        )
    failed = [f.path for f, (why, _) in left.items() if why == "server_error"]
    if failed:
        reasons.append(
            DiagnosticsReason(
                code="server_error",
                message=f"the language server failed for {len(failed)} files "
                f"({', '.join(failed[:3])}; see notChecked): ask again, or pass `path`",
            )
        )
    if capped:
        reasons.append(
            DiagnosticsReason(
                code="files_capped",
                message=f"{capped} more files to check were not checked (cap {MAX_FILES}, "
                f"{MAX_PULLED_FILES} for servers answering pulls; see notChecked): pass `path` "
                "for each",
            )
        )
    if unknown:
        reasons.append(DiagnosticsReason(code="users_unknown", message="; ".join(unknown)))
    return reasons
