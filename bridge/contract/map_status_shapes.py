"""The typed `data` of the answers about the map itself: map_status, map_rebuild, and
`map build --json` / `map publish --json` (bridge.contract.map_shapes has the
answers about the code).

Published as MCP output schemas; keys are camelCase. See docs/contracts.md#map-answers-map_.
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict

from bridge.contract.envelope import AnswerBase
from bridge.contract.map_shapes import MapData, MapLanguage, SkipReason
from bridge.contract.team_shapes import TeamStoreInfo
from map import WatchStatus


class WatcherInfo(TypedDict):
    """The file watcher (only `status` when nothing watches); times in epoch seconds."""

    status: WatchStatus
    root: NotRequired[str]
    lastEventAt: NotRequired[float | None]
    pendingRebuild: NotRequired[bool]
    rebuilding: NotRequired[bool]
    rebuildCount: NotRequired[int]
    failedRebuilds: NotRequired[int]
    lastRebuildAt: NotRequired[float | None]
    lastError: NotRequired[str | None]


class MapSummary(TypedDict):
    """The map at a glance: counts, languages (files each), skipped files by reason,
    and the files changed since the build."""

    files: int
    symbols: int
    edges: int
    languages: dict[MapLanguage, int]
    skipped: dict[SkipReason, int]
    staleFiles: list[str]
    builtAt: str
    lastBuildSeconds: float


class CacheCounts(TypedDict):
    """What the server's long-lived caches hold now (each bounded: configuration.md)."""

    checkNames: int
    checkRoles: int
    checkTrees: int
    checkOutlines: int
    checkListings: int
    clockedFiles: int
    openDocuments: int
    frozenObjects: int
    """Objects the map's bulk steps (a cold build, a load) froze out of the garbage
    collector's scans: what they built and still holds; it does not grow with edits."""


class LanguageServerInfo(TypedDict):
    """A language server this server started, and its memory (MB; null: not weighed)."""

    name: str
    state: str
    restarts: int
    recycles: int
    """Of its restarts, those for outgrowing `boundMb` (configuration.md)."""
    heldMb: float | None
    boundMb: float | None


class StatusData(MapSummary):
    """map_status."""

    watcher: WatcherInfo
    teamStore: TeamStoreInfo
    graphLoaded: bool
    """False while a restarted server still loads its graph: search, outline, status
    and one-hop neighbours answer from the store meanwhile; ranking, paths, impact
    and deeper walks wait for it."""
    linkLoaded: bool
    """False while a restarted server still loads its link, after the graph: the uses
    linking left open are read from the store meanwhile, for answers that need only
    a few files' (else `link_not_loaded`); a rebuild waits for it."""
    caches: CacheCounts
    languageServers: list[LanguageServerInfo]


class BuildData(MapSummary):
    """`map build --json`: the summary, and what this build did."""

    durationSeconds: float
    changedCount: int
    removedCount: int
    teamStore: TeamStoreInfo


class PublishData(BuildData):
    """`map publish --json`: the build's answer, and the commit the map was published as."""

    commit: str


class RebuildData(MapData):
    """map_rebuild: what the rebuild re-extracted, removed, added (lists capped at 50)."""

    full: bool
    filesTotal: int
    filesChanged: list[str]
    filesRemoved: list[str]
    filesAdded: list[str]
    changedCount: int
    removedCount: int
    addedCount: int
    filesRelinked: int
    restamped: int
    skipped: dict[SkipReason, int]
    durationSeconds: float


class StatusAnswer(AnswerBase):
    """The map_status answer."""

    data: StatusData


class BuildAnswer(AnswerBase):
    """What `map build --json` prints."""

    data: BuildData


class PublishAnswer(AnswerBase):
    """What `map publish --json` prints."""

    data: PublishData


class RebuildAnswer(AnswerBase):
    """The map_rebuild answer."""

    data: RebuildData
