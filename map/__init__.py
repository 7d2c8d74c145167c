"""The cached map: symbols and edges extracted with tree-sitter, kept in networkx.

Knows nothing of LSP. Imports `disk` for paths, stamps and text.

Inside, one room (sub-package) per stage of the pipeline, each importing only the
rooms before it (tests/test_layers.py holds them to it); each room's docstring
says its job and its invariant:

    extraction   one file's bytes -> its extract (grammars, queries, fingerprints)
    graph        the networkx graph and the questions asked of it
    linking      references tied to the symbols they name, across files
    intake       which files the map reads; reading and extracting what moved
    store        the map on disk (SQLite) and the answers it gives alone
    live         one repository's map kept true while files change (the watcher)

Below them, in map/ itself: the models (model), the error tree (errors), build
progress (progress), and the collector and interpreter etiquette of long work
(gcpause, give_way).

The front door: bridge/ and memory/ import only the names in `__all__`, from
`map` itself (`from map import CodeMap`), never a submodule (the layer test
holds them to it). Each name is loaded from its module on first use (PEP 562),
so `import map` costs nothing and a caller pays only for what it uses. The
graph library (networkx) loads with the first graph made
(`map.graph.mapgraph.new_graph`): a map that answers from its store and finds
nothing changed makes none. A name needed above goes here (a public name in its
module, or a typed result; never an underscored one). A name listed here must not
also be a submodule's name (`outline`, `query`): once that submodule is imported,
the package attribute is the module.

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
    UnresolvedUse, UnresolvedWhy, UseTie
                       a use linking left open (to nothing of ours, or a
                       guess), and why; what one use was tied to (unresolved)
    TeamStore, TeamStatus
                       the map rows a team shares in PostgreSQL, by content
                       (team_store)
    MapError, UnknownNodeError, SnapshotError, TeamStoreError
                       the error tree (errors)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from disk.front_door import lazy_getattr

if TYPE_CHECKING:
    from map.errors import MapError, SnapshotError, TeamStoreError, UnknownNodeError
    from map.extraction.extract import extract_file
    from map.extraction.fingerprint import TokenIndex, comment_spans, fingerprint_text
    from map.extraction.languages import LANGUAGES, grammar, language_for
    from map.extraction.outline import Outline, outline_file
    from map.graph.mapgraph import MapGraph, import_graph_library
    from map.graph.patterns import BadPatternError
    from map.graph.query import Hit, Neighbor, OutlineEntry, Overview
    from map.intake.walk import list_files
    from map.linking.unresolved import UnresolvedUse, UnresolvedWhy, UseTie
    from map.live.codemap import BuildReport, CodeMap, MapSettings, MapStatus
    from map.live.live_map import LiveMap
    from map.live.watch import WatcherState, WatchStatus
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
    from map.progress import BuildPhase, BuildProgress
    from map.store.team_store import TeamStatus, TeamStore

_HOME = {
    "map.live.codemap": ("BuildReport", "CodeMap", "MapSettings", "MapStatus"),
    "map.errors": ("MapError", "SnapshotError", "TeamStoreError", "UnknownNodeError"),
    "map.store.team_store": ("TeamStatus", "TeamStore"),
    "map.extraction.extract": ("extract_file",),
    "map.extraction.fingerprint": ("TokenIndex", "comment_spans", "fingerprint_text"),
    "map.graph.mapgraph": ("MapGraph", "import_graph_library"),
    "map.extraction.languages": ("LANGUAGES", "grammar", "language_for"),
    "map.live.live_map": ("LiveMap",),
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
    "map.extraction.outline": ("Outline", "outline_file"),
    "map.progress": ("BuildPhase", "BuildProgress"),
    "map.graph.patterns": ("BadPatternError",),
    "map.graph.query": ("Hit", "Neighbor", "OutlineEntry", "Overview"),
    "map.linking.unresolved": ("UnresolvedUse", "UnresolvedWhy", "UseTie"),
    "map.intake.walk": ("list_files",),
    "map.live.watch": ("WatcherState", "WatchStatus"),
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
    "TeamStatus",
    "TeamStore",
    "TeamStoreError",
    "TokenIndex",
    "UnknownNodeError",
    "UnresolvedUse",
    "UnresolvedWhy",
    "UseTie",
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
