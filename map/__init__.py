"""The cached map: symbols and edges extracted with tree-sitter, kept in networkx.

Knows nothing of LSP. Imports `disk` for paths, stamps and text.

The front door: bridge/ and memory/ import only the names in `__all__`, from
`map` itself (`from map import CodeMap`), never a submodule (the layer test
holds them to it). Each name is loaded from its module on first use (PEP 562),
so `import map` costs nothing and a caller pays only for what it uses. The
graph library (networkx) loads with the first graph made (`map.graph.new_graph`):
a map that answers from its store and finds nothing changed makes none. A name
needed above goes here
(a public name in its module, or a typed result; never an underscored one).
A name listed here must not also be a submodule's name (`outline`, `query`):
once that submodule is imported, the package attribute is the module.

    CodeMap, MapSettings, BuildReport, MapStatus
                       open, build, update, save and ask the map (codemap)
    BuildProgress, BuildPhase
                       how far a long build is, phase by phase (progress)
    Neighbor, Hit, OutlineEntry, Overview, BadPatternError
                       what graph questions return (query)
    MapGraph, import_graph_library
                       the graph a map is kept in, its library imported ahead (graph)
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
    UnresolvedUse, UnresolvedWhy
                       a use linking left open (to nothing of ours, or a
                       guess), and why (unresolved)
    MapError, UnknownNodeError, SnapshotError     the error tree (errors)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from disk.front_door import lazy_getattr

if TYPE_CHECKING:
    from map.codemap import BuildReport, CodeMap, MapSettings, MapStatus
    from map.errors import MapError, SnapshotError, UnknownNodeError
    from map.extract import extract_file
    from map.fingerprint import TokenIndex, comment_spans, fingerprint_text
    from map.graph import MapGraph, import_graph_library
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
    from map.unresolved import UnresolvedUse, UnresolvedWhy
    from map.walk import list_files
    from map.watch import WatcherState, WatchStatus

_HOME = {
    "map.codemap": ("BuildReport", "CodeMap", "MapSettings", "MapStatus"),
    "map.errors": ("MapError", "SnapshotError", "UnknownNodeError"),
    "map.extract": ("extract_file",),
    "map.fingerprint": ("TokenIndex", "comment_spans", "fingerprint_text"),
    "map.graph": ("MapGraph", "import_graph_library"),
    "map.languages": ("LANGUAGES", "grammar", "language_for"),
    "map.live_map": ("LiveMap",),
    "map.model": (
        "EdgeDetails",
        "EdgeKind",
        "FileDetails",
        "FileExtract",
        "Fingerprint",
        "NodeDetails",
        "Range",
        "Symbol",
        "SymbolDetails",
        "SymbolKind",
    ),
    "map.outline": ("Outline", "outline_file"),
    "map.progress": ("BuildPhase", "BuildProgress"),
    "map.query": ("BadPatternError", "Hit", "Neighbor", "OutlineEntry", "Overview"),
    "map.unresolved": ("UnresolvedUse", "UnresolvedWhy"),
    "map.walk": ("list_files",),
    "map.watch": ("WatcherState", "WatchStatus"),
}
"""Where each public name lives: module -> the names it holds."""

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
    "UnresolvedUse",
    "UnresolvedWhy",
    "WatchStatus",
    "WatcherState",
    "comment_spans",
    "extract_file",
    "fingerprint_text",
    "grammar",
    "import_graph_library",
    "language_for",
    "list_files",
    "outline_file",
]

__getattr__ = lazy_getattr(__name__, _HOME)
