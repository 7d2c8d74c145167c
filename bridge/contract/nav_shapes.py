"""The typed `data` of the nav_* and resolve answers (published as MCP output schemas).

Keys are camelCase; lines and columns 1-based. See docs/contracts.md.
"""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from bridge.contract.envelope import AnswerBase
from bridge.contract.render import CallEntry, FoundSymbol, OutlineEntry, Place, SymbolPlace
from bridge.contract.schema_types import Completeness, CompletenessReason, SeenAs, SiteSource
from verify import Priming, Site, Verdict

SITE_TEXT_CHARS = 160
"""An unconfirmed site's line is cut to this many characters (a fixture string, a
minified line): the site is a pointer, `path` and `line` say where to read."""


class TargetLine(TypedDict):
    """The position asked about: its file and 1-based line; for a node ID followed to
    another symbol (git or the map records that it moved), the ID asked and the ID
    answered for."""

    path: str
    line: int
    requestedId: NotRequired[str]
    currentId: NotRequired[str]


class Reason(TypedDict):
    """Why an answer is partial."""

    code: CompletenessReason
    message: str


class UnconfirmedSite(TypedDict):
    """A line naming the symbol that the server did not confirm."""

    path: str
    line: int
    column: int
    text: str
    source: SiteSource
    seenAs: SeenAs


class CrossCheck(TypedDict):
    """What the cross-check scanned."""

    name: str
    candidateSites: int
    confirmedSites: int
    filesScanned: int
    scanMs: float


class PrimingInfo(TypedDict):
    """The files opened for a server that searches only open ones."""

    filesOpened: int
    ms: float
    cap: int
    capHit: bool
    filesNotOpened: list[str]
    failed: str | None


class Checked(TypedDict):
    """How complete a cross-checked answer is (verify.completeness)."""

    completeness: Completeness
    completenessReasons: list[Reason]
    unconfirmed: list[UnconfirmedSite]
    unconfirmedCount: int
    crossCheck: CrossCheck | None
    priming: PrimingInfo | None


def checked(verdict: Verdict) -> Checked:
    """The keys a verdict adds to an answer's `data`."""
    scan = verdict.scan
    return Checked(
        completeness="complete" if verdict.complete else "partial",
        completenessReasons=[Reason(code=r.code, message=r.message) for r in verdict.reasons],
        unconfirmed=[_site(site) for site in verdict.listed()],
        unconfirmedCount=len(verdict.unconfirmed),
        crossCheck=None
        if scan is None
        else CrossCheck(
            name=scan.name,
            candidateSites=verdict.candidates,
            confirmedSites=verdict.candidates - len(verdict.unconfirmed),
            filesScanned=scan.files_scanned,
            scanMs=round(scan.ms, 1),
        ),
        priming=None if verdict.priming is None else priming_info(verdict.priming),
    )


def verdict_warnings(verdict: Verdict) -> list[str]:
    """One line for the envelope when the answer is partial for a reason other than
    loading (which has its own warning)."""
    codes = [r.code for r in verdict.reasons if r.code != "server_loading"]
    if not codes:
        return []
    return [f"partial answer ({', '.join(codes)}): see data.completenessReasons"]


def priming_info(priming: Priming) -> PrimingInfo:
    """What answers carry as `priming`."""
    return PrimingInfo(
        filesOpened=len(priming.opened),
        ms=round(priming.ms, 1),
        cap=priming.cap,
        capHit=bool(priming.not_opened),
        filesNotOpened=list(priming.not_opened),
        failed=priming.failed,
    )


def cut_line(text: str) -> str:
    """A site's line, cut to `SITE_TEXT_CHARS`."""
    return text if len(text) <= SITE_TEXT_CHARS else text[: SITE_TEXT_CHARS - 1] + "…"


def _site(site: Site) -> UnconfirmedSite:
    return UnconfirmedSite(
        path=site.path,
        line=site.line,
        column=site.column,
        text=cut_line(site.text),
        source=site.source,
        seenAs=site.role or "unparsed",
    )


class LocationsData(TypedDict):
    """nav_definition, nav_type_definition, nav_implementations, nav_references."""

    target: TargetLine
    count: int
    locations: list[Place]
    completeness: NotRequired[Completeness]
    completenessReasons: NotRequired[list[Reason]]
    unconfirmed: NotRequired[list[UnconfirmedSite]]
    unconfirmedCount: NotRequired[int]
    crossCheck: NotRequired[CrossCheck | None]
    priming: NotRequired[PrimingInfo | None]


class HoverData(TypedDict):
    """nav_hover: the server's hover text (markdown), or null."""

    target: TargetLine
    contents: str | None


class OutlineData(TypedDict):
    """nav_symbols: the file's live outline."""

    path: str
    symbols: list[OutlineEntry]


class WorkspaceSymbolsData(TypedDict):
    """nav_workspace_symbols: matches, best first, and the languages asked."""

    query: str
    languages: list[str]
    count: int
    symbols: list[FoundSymbol]


class CallersData(Checked):
    """nav_callers, cross-checked like references (the fields of `Checked`)."""

    target: TargetLine
    count: int
    callers: list[CallEntry]


CalleesReasonCode = Literal["callees_missed", "unchecked"]
"""Why a nav_callees answer is partial: the map sees calls from the function to
symbols the server did not list (`missed`), or the function is not in the map, so
nothing could be checked."""


class CalleesReason(TypedDict):
    """Why a nav_callees answer is partial."""

    code: CalleesReasonCode
    message: str


class CalleesData(TypedDict):
    """nav_callees, checked against the calls the map sees in the function's body."""

    target: TargetLine
    count: int
    callees: list[CallEntry]
    completeness: Completeness
    completenessReasons: list[CalleesReason]
    missed: list[str]


class ResolveData(TypedDict):
    """resolve: a node ID checked live against the map, a whole file, or the symbols
    enclosing a position (`position`, `enclosing`)."""

    verified: bool
    location: SymbolPlace | None
    nodeId: NotRequired[str]
    requestedId: NotRequired[str]
    mapStale: NotRequired[bool | None]
    relocated: NotRequired[bool]
    mapRange: NotRequired[SymbolPlace | None]
    currentId: NotRequired[str]
    kind: NotRequired[str]
    signature: NotRequired[str | None]
    position: NotRequired[TargetLine]
    enclosing: NotRequired[list[str]]


class LocationsAnswer(AnswerBase):
    """An answer listing places."""

    data: LocationsData


class HoverAnswer(AnswerBase):
    """The hover answer."""

    data: HoverData


class OutlineAnswer(AnswerBase):
    """The outline answer."""

    data: OutlineData


class WorkspaceSymbolsAnswer(AnswerBase):
    """The workspace-symbols answer."""

    data: WorkspaceSymbolsData


class CallersAnswer(AnswerBase):
    """The callers answer."""

    data: CallersData


class CalleesAnswer(AnswerBase):
    """The callees answer."""

    data: CalleesData


class ResolveAnswer(AnswerBase):
    """The resolve answer."""

    data: ResolveData
