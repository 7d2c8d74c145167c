"""What a map is told and what it tells: how it reads a repository
(`MapSettings`), what one rebuild did (`BuildReport`), the map at a glance
(`MapStatus`), and the summary counts behind it (`Counts`), which recount
only the files whose edges moved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from disk.statedir import STATE_DIR
from map.graph.mapgraph import MapGraph
from map.linking.scopes import FileScope


@dataclass(frozen=True)
class MapSettings:
    """How the map reads a repository."""

    max_file_bytes: int = 1_000_000
    exclude: tuple[str, ...] = ()
    """Extra gitignore-style patterns to leave out."""
    workers: int = 0
    """Extraction processes when many files changed; 0 picks from the CPU count."""
    snapshot_dir: str = STATE_DIR
    """Where the map store lives (relative to the root, or absolute)."""
    team_store: str = "committed"
    """What to do with a team store of map rows (the memories' PostgreSQL store):
    "committed" (take rows, publish committed content's), "all", "read" or "off"
    (read and checked by bridge.team; the map is handed the store itself)."""


@dataclass(frozen=True)
class BuildReport:
    """What one rebuild did. `files_changed` lists every re-extracted file (added ones too)."""

    files_total: int
    files_changed: list[str]
    files_removed: list[str]
    files_added: list[str]
    skipped: dict[str, int]
    duration_s: float
    full: bool
    files_relinked: int = 0
    restamped: int = 0
    """Files whose stat stamp moved but whose content did not (hashed, not re-extracted)."""


@dataclass(frozen=True)
class MapStatus:
    """The map at a glance."""

    files: int
    symbols: int
    edges: int
    languages: dict[str, int]
    stale_files: tuple[str, ...]
    last_build_s: float
    built_at: datetime
    skipped: dict[str, int] = field(default_factory=dict)


class Counts:
    """Symbols, edges and languages of a loaded map. Edges are summed per file,
    recounting only the files marked since the last summary (networkx counts a
    multigraph's edges by walking all of them); languages are counted again only
    when a marked file came or went (a path's language is its extension's)."""

    def __init__(self, per_file: Mapping[str, int] | None = None) -> None:
        self.per_file: dict[str, int] = dict(per_file or {})
        """path -> edges out of the file's nodes (all kinds)."""
        self._uncounted: set[str] = set()
        self._languages: tuple[int, dict[str, int]] | None = None
        """The files counted and the files per language, as last counted."""

    def mark(self, paths: Iterable[str]) -> None:
        """Recount these files' edges at the next summary."""
        self._uncounted.update(paths)

    def summary(self, graph: MapGraph, files: Mapping[str, FileScope]) -> dict[str, Any]:
        """`symbols`, `edges` and `languages` (files per language) of the map."""
        for path in self._uncounted:
            scope = files.get(path)
            if scope is None:
                if self.per_file.pop(path, None) is not None:
                    self._languages = None
                continue
            if path not in self.per_file:
                self._languages = None
            self.per_file[path] = sum(1 for _ in graph.out_edges([path, *scope.symbols]))
        self._uncounted.clear()
        if self._languages is None or self._languages[0] != len(files):
            languages = Counter(scope.language for scope in files.values())
            self._languages = (len(files), dict(sorted(languages.items())))
        return {
            "symbols": graph.number_of_nodes() - len(files),
            "edges": sum(self.per_file.values()),
            "languages": dict(self._languages[1]),
        }
