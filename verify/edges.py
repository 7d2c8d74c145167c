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
no server, a server error), stay `verified: null`, counted in
`uncheckedReasons` by code: `not_a_use`, `changed_since_build`, `over_cap`,
`no_server`, `server_error`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from disk.errors import DiskError
from lsp import LspError, NoServerError, UnsupportedFileError
from map import CodeMap
from verify.recorded import Edge, UseSite, changed_since_build, use_site
from verify.workspace import Workspace

MAX_CHECKED_EDGES = 32
UncheckedReason = Literal[
    "not_a_use", "changed_since_build", "over_cap", "no_server", "server_error"
]
"""Why an edge was left unchecked (`verified: null` in answers)."""


@dataclass(slots=True)
class EdgeVerdicts:
    """Which edges held: True, False, or None (not checked, see `reasons`)."""

    verdicts: dict[Edge, bool | None] = field(default_factory=dict)
    reasons: dict[UncheckedReason, int] = field(default_factory=dict)

    def skip(self, edge: Edge, reason: UncheckedReason) -> None:
        """Record `edge` as unchecked, for `reason`."""
        self.verdicts[edge] = None
        self.reasons[reason] = self.reasons.get(reason, 0) + 1

    @property
    def checked(self) -> int:
        """Edges a live server answered for."""
        return sum(v is not None for v in self.verdicts.values())

    @property
    def held(self) -> int:
        """Edges the live server confirmed."""
        return sum(v is True for v in self.verdicts.values())

    @property
    def not_held(self) -> int:
        """Edges the live server contradicted."""
        return sum(v is False for v in self.verdicts.values())

    @property
    def unchecked(self) -> int:
        """Edges left unchecked (see `reasons`)."""
        return sum(v is None for v in self.verdicts.values())


async def verify_edges(
    workspace: Workspace, code_map: CodeMap, edges: Sequence[Edge]
) -> EdgeVerdicts:
    """Check `edges` (deduplicated, in order) against the live server."""
    result = EdgeVerdicts()
    sites: list[tuple[Edge, UseSite]] = []
    for edge in dict.fromkeys(edges):
        site = use_site(code_map, edge.user, edge.used, edge.kind)
        if site is None:
            result.skip(edge, "not_a_use")
        elif changed_since_build(code_map, site.path) or changed_since_build(
            code_map, site.target_path
        ):
            result.skip(edge, "changed_since_build")
        elif len(sites) >= MAX_CHECKED_EDGES:
            result.skip(edge, "over_cap")
        else:
            sites.append((edge, site))
    no_server: set[str] = set()  # file extensions
    for edge, site in sites:
        extension = site.path.rpartition(".")[2]
        if extension in no_server:
            result.skip(edge, "no_server")
            continue
        try:
            found = await workspace.live.definition(site.path, site.line, site.character)
        except (NoServerError, UnsupportedFileError):
            no_server.add(extension)
            result.skip(edge, "no_server")
            continue
        except (LspError, DiskError):
            result.skip(edge, "server_error")
            continue
        result.verdicts[edge] = any(
            loc.path == site.target_path
            and site.target_lines[0] <= loc.line <= site.target_lines[1]
            for loc in found
        )
    return result
