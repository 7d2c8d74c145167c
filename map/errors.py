"""Errors of the map.

MapError
├── UnknownNodeError   no node with that ID; `.suggestions` holds the nearest IDs
├── SnapshotError      a snapshot on disk cannot be trusted (internal: the map is rebuilt)
└── TeamStoreError     the team's shared store cannot be used (`.hint` says what to do)
"""

from __future__ import annotations


class MapError(Exception):
    """The map could not answer; the message says what was wrong and what to do."""


class UnknownNodeError(MapError):
    """No node has this ID."""

    def __init__(self, node_id: str, suggestions: list[str] | None = None) -> None:
        self.node_id = node_id
        self.suggestions = list(suggestions or [])
        hint = (
            f"; did you mean {', '.join(self.suggestions)}?"
            if self.suggestions
            else "; search the map for the name, or rebuild it if the file is new"
        )
        super().__init__(f"{node_id}: no such node in the map{hint}")


class SnapshotError(MapError):
    """A snapshot is corrupt, of another schema or of another root."""


class TeamStoreError(MapError):
    """The team store (map.store.team_store) cannot be reached or used; never shows a
    password. `hint` says what to do."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint
