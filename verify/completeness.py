"""How complete a nav answer is: the live answer checked against the candidate sites.

A candidate site (see `verify.candidates`) is confirmed when the answer holds
a place on its line. Which sites are candidates depends on the question:

| question          | candidate sites                                             |
|-------------------|-------------------------------------------------------------|
| references        | every line naming the symbol                                |
| callers           | calls (the map's, or a mention followed by `(`)             |
| implementations   | same-name definitions and classes inheriting the name       |
| definition        | same-name definitions, only when the server found none      |

The answer is `complete` when nothing stands against it, else `partial`
with one reason per cause: `not_checked`, `server_loading`,
`workspace_incomplete`, `scan_capped`, `priming_capped` (or `priming_failed`),
`unconfirmed_candidates` (uses in code the server did not confirm), and
`outside_project` when the map sees the name used in files where the server
found nothing. Unconfirmed sites are listed apart from the answer, with where
they come from (`map` or `text`) and what the map sees there (`seenAs`). A
comment, a string, (for references and callers) another symbol's
definition of the same name, or a use the map's link ties to another symbol or
to a library's type (`other`, `library`: verify.typed) is listed but stands
against nothing: the server was right to leave it out (`_CONTESTED`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from verify.candidates import Scan
from verify.priming import Priming
from verify.sites import Site

Question = Literal["references", "callers", "implementations", "definition"]
ReasonCode = Literal[
    "not_checked",
    "server_loading",
    "workspace_incomplete",
    "scan_capped",
    "priming_capped",
    "priming_failed",
    "unconfirmed_candidates",
    "outside_project",
]
"""The codes `judge` gives in `completenessReasons` (published in the nav schemas)."""
_USES = frozenset({"call", "inherits", "use", "import"})
"""What the map sees in code that uses a name (a definition is another symbol's)."""
_CONTESTED: dict[Question, frozenset[str]] = {
    "references": _USES,
    "callers": _USES,
    "implementations": _USES | {"definition"},
    "definition": _USES | {"definition"},
}
"""Unconfirmed sites that make an answer partial, by question. A comment or a string
(`mention`) never does, nor, for references and callers, another symbol's definition
of the same name: the server was right to leave those out. They are still listed."""


_LISTING: dict[str | None, int] = {
    "call": 0,
    "inherits": 0,
    "use": 0,
    "import": 0,
    None: 1,
    "other": 2,
    "library": 2,
    "definition": 2,
    "mention": 3,
}
"""The order of unconfirmed sites in an answer, by what the map sees there."""


@dataclass(frozen=True, slots=True)
class Reason:
    """Why an answer is partial: a code, and a line that says it."""

    code: ReasonCode
    message: str


@dataclass(frozen=True, slots=True)
class Verdict:
    """The cross-check of one answer."""

    complete: bool
    reasons: tuple[Reason, ...]
    unconfirmed: tuple[Site, ...]
    candidates: int
    scan: Scan | None
    priming: Priming | None

    def listed(self) -> list[Site]:
        """The unconfirmed sites in the order answers list (and budgets keep) them:
        uses in code first, then lines left unparsed, then other symbols' definitions
        of the name, then comments and strings; each group by place."""
        return sorted(self.unconfirmed, key=lambda s: (_LISTING[s.role], s.path, s.line))


def stands_against(question: Question, site: Site) -> bool:
    """Whether an unconfirmed `site` would make an answer to `question` partial: a use
    in code (`_CONTESTED`), or a line left unparsed (it may be one)."""
    return site.role is None or site.role in _CONTESTED[question]


def candidates_for(
    question: Question,
    sites: Sequence[Site],
    target: tuple[str, int],
    confirmed: Collection[tuple[str, int]] = (),
) -> list[Site]:
    """The sites an answer to `question` about the symbol at `target` ((path,
    1-based line) of the queried position) should account for; `confirmed` are
    the answer's places (sites there need no role to count)."""
    if question == "references":
        return list(sites)
    if question == "callers":
        return [s for s in sites if (s.call_like or s.role == "call") and s.role != "definition"]
    wanted = ("definition", "inherits") if question == "implementations" else ("definition",)
    return [s for s in sites if s.place != target and (s.role in wanted or s.place in confirmed)]


def judge(
    question: Question,
    *,
    answer: Collection[tuple[str, int]],
    scan: Scan | None,
    target: tuple[str, int],
    excluded: Collection[tuple[str, int]] = (),
    unparsed_files: int = 0,
    checked: bool = True,
    loading: bool = False,
    workspace: Sequence[str] = (),
    priming: Priming | None = None,
) -> Verdict:
    """Check the places of an answer ((path, 1-based line)) against the sites of
    `scan` (labelled where the answer did not confirm them).

    `excluded` are places the question leaves out on purpose (the declaration
    when it was not asked for); `unparsed_files` counts files whose sites could
    not be labelled; `checked` False: the position held no name to scan for, so
    nothing could vouch for the answer; `workspace` says what keeps the server from
    answering in full (Go modules missing from the cache). A definition found by the
    server stands alone.
    """
    found = set(answer)
    alone = question == "definition" and bool(found)
    sites: list[Site] = []
    if scan is not None and not alone:
        sites = [
            s
            for s in candidates_for(question, scan.sites, target, found)
            if s.place not in excluded
        ]
    unconfirmed = [site for site in sites if site.place not in found]
    reasons: list[Reason] = []
    if not checked and not alone:
        reasons.append(
            Reason(
                "not_checked",
                "no name in code at the target position (a keyword, punctuation or a "
                "comment): the answer was not cross-checked; target the symbol's name "
                "(a node ID, or `name` with path:LINE)",
            )
        )
    if loading:
        reasons.append(
            Reason("server_loading", "the language server was still loading the workspace")
        )
    reasons.extend(Reason("workspace_incomplete", problem) for problem in workspace)
    if scan is not None and (scan.capped or unparsed_files):
        reasons.append(
            Reason(
                "scan_capped",
                f"the scan for {scan.name!r} stopped at its limits ({scan.files_scanned} files "
                f"searched, {unparsed_files} not parsed): candidates may be missing",
            )
        )
    if priming is not None and priming.failed:
        reasons.append(
            Reason(
                "priming_failed",
                f"{len(priming.not_opened)} candidate files could not be opened "
                f"({priming.failed}): the server may not have searched them",
            )
        )
    elif priming is not None and priming.not_opened:
        reasons.append(
            Reason(
                "priming_capped",
                f"{len(priming.not_opened)} candidate files were not opened (cap "
                f"{priming.cap}): the server may not have searched them",
            )
        )
    contested = [s for s in unconfirmed if s.role is not None and stands_against(question, s)]
    if contested:
        answered = {path for path, _ in found}
        reasons.append(_unconfirmed_reason(contested))
        unsearched = sorted(
            {s.path for s in contested if s.path not in answered and s.role in _USES}
        )
        if unsearched:
            reasons.append(_outside_reason(unsearched))
    return Verdict(
        complete=not reasons,
        reasons=tuple(reasons),
        unconfirmed=tuple(unconfirmed),
        candidates=len(sites),
        scan=scan,
        priming=priming,
    )


def _unconfirmed_reason(unconfirmed: Sequence[Site]) -> Reason:
    text_only = sum(1 for s in unconfirmed if s.source == "text")
    parts = [f"{len(unconfirmed)} candidate sites the server did not confirm (in `unconfirmed`)"]
    if len(unconfirmed) > text_only:
        parts.append(
            f"{len(unconfirmed) - text_only} in code the map sees (another symbol of the "
            "same name, or a use the server missed)"
        )
    if text_only:
        parts.append(f"{text_only} seen by the text scan alone (comments, strings)")
    return Reason("unconfirmed_candidates", "; ".join(parts))


_PROJECT_FILES = {
    (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"): "a tsconfig's include",
    (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"): "the compilation database",
}
"""What puts a file in its server's project, by the file's extension, where a
configuration does (other servers search the workspace)."""


def _outside_reason(files: Sequence[str]) -> Reason:
    shown = ", ".join(files[:3]) + (", ..." if len(files) > 3 else "")
    configs = [
        what for ends, what in _PROJECT_FILES.items() if any(f.endswith(ends) for f in files)
    ]
    where = (
        f"outside its project ({', '.join(configs)}) or not searched"
        if configs
        else ("not searched by it")
    )
    return Reason(
        "outside_project",
        f"{len(files)} files where the map sees the name used but the server found nothing "
        f"({shown}): {where}",
    )
