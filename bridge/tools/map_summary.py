"""The map at a glance, as map_status and `map build` give it.

Loads no answer models when it runs (their types are for mypy): a fresh
`map build` process prints it without the published schemas' libraries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from bridge.contract.map_shapes import MapLanguage, SkipReason
    from bridge.contract.map_status_shapes import MapSummary
    from map import MapStatus


def summary(status: MapStatus) -> MapSummary:
    """Files, symbols, edges, languages, skipped files by reason, stale files, and
    when the map was last built and how long that took."""
    return {
        "files": status.files,
        "symbols": status.symbols,
        "edges": status.edges,
        "languages": cast("dict[MapLanguage, int]", status.languages),
        "skipped": cast("dict[SkipReason, int]", status.skipped),
        "staleFiles": list(status.stale_files),
        "builtAt": status.built_at.isoformat(),
        "lastBuildSeconds": round(status.last_build_s, 3),
    }
