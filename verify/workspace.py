"""What verification needs of a workspace, as a protocol the surface's context meets.

Verification asks the live servers and reads the map; it neither starts nor
owns them. The surface builds one object per workspace (root, settings, the
server pool, the map, the cross-check's cache) and hands it in.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from lsp import LivePool, LiveSettings
    from map import CodeMap, MapSettings
    from verify.checkcache import CheckCache


class Workspace(Protocol):
    """One workspace's root, settings, live servers, map and check cache."""

    root: Path
    map_settings: MapSettings
    live_settings: LiveSettings
    check_cache: CheckCache

    @property
    def live(self) -> LivePool:
        """The pool of language servers (each starts on first use)."""
        ...

    @property
    def open_map(self) -> CodeMap | None:
        """The map when it is open already, else None (nothing is opened)."""
        ...

    async def code_map(self, *, graph: bool = False) -> CodeMap:
        """The map, opened (or built) on first use."""
        ...
