"""The typed `data` of what a change touched: nav_diagnostics, nav_rename, map_changes.

Published as MCP output and input schemas (see bridge.contract.schema_types for how).
Keys are camelCase; lines and columns 1-based.
See docs/contracts.md#what-a-change-touched-nav_diagnostics-nav_rename-map_changes.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import Field
from typing_extensions import TypedDict

from bridge.contract.envelope import AnswerBase
from bridge.contract.map_shapes import (
    MapReason,
    Neighbor,
    NodeKind,
    UnresolvedSite,
    Verification,
)
from bridge.contract.nav_shapes import TargetLine
from bridge.contract.schema_types import Completeness
from lsp import DiagnosticsSource
from memory import FileChangeKind, MemoryStatus, RefReason, RefStatus, SymbolChangeKind

Severity = Literal["error", "warning", "information", "hint"]
DiagnosticsReasonCode = Literal[
    "server_loading",
    "diagnostics_timeout",
    "no_server",
    "server_error",
    "files_capped",
    "users_unknown",
    "conflicting_declaration",
]
"""Why a nav_diagnostics answer is partial."""
NotCheckedReason = Literal["no_server", "server_error", "files_capped"]
DiagnosticChange = Literal["new", "existing", "unknown"]
"""Whether a diagnostic is absent from the baseline (`new`: the change made it), present
there (`existing`), or not told (`unknown`: its file's baseline did not come in time)."""
CheckedFor = Literal[
    "asked",
    "changed",
    "uses_changed_symbol",
    "names_removed_symbol",
    "references_changed_symbol",
    "imports_changed_file",
    "same_package",
]
"""Why nav_diagnostics checks a file (or would have): named by `path`, changed since
`since`, a first-hop user in the map of a symbol the change touched, a file naming a
symbol the change removed, renamed or moved (by its old name), a file the live server
finds referring to a changed symbol whose users the map knows only in part, a file
importing a changed file, or (Go) a file of a changed file's package. In priority
order."""

# ----------------------------------------------------------------- parameters

DiagnosticsPath = Annotated[
    str | None,
    Field(
        description="One file to check (repo-relative; a node ID's path part also works); "
        "default: every file changed since `since`."
    ),
]
Since = Annotated[
    str,
    Field(description="The commit the changes are counted from (default HEAD: uncommitted work)."),
]
Until = Annotated[
    str | None,
    Field(description="The commit the diff ends at (default: the working tree)."),
]
ChangesDepth = Annotated[
    int, Field(description="How many edges away dependents are listed (1-10).")
]
WithMemories = Annotated[
    bool, Field(description="List the memories the change touches (`memories`).")
]
NewName = Annotated[str, Field(description="The new identifier (one line, not empty).")]
Apply = Annotated[
    bool,
    Field(description="Write the edits (default: a preview); `conflict` if a file changed since."),
]
PreviewHashes = Annotated[
    dict[str, str] | None,
    Field(
        description="{path: hash} from the preview's `files`: with `apply`, write only "
        "if each file still has it."
    ),
]

# ----------------------------------------------------------------- nav_diagnostics


class DiagnosticsScope(TypedDict):
    """What was checked: one `path`, or the files changed `since` a commit."""

    path: NotRequired[str]
    since: NotRequired[str]


class DiagnosticsReason(TypedDict):
    """Why a diagnostics answer is partial."""

    code: DiagnosticsReasonCode
    message: str


class DiagnosticItem(TypedDict):
    """One problem: 1-based lines and columns."""

    path: str
    line: int
    column: int
    endLine: int
    endColumn: int
    severity: Severity
    message: str
    code: str | None
    source: str | None
    change: DiagnosticChange


class DiagnosticsBaseline(TypedDict):
    """What `new` and `existing` were told against: the servers' diagnostics of the same
    files with the `changedFiles` files as they were at `commit` (none changed: the
    answer itself); `checkedFiles` asked again (those with diagnostics now), `missing`
    those whose baseline did not come in time (their diagnostics are `unknown`)."""

    kind: Literal["since"]
    commit: str
    changedFiles: int
    checkedFiles: int
    missing: list[str]
    message: str


class DiagnosticsFile(TypedDict):
    """A checked file: why (`symbols`: the changed symbols that brought it in, node IDs),
    how its diagnostics were had (`pull`ed or `published`), and its counts."""

    path: str
    why: CheckedFor
    symbols: list[str]
    source: DiagnosticsSource
    settled: bool
    loading: bool
    errors: int
    warnings: int
    total: int


class NotChecked(TypedDict):
    """A file that was to be checked (`why`, `symbols` as for a checked file) but was
    not, and why not (`reason`)."""

    path: str
    reason: NotCheckedReason
    message: str
    why: CheckedFor
    symbols: list[str]


class DiagnosticsData(TypedDict):
    """nav_diagnostics: errors first, the new ones (the change made them) before the
    others; `baseline` None when it could not be had (see the warnings)."""

    scope: DiagnosticsScope
    errorCount: int
    warningCount: int
    count: int
    newCount: int
    newErrorCount: int
    existingCount: int
    baseline: DiagnosticsBaseline | None
    completeness: Completeness
    completenessReasons: list[DiagnosticsReason]
    files: list[DiagnosticsFile]
    notChecked: list[NotChecked]
    diagnostics: list[DiagnosticItem]


# ----------------------------------------------------------------- nav_rename


class RenamedFile(TypedDict):
    """One file a rename edits: its edit count, the hash of the content the rename was
    computed on, and a unified diff."""

    path: str
    edits: int
    hash: str
    diff: str


NotRenamedWhy = Literal[
    "reference_not_edited",
    "name_unconfirmed",
    "base_declaration",
    "override",
    "overload",
    "protocol_use",
    "reexported_as_alias",
    "error_after_rename",
]
"""Why a site a rename leaves counts (see bridge.tools.rename_check)."""


class NotRenamed(TypedDict):
    """A site naming the renamed symbol that the rename's edits leave, and why it counts."""

    path: str
    line: int
    text: str
    why: NotRenamedWhy
    message: NotRequired[str]
    """(`error_after_rename`) the error the server gives there with the edits sent."""


class UntriedFile(TypedDict):
    """A file the rename's trial did not check, and why."""

    path: str
    message: str


class RenameTrial(TypedDict):
    """The rename's edits tried on the live servers before anything is written: the
    files checked (the edited ones and those importing them), the errors the edits
    add there (each in `notRenamed`), and the files not checked."""

    checkedFiles: int
    newErrors: int
    notChecked: list[UntriedFile]


class RenameData(TypedDict):
    """nav_rename: a preview, or what was written (`applied`); `completeness` "complete"
    when the edits cover every site naming the symbol, else `notRenamed` lists those
    they leave."""

    target: TargetLine
    newName: str
    applied: bool
    fileCount: int
    editCount: int
    files: list[RenamedFile]
    completeness: Completeness
    notRenamed: list[NotRenamed]
    trial: RenameTrial


# ----------------------------------------------------------------- map_changes


class ChangedSymbol(TypedDict):
    """A symbol the diff changed: `nodeId` now, `oldId` before, and what depends on it."""

    change: SymbolChangeKind
    nodeId: str | None
    oldId: str | None
    kind: NodeKind
    lines: list[int] | None
    similarity: NotRequired[float]
    dependentCount: int
    dependents: list[Neighbor]
    note: NotRequired[str]
    completeness: NotRequired[Completeness]
    completenessReasons: NotRequired[list[MapReason]]
    unresolved: NotRequired[list[UnresolvedSite]]
    unresolvedCount: NotRequired[int]


class TouchedRef(TypedDict):
    """A memory's reference the diff moved, modified or deleted; where it is now."""

    ref: str
    status: RefStatus
    reason: RefReason
    path: str | None
    symbol: str | None
    startLine: int | None
    endLine: int | None


class TouchedMemory(TypedDict):
    """A memory the diff touches."""

    id: str
    text: str
    kind: str
    status: MemoryStatus
    refs: list[TouchedRef]
    calleesChanged: list[str]


class ChangedFile(TypedDict):
    """A file the diff changed (`newPath` for a rename)."""

    path: str
    change: FileChangeKind
    newPath: NotRequired[str]


class ChangeCounts(TypedDict):
    """How many symbols changed each way."""

    added: int
    removed: int
    modified: int
    moved: int
    renamed: int


class ChangesData(TypedDict):
    """map_changes."""

    since: str
    until: str | None
    counts: ChangeCounts
    mapRebuilt: bool
    completeness: Completeness
    """`partial` when any changed symbol's dependents are, or a symbol was removed."""
    completenessReasons: list[MapReason]
    verification: NotRequired[Verification]
    memories: NotRequired[list[TouchedMemory]]
    files: list[ChangedFile]
    symbols: list[ChangedSymbol]


class DiagnosticsAnswer(AnswerBase):
    """The nav_diagnostics answer."""

    data: DiagnosticsData


class RenameAnswer(AnswerBase):
    """The nav_rename answer."""

    data: RenameData


class ChangesAnswer(AnswerBase):
    """The map_changes answer."""

    data: ChangesData
