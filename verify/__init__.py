"""Live symbol verification: where the map and the live servers meet.

Answers two questions: is this live answer complete (checked against every
site where the name appears, the map saying what each site holds), and is the
map right about this symbol (resolve's comparison, edges confirmed at their use
sites, memory checks' found symbols listed by the server). Imports the front
doors of `map`, `lsp` and `disk`; never `bridge` nor `memory` (the surface hands
a workspace in, and adapts the memory check's confirmation).

The front door: the surface imports only the names in `__all__`, from `verify`
itself, never a submodule. Each name loads from its module on first use (PEP 562).

    Workspace          what verification needs of a workspace (workspace)
    NodeTarget, LspPosition
                       what it is pointed at (targets)
    CheckCache         what the cross-check keeps between questions (checkcache),
                       bounded by CacheSettings
    scan, name_at, Scan
                       the candidate sites of a name (candidates)
    Site, Role, Source one line naming it, and what the map sees there (sites)
    label, names_code  what the map and the syntax see on them (labels); the uses
                       the map's link ties to another symbol, ruled out (typed)
    judge, stands_against, Verdict, Reason, Question, ReasonCode
                       an answer checked against its candidates (completeness)
    prime, prime_cap, files_to_prime, Priming, PRIME_CAP
                       open the candidate files for servers that need it (priming)
    cross_checked      ask, prime, judge, recover: one checked question (crosscheck)
    judge_users, judge_dependents, judge_changes, judge_callees, judge_path, MapVerdict,
    MapReason,
    MapReasonCode,
    OpenUse            a map answer weighed against the uses linking left open (map_reasons)
    OpenSites, OpenSite
                       those uses as sites, read as far as an answer lists them (opensites)
    callers_from_callees, recovered_callers, by_target
                       callers the call hierarchy missed (callers)
    LiveSymbol, flatten, name_parts, enclosing, find_exact, find_by_name
                       a live outline seen through node IDs (symbols)
    kept_outline, symbol_named
                       live outlines kept per content; a symbol by name and line (outlines)
    MapEntry, map_entry, Edge, UseSite, use_site, nearest_ids, changed_since_build
                       what the map recorded (recorded)
    verify_edges, EdgeVerdicts, UncheckedReason
                       the map's edges confirmed live at their use sites (edges)
    resolve_node, resolve_live, live_symbols, live_failure, Resolution
                       where a symbol is now, against the map (resolve)
    LiveConfirmer, Listing, ListingReason
                       memory checks' found symbols, listed live? (liveconfirm)
    VerifyError, UnknownSymbolError, SymbolGoneError      the error tree (errors)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from disk.front_door import lazy_getattr

if TYPE_CHECKING:
    from verify.callers import by_target, callers_from_callees, recovered_callers
    from verify.candidates import Scan, name_at, scan
    from verify.checkcache import CacheSettings, CheckCache
    from verify.completeness import Question, Reason, ReasonCode, Verdict, judge, stands_against
    from verify.crosscheck import cross_checked
    from verify.edges import EdgeVerdicts, UncheckedReason, verify_edges
    from verify.errors import SymbolGoneError, UnknownSymbolError, VerifyError
    from verify.labels import label, names_code
    from verify.liveconfirm import Listing, ListingReason, LiveConfirmer
    from verify.map_reasons import MapReason, MapReasonCode, OpenUse
    from verify.mapcheck import (
        MapVerdict,
        judge_callees,
        judge_changes,
        judge_dependents,
        judge_path,
        judge_users,
    )
    from verify.opensites import OpenSite, OpenSites
    from verify.outlines import kept_outline, symbol_named
    from verify.priming import PRIME_CAP, Priming, files_to_prime, prime, prime_cap
    from verify.recorded import (
        Edge,
        MapEntry,
        UseSite,
        changed_since_build,
        map_entry,
        nearest_ids,
        use_site,
    )
    from verify.resolve import Resolution, live_failure, live_symbols, resolve_live, resolve_node
    from verify.sites import Role, Site, Source
    from verify.symbols import LiveSymbol, enclosing, find_by_name, find_exact, flatten, name_parts
    from verify.targets import LspPosition, NodeTarget
    from verify.workspace import Workspace

_HOME = {
    "verify.callers": ("by_target", "callers_from_callees", "recovered_callers"),
    "verify.candidates": ("Scan", "name_at", "scan"),
    "verify.checkcache": ("CacheSettings", "CheckCache"),
    "verify.completeness": (
        "Question",
        "Reason",
        "ReasonCode",
        "Verdict",
        "judge",
        "stands_against",
    ),
    "verify.crosscheck": ("cross_checked",),
    "verify.edges": ("EdgeVerdicts", "UncheckedReason", "verify_edges"),
    "verify.errors": ("SymbolGoneError", "UnknownSymbolError", "VerifyError"),
    "verify.labels": ("label", "names_code"),
    "verify.liveconfirm": ("Listing", "ListingReason", "LiveConfirmer"),
    "verify.map_reasons": ("MapReason", "MapReasonCode", "OpenUse"),
    "verify.mapcheck": (
        "MapVerdict",
        "judge_callees",
        "judge_changes",
        "judge_dependents",
        "judge_path",
        "judge_users",
    ),
    "verify.opensites": ("OpenSite", "OpenSites"),
    "verify.priming": ("PRIME_CAP", "Priming", "files_to_prime", "prime", "prime_cap"),
    "verify.recorded": (
        "Edge",
        "MapEntry",
        "UseSite",
        "changed_since_build",
        "map_entry",
        "nearest_ids",
        "use_site",
    ),
    "verify.resolve": (
        "Resolution",
        "live_failure",
        "live_symbols",
        "resolve_live",
        "resolve_node",
    ),
    "verify.outlines": ("kept_outline", "symbol_named"),
    "verify.sites": ("Role", "Site", "Source"),
    "verify.symbols": (
        "LiveSymbol",
        "enclosing",
        "find_by_name",
        "find_exact",
        "flatten",
        "name_parts",
    ),
    "verify.targets": ("LspPosition", "NodeTarget"),
    "verify.workspace": ("Workspace",),
}
"""Where each public name lives: module -> the names it holds."""

__all__ = [
    "PRIME_CAP",
    "CacheSettings",
    "CheckCache",
    "Edge",
    "EdgeVerdicts",
    "Listing",
    "ListingReason",
    "LiveConfirmer",
    "LiveSymbol",
    "LspPosition",
    "MapEntry",
    "MapReason",
    "MapReasonCode",
    "MapVerdict",
    "NodeTarget",
    "OpenSite",
    "OpenSites",
    "OpenUse",
    "Priming",
    "Question",
    "Reason",
    "ReasonCode",
    "Resolution",
    "Role",
    "Scan",
    "Site",
    "Source",
    "SymbolGoneError",
    "UncheckedReason",
    "UnknownSymbolError",
    "UseSite",
    "Verdict",
    "VerifyError",
    "Workspace",
    "by_target",
    "callers_from_callees",
    "changed_since_build",
    "cross_checked",
    "enclosing",
    "files_to_prime",
    "find_by_name",
    "find_exact",
    "flatten",
    "judge",
    "judge_callees",
    "judge_changes",
    "judge_dependents",
    "judge_path",
    "judge_users",
    "kept_outline",
    "label",
    "live_failure",
    "live_symbols",
    "map_entry",
    "name_at",
    "name_parts",
    "names_code",
    "nearest_ids",
    "prime",
    "prime_cap",
    "recovered_callers",
    "resolve_live",
    "resolve_node",
    "scan",
    "stands_against",
    "symbol_named",
    "use_site",
    "verify_edges",
]

__getattr__ = lazy_getattr(__name__, _HOME)
