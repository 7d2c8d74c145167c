"""Confirm the map's static edges with a live language server.

An edge `user -> used` (calls, references, inherits) was resolved by name;
it holds when the live server, asked where the name at one of the edge's use
sites is defined, lands on `used`'s definition. Asking at the use site (not
for every reference of `used`) makes the check exact and cheap, and right
with servers that search only their open files, or answer re-exported
symbols partially (ty): the user's file is the one opened.

At most `MAX_CHECKED_EDGES` edges are checked per answer, in the order the
answer lists them; the rest, and edges that cannot be checked (an `imports`
or `contains` edge, a file changed since the map was built, a language with
no server, a server error), stay `verified: null` with a reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bridge.context import AppContext
from bridge.mapview import UseSite, changed_since_build, use_site
from disk.errors import DiskError
from lsp.errors import LspError, NoServerError, UnsupportedFileError
from map.codemap import CodeMap

MAX_CHECKED_EDGES = 32
METHOD = "definition at the use site"


@dataclass(frozen=True, slots=True)
class Edge:
    """One listed edge: `user` uses `used` (`kind`: calls, references, inherits...)."""

    user: str
    used: str
    kind: str


@dataclass(slots=True)
class Verification:
    """Which edges held: True, False, or None (not checked, see `reasons`)."""

    verdicts: dict[Edge, bool | None] = field(default_factory=dict)
    reasons: dict[str, int] = field(default_factory=dict)

    def skip(self, edge: Edge, reason: str) -> None:
        """Record `edge` as unchecked, for `reason`."""
        self.verdicts[edge] = None
        self.reasons[reason] = self.reasons.get(reason, 0) + 1

    def summary(self) -> dict[str, object]:
        """The JSON shape answers carry (`verification`)."""
        found = list(self.verdicts.values())
        return {
            "method": METHOD,
            "checked": sum(v is not None for v in found),
            "held": sum(v is True for v in found),
            "notHeld": sum(v is False for v in found),
            "unchecked": sum(v is None for v in found),
            "uncheckedReasons": dict(sorted(self.reasons.items())),
        }


async def verify_edges(app: AppContext, code_map: CodeMap, edges: Sequence[Edge]) -> Verification:
    """Check `edges` (deduplicated, in order) against the live server."""
    result = Verification()
    sites: list[tuple[Edge, UseSite]] = []
    for edge in dict.fromkeys(edges):
        site = use_site(code_map, edge.user, edge.used, edge.kind)
        if site is None:
            result.skip(edge, "not a use the map can point at")
        elif changed_since_build(code_map, site.path) or changed_since_build(
            code_map, site.target_path
        ):
            result.skip(edge, "file changed since the map was built")
        elif len(sites) >= MAX_CHECKED_EDGES:
            result.skip(edge, f"over the cap of {MAX_CHECKED_EDGES} checked edges")
        else:
            sites.append((edge, site))
    no_server: set[str] = set()  # file extensions
    for edge, site in sites:
        extension = site.path.rpartition(".")[2]
        if extension in no_server:
            result.skip(edge, "no language server for the file")
            continue
        try:
            found = await app.live.definition(site.path, site.line, site.character)
        except (NoServerError, UnsupportedFileError):
            no_server.add(extension)
            result.skip(edge, "no language server for the file")
            continue
        except (LspError, DiskError) as exc:
            result.skip(edge, f"server error: {type(exc).__name__}")
            continue
        result.verdicts[edge] = any(
            loc.path == site.target_path
            and site.target_lines[0] <= loc.line <= site.target_lines[1]
            for loc in found
        )
    return result
