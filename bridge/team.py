"""A workspace's team store of map rows: which database, opened, or why not.

The map shares its extracts through the PostgreSQL database the memories use
(`--store`, else `$CODEANCHOR_STORE`, when it is a `postgresql://` DSN; a SQLite
store shares nothing). `[tool.codeanchor.map] team_store` says what this
workspace does with it: "committed" (the default: take rows, publish the extracts
of committed content), "all" (publish every extract, uncommitted edits too),
"read" (take rows, publish nothing) or "off" (leave the store alone).

On the command line a store that cannot be opened is a one-line error (exit 2);
a server goes on with its local map and says why in map_status.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Literal

from bridge.config import ConfigError
from disk.database import STORE_ENV, is_postgres_dsn, redact

if TYPE_CHECKING:
    from bridge.contract.team_shapes import TeamStoreInfo
    from map import TeamStore

MODES = ("committed", "all", "read", "off")
"""The values of `team_store` (see the module docstring)."""


class TeamChoice:
    """The team store of one workspace: opened on demand, or why there is none."""

    def __init__(self, mode: str, explicit: str | None = None) -> None:
        if mode not in MODES:
            raise ConfigError(
                f"[tool.codeanchor.map] team_store = {mode!r}: should be one of {', '.join(MODES)}"
            )
        chosen = explicit or os.environ.get(STORE_ENV) or ""
        self.dsn = chosen if is_postgres_dsn(chosen) else None
        self.mode = mode
        self.store: TeamStore | None = None
        self.why_none = (
            "no PostgreSQL store is given (--store or CODEANCHOR_STORE)"
            if self.dsn is None
            else 'turned off ([tool.codeanchor.map] team_store = "off")'
        )

    def open(self, *, strict: bool) -> TeamStore | None:
        """The team store (None: none to use). `strict` (the CLI): one that cannot be
        opened raises TeamStoreError; else it is kept as not in use, with the reason."""
        if self.store is not None or self.dsn is None or self.mode == "off":
            return self.store
        from map import TeamStore, TeamStoreError  # the PostgreSQL driver: only with a DSN

        publishing: Literal["committed", "all", "none"] = (
            "committed" if self.mode == "committed" else "all" if self.mode == "all" else "none"
        )
        try:
            self.store = TeamStore.open(self.dsn, publishing)
        except TeamStoreError as exc:
            if strict:
                raise
            self.store = TeamStore.unusable(self.dsn, str(exc))
        return self.store

    def info(self) -> TeamStoreInfo:
        """The store's part of map_status and `map build`'s answer."""
        if self.store is None:
            shown = None if self.dsn is None else redact(self.dsn)
            reason = (
                self.why_none
                if self.dsn is None or self.mode == "off"
                else "not opened: only a build takes rows from it (map build, serve)"
            )
            return {
                "inUse": False,
                "store": shown,
                "reason": reason,
                "publishing": "none",
                "fetched": 0,
                "extracted": 0,
                "published": 0,
                "refused": 0,
                "snapshot": None,
            }
        status = self.store.status()
        return {
            "inUse": status.in_use,
            "store": status.store,
            "reason": status.reason,
            "publishing": status.publishing,
            "fetched": status.fetched,
            "extracted": status.extracted,
            "published": status.published,
            "refused": status.refused,
            "snapshot": status.snapshot,
        }

    def close(self) -> None:
        """Close the store's connection."""
        if self.store is not None:
            self.store.close()
