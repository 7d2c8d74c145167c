"""What the map recorded, read for comparison with the live servers.

A symbol's recorded place (`MapEntry`), an edge's first use site (`UseSite`,
where a live definition request checks it), the IDs nearest a mistyped one,
and whether a file changed since the map was built (flagged by the watcher,
or its content on disk no longer hashes to what the map recorded).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from map import CodeMap, Range

MAX_SUGGESTIONS = 5
PATH_CUTOFF = 60.0
"""How alike (rapidfuzz ratio, 0-100) a map file's path must be to a mistyped one."""
USE_KINDS = frozenset({"calls", "references", "inherits"})
EDGE_OF: dict[str, tuple[str, ...]] = {"calls": ("calls", "values")}
"""The reference kinds whose uses an edge of a kind may come from: a function taken as
a value (C's function pointer, Go's method value) is a `calls` edge."""

# The map's symbol kinds in the LSP SymbolKind names servers report.
_LSP_KIND = {
    "module": "module",
    "namespace": "namespace",
    "class": "class",
    "interface": "interface",
    "struct": "struct",
    "enum": "enum",
    "type": "class",
    "function": "function",
    "method": "method",
    "constructor": "constructor",
    "field": "field",
    "property": "property",
    "variable": "variable",
    "constant": "constant",
}


@dataclass(frozen=True, slots=True)
class MapEntry:
    """Where the map last saw a symbol (1-based, inclusive lines)."""

    node_id: str
    path: str
    kind: str
    start_line: int
    end_line: int
    selection_line: int
    range: Range
    name: str

    @property
    def lsp_kind(self) -> str:
        """The kind as a language server would name it."""
        return _LSP_KIND.get(self.kind, self.kind)

    def as_dict(self) -> dict[str, Any]:
        """The map's view, as shown in `mapRange`."""
        return {
            "nodeId": self.node_id,
            "path": self.path,
            "startLine": self.start_line,
            "endLine": self.end_line,
            "selectionLine": self.selection_line,
        }


def map_entry(code_map: CodeMap, node_id: str) -> MapEntry | None:
    """The map's record of a symbol node, or None when the map has no such symbol."""
    details = code_map.attrs(node_id)
    if details is None or details["kind"] == "file":
        return None
    first, last = details["lines"]
    return MapEntry(
        node_id,
        details["path"],
        details["kind"],
        first,
        last,
        details["selection"].start_line + 1,
        details["range"],
        details["name"],
    )


@dataclass(frozen=True, slots=True)
class Edge:
    """One listed edge: `user` uses `used` (`kind`: calls, references, inherits...)."""

    user: str
    used: str
    kind: str


@dataclass(frozen=True, slots=True)
class UseSite:
    """Where a map edge's use is written (LSP position), and its target's lines."""

    path: str
    line: int
    character: int
    target_path: str
    target_lines: tuple[int, int]
    """1-based, inclusive: the used symbol's range as the map has it."""


def use_site(code_map: CodeMap, user: str, used: str, kind: str) -> UseSite | None:
    """The first use behind the edge `user -> used` (calls, references, inherits):
    the name itself when written there, else another use of that kind on its lines
    (an alias); None for other edges, or when the map has no such use."""
    if kind not in USE_KINDS:
        return None
    details = code_map.edge_attrs(user, used, kind)
    target = map_entry(code_map, used)
    path = user.partition("#")[0]
    extract = code_map.extract_of(path)
    if details is None or target is None or extract is None:
        return None
    lines = set(details["lines"])
    uses = [
        ref
        for ref in extract.references
        if ref.scope == user
        and ref.kind in EDGE_OF.get(kind, (kind,))
        and ref.range.first_line in lines
    ]
    named = [ref for ref in uses if ref.name == target.name]
    first = next(iter(named or uses), None)
    if first is None:
        return None
    return UseSite(
        path,
        first.range.start_line,
        first.range.start_char,
        target.path,
        (target.start_line, target.end_line),
    )


def nearest_ids(code_map: CodeMap, node_id: str, extra: Iterable[str] = ()) -> list[str]:
    """The node IDs closest to a mistyped one, nearest file first.

    Within its file when the map holds that file (plus `extra` known IDs). Else:
    the same name in the map's files whose paths are nearest (a typo in a folder
    or file name finds the right file first), then the same name in other files,
    then the names most like it in the nearest file."""
    from rapidfuzz import fuzz, process  # only for a mistyped ID: not at every start

    path, _, qualname = node_id.partition("#")
    files = code_map.files()
    if path in files:
        pool = {path, *code_map.node_ids(f"{path}#"), *extra}
        return difflib.get_close_matches(node_id, sorted(pool), n=MAX_SUGGESTIONS, cutoff=0.5)
    near = [
        match
        for match, _, _ in process.extract(
            path, sorted(files), scorer=fuzz.ratio, limit=MAX_SUGGESTIONS, score_cutoff=PATH_CUTOFF
        )
    ]
    found = difflib.get_close_matches(node_id, sorted(set(extra)), n=1, cutoff=0.5)
    if not qualname:
        return list(dict.fromkeys([*found, *near]))[:MAX_SUGGESTIONS]
    suffix = f"#{qualname}"
    named = [n for n in code_map.node_ids() if n.endswith(suffix)]
    named.sort(key=lambda n: -fuzz.ratio(path, n.partition("#")[0]))
    found.extend(named)
    if near:
        nearest_file = code_map.node_ids(f"{near[0]}#")
        found.extend(difflib.get_close_matches(f"{near[0]}{suffix}", nearest_file, cutoff=0.6))
    return list(dict.fromkeys(found))[:MAX_SUGGESTIONS]


def changed_since_build(code_map: CodeMap, path: str) -> bool:
    """True when `path` was flagged by the watcher or differs on disk since the build."""
    return path in code_map.stale_files() or code_map.changed_on_disk(path)
