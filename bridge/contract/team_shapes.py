"""The team store's part of the map answers (map_status, `map build`, `map publish`):
its published shape, in camelCase (docs/contracts.md, TEAM)."""

from __future__ import annotations

from typing import Literal

from typing_extensions import TypedDict


class TeamStoreInfo(TypedDict):
    """The map rows a team shares (docs/team-store.md): whether this map uses them
    (`reason`: why not, or why it publishes nothing), which of its extracts it
    publishes, and, since the process started, files taken from the store, extracted
    here, rows published and rows refused (corrupt, or of another content)."""

    inUse: bool
    store: str | None
    reason: str | None
    publishing: Literal["committed", "all", "none"]
    fetched: int
    extracted: int
    published: int
    refused: int
    snapshot: str | None
    """The commit of the team's linked map this checkout's map started from, if any."""
