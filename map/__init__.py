"""The cached map: symbols and edges extracted with tree-sitter, kept in networkx.

Knows nothing of LSP. Imports `disk` for paths, stamps and text.

The front door: bridge/ and memory/ import only the names in `__all__`, from
`map` itself (`from map import CodeMap`), never a submodule (the layer test
holds them to it). Each name is loaded from its module on first use (PEP 562),
so `import map` costs nothing and a caller pays only for what it uses: the
graph library (networkx) comes with `CodeMap`, `MapGraph` and the query
results, not with `language_for` or `Range`. A name needed above goes here
(a public name in its module, or a typed result; never an underscored one).
A name listed here must not also be a submodule's name (`outline`, `query`):
once that submodule is imported, the package attribute is the module.

    CodeMap, MapSettings, BuildReport, MapStatus
                       open, build, update, save and ask the map (codemap)
    BuildProgress, BuildPhase
                       how far a long build is, phase by phase (progress)
    Neighbor, Hit, OutlineEntry, Overview, BadPatternError
                       what graph questions return (query)
    MapGraph           the graph a map is kept in (graph)
    LiveMap, WatchStatus, WatcherState
                       the watcher: stale flags at once, debounced rebuilds
    Symbol, FileExtract, Range, Fingerprint, SymbolKind, EdgeKind
                       what extraction finds in one file (model)
    NodeDetails (FileDetails | SymbolDetails), EdgeDetails
                       what the map knows of a node or an edge (model);
                       nothing above map/ reads the graph's attribute dicts
    extract_file, language_for, grammar, LANGUAGES, list_files
                       extract one file; which files and languages (extract,
                       languages, walk)
    fingerprint_text, comment_spans, TokenIndex
                       normalized fingerprints (fingerprint)
    Outline, outline_file
                       a file's symbols and comment spans, parsed without
                       its edges (outline)
    MapError, UnknownNodeError, SnapshotError     the error tree (errors)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from map.codemap import BuildReport, CodeMap, MapSettings, MapStatus
    from map.errors import MapError, SnapshotError, UnknownNodeError
    from map.extract import extract_file
    from map.fingerprint import TokenIndex, comment_spans, fingerprint_text
    from map.graph import MapGraph
    from map.languages import LANGUAGES, grammar, language_for
    from map.live_map import LiveMap
    from map.model import (
        EdgeDetails,
        EdgeKind,
        FileDetails,
        FileExtract,
        Fingerprint,
        NodeDetails,
        Range,
        Symbol,
        SymbolDetails,
        SymbolKind,
    )
    from map.outline import Outline, outline_file
    from map.progress import BuildPhase, BuildProgress
    from map.query import BadPatternError, Hit, Neighbor, OutlineEntry, Overview
    from map.walk import list_files
    from map.watch import WatcherState, WatchStatus

_HOME = {
    "BuildPhase": "map.progress",
    "BuildProgress": "map.progress",
    "BuildReport": "map.codemap",
    "CodeMap": "map.codemap",
    "MapSettings": "map.codemap",
    "MapStatus": "map.codemap",
    "MapError": "map.errors",
    "SnapshotError": "map.errors",
    "UnknownNodeError": "map.errors",
    "extract_file": "map.extract",
    "TokenIndex": "map.fingerprint",
    "comment_spans": "map.fingerprint",
    "fingerprint_text": "map.fingerprint",
    "MapGraph": "map.graph",
    "LANGUAGES": "map.languages",
    "grammar": "map.languages",
    "language_for": "map.languages",
    "LiveMap": "map.live_map",
    "EdgeDetails": "map.model",
    "EdgeKind": "map.model",
    "FileDetails": "map.model",
    "NodeDetails": "map.model",
    "SymbolDetails": "map.model",
    "FileExtract": "map.model",
    "Fingerprint": "map.model",
    "Range": "map.model",
    "Symbol": "map.model",
    "SymbolKind": "map.model",
    "Outline": "map.outline",
    "outline_file": "map.outline",
    "BadPatternError": "map.query",
    "Hit": "map.query",
    "Neighbor": "map.query",
    "OutlineEntry": "map.query",
    "Overview": "map.query",
    "list_files": "map.walk",
    "WatchStatus": "map.watch",
    "WatcherState": "map.watch",
}
"""Where each public name lives."""

__all__ = [
    "LANGUAGES",
    "BadPatternError",
    "BuildPhase",
    "BuildProgress",
    "BuildReport",
    "CodeMap",
    "EdgeDetails",
    "EdgeKind",
    "FileDetails",
    "FileExtract",
    "Fingerprint",
    "Hit",
    "LiveMap",
    "MapError",
    "MapGraph",
    "MapSettings",
    "MapStatus",
    "Neighbor",
    "NodeDetails",
    "Outline",
    "OutlineEntry",
    "Overview",
    "Range",
    "SnapshotError",
    "Symbol",
    "SymbolDetails",
    "SymbolKind",
    "TokenIndex",
    "UnknownNodeError",
    "WatchStatus",
    "WatcherState",
    "comment_spans",
    "extract_file",
    "fingerprint_text",
    "grammar",
    "language_for",
    "list_files",
    "outline_file",
]


def __getattr__(name: str) -> object:
    """A public name, imported from its module on first use."""
    if name not in _HOME:
        raise AttributeError(f"module 'map' has no attribute {name!r}")
    return getattr(importlib.import_module(_HOME[name]), name)
