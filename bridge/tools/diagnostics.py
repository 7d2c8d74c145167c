"""nav_diagnostics: the errors and warnings the LIVE servers see now, after the disk re-sync.

For one file, or for every file changed since a commit (default: the working
tree against HEAD). Each file's diagnostics are pulled (`source: "pull"`)
from servers that answer `textDocument/diagnostic`, else collected as the
server published them for what it was just sent (`source: "published"`),
waiting at most the cold-start deadline. The answer is `partial` while a
server still loads the workspace (`server_loading`), when a wait timed out
(`diagnostics_timeout`), when files had no server (`no_server`) or when
there were more changed files than one answer checks (`files_capped`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, cast

from bridge.context import AppContext
from bridge.contract.change_shapes import (
    DiagnosticItem,
    DiagnosticsAnswer,
    DiagnosticsData,
    DiagnosticsFile,
    DiagnosticsPath,
    DiagnosticsReason,
    DiagnosticsScope,
    NotChecked,
    Severity,
    Since,
)
from bridge.contract.envelope import respond
from bridge.contract.schema_types import Budget
from bridge.tools.live_target import retry_once, workspace_warnings
from bridge.tools.targets import checked_path, parse_node_id
from lsp import NoServerError, UnsupportedFileError
from memory import diff_files

if TYPE_CHECKING:  # the LSP types load with the first language server, not at start
    from lsp import Diagnostic, DiagnosticsReport

MAX_FILES = 40
"""Changed files checked in one answer (the rest are named in `notChecked`)."""
_RANK: dict[str, int] = {"error": 0, "warning": 1, "information": 2, "hint": 3}


def _item(d: Diagnostic) -> DiagnosticItem:
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
    )


def _file(report: DiagnosticsReport, loading: bool) -> DiagnosticsFile:
    found = [d.severity for d in report.diagnostics]
    return DiagnosticsFile(
        path=report.path,
        source=report.source,
        settled=report.settled,
        loading=loading,
        errors=found.count("error"),
        warnings=found.count("warning"),
        total=len(found),
    )


async def _changed_paths(app: AppContext, since: str) -> list[str]:
    """The files changed since `since` (working tree) that a language server serves."""
    diff = await asyncio.to_thread(diff_files, app.root, since)
    paths = []
    for old, change in sorted(diff.files.items()):
        now = change.new_path or old
        if change.kind != "deleted" and app.live.catalog.language_of(now) is not None:
            paths.append(now)
    return sorted(set(paths))


async def nav_diagnostics(
    app: AppContext, path: DiagnosticsPath = None, since: Since = "HEAD", budget: Budget = None
) -> DiagnosticsAnswer:
    """Errors and warnings the live language servers report NOW (after re-syncing
    the disk, so an edit written a moment ago counts): for `path`, or else for every
    file changed since the commit `since` (default HEAD: uncommitted work).

    Returns `diagnostics` (errors first: path, 1-based line/column, endLine,
    endColumn, severity, message, code, source), `files` (per file: `source`
    "pull" or "published", `settled`, counts), `errorCount`, `warningCount`, and
    `completeness` "complete" or "partial" with `completenessReasons` ({code,
    message}: server_loading, diagnostics_timeout, no_server, files_capped)."""
    budget_tokens = app.budget(budget)
    if path is not None:
        paths = [checked_path(app.root, parse_node_id(path).path)]
    else:
        paths = await _changed_paths(app, since)
    capped = paths[MAX_FILES:]
    within = app.live_settings.cold_start_deadline

    async def one(file: str) -> DiagnosticsReport | str:
        try:
            return await retry_once(lambda: app.live.diagnostics(file, within=within), app, file)
        except (NoServerError, UnsupportedFileError) as exc:
            if path is not None:
                raise
            return str(exc)

    answers = await asyncio.gather(*(one(p) for p in paths[:MAX_FILES]))
    reports = [a for a in answers if not isinstance(a, str)]
    no_server = {p: a for p, a in zip(paths, answers, strict=False) if isinstance(a, str)}
    # zip stops at the answers: the capped paths have none
    loading = {r.path for r in reports if app.live.still_loading(r.path)}
    found = [d for r in reports for d in r.diagnostics]
    found.sort(key=lambda d: (_RANK.get(d.severity, 4), d.path, d.line, d.column))
    reasons = _reasons(reports, loading, no_server, capped)
    scope = DiagnosticsScope(path=paths[0]) if path is not None else DiagnosticsScope(since=since)
    data = DiagnosticsData(
        scope=scope,
        errorCount=sum(d.severity == "error" for d in found),
        warningCount=sum(d.severity == "warning" for d in found),
        count=len(found),
        completeness="partial" if reasons else "complete",
        completenessReasons=reasons,
        files=[_file(r, r.path in loading) for r in reports],
        notChecked=[NotChecked(path=p, reason="no_server", message=m) for p, m in no_server.items()]
        + [
            NotChecked(path=p, reason="files_capped", message=f"over the cap of {MAX_FILES} files")
            for p in capped
        ],
        diagnostics=[_item(d) for d in found],
    )
    warnings = [w for p in paths[:1] for w in workspace_warnings(app, p)]
    if reasons:
        codes = ", ".join(r["code"] for r in reasons)
        warnings.append(f"partial answer ({codes}): see data.completenessReasons")
    return respond(data, budget_tokens=budget_tokens, items_key="diagnostics", warnings=warnings)


def _reasons(
    reports: list[DiagnosticsReport],
    loading: set[str],
    no_server: dict[str, str],
    capped: list[str],
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
                f"in time ({', '.join(late[:3])}): what is listed may be old or missing items",
            )
        )
    if no_server:
        reasons.append(
            DiagnosticsReason(
                code="no_server", message=f"{len(no_server)} changed files have no language server"
            )
        )
    if capped:
        reasons.append(
            DiagnosticsReason(
                code="files_capped",
                message=f"{len(capped)} more changed files were not checked (cap {MAX_FILES}): "
                "pass `path` for each",
            )
        )
    return reasons
