"""The typed `data` of the map_* answers and `map build --json`, and their parameters.

Published as MCP output and input schemas (see bridge.contract.schema_types for how).
Keys are camelCase; lines 1-based and inclusive (`lines`: [first, last]).
See docs/contracts.md#map-answers-map_.
"""

from __future__ import annotations

from typing import Annotated, Literal, NotRequired

from pydantic import Field
from typing_extensions import TypedDict

from bridge.contract.envelope import AnswerBase
from bridge.contract.schema_types import Completeness, SeenAs
from map import EdgeKind, SymbolKind, UnresolvedWhy
from verify import MapReasonCode, UncheckedReason

MapLanguage = Literal[
    "python",
    "typescript",
    "tsx",
    "javascript",
    "go",
    "c",
    "cpp",
    "rust",
    "java",
    "ruby",
    "php",
    "csharp",
    "kotlin",
    "swift",
    "scala",
    "lua",
    "bash",
]
"""The languages the map extracts (map.extraction.languages.LANGUAGES)."""
SkipReason = Literal[
    "vendored", "excluded", "unsupported_language", "symlink", "too_large", "binary",
    "undecodable", "generated", "unreadable", "extract_failed",
]  # fmt: skip
"""Why a listed file stays out of the map (map.intake.walk and map.intake.load SKIP_*)."""
NodeKind = Literal["file"] | SymbolKind
"""A map node's kind: a file, or the kind of symbol extraction found."""
Direction = Literal["in", "out"]

# ----------------------------------------------------------------- parameters

SearchPattern = Annotated[
    str,
    Field(
        description="Plain text (case-insensitive: exact, prefix, substring), a glob "
        "(`*Store*`) or a regex (`re:^get_`)."
    ),
]
KindFilter = Annotated[
    NodeKind | None, Field(description="Only nodes of this kind (default: every kind).")
]
SearchLimit = Annotated[int, Field(description="Most hits to return (1-500).")]
NodeId = Annotated[
    str, Field(description="A map node ID: a file path, or `path#Qual.Name` for a symbol.")
]
WalkDirection = Annotated[
    Direction,
    Field(description='"in": what calls or uses the node; "out": what it calls or uses.'),
]
EdgeKinds = Annotated[
    list[EdgeKind] | None,
    Field(description="The edge kinds to follow (default: calls, references, inherits)."),
]
WalkDepth = Annotated[int, Field(description="How many edges away to go (1-10).")]
ImpactDepth = Annotated[
    int | None,
    Field(description="How many edges away to go (1-10; default 2; null: no limit)."),
]
Verify = Annotated[
    bool,
    Field(description="Confirm the listed edges live (`verified` per edge; at most 32)."),
]
PathStart = Annotated[str, Field(description="The node ID the chain starts from.")]
PathEnd = Annotated[str, Field(description="The node ID the chain should reach.")]

# ----------------------------------------------------------------- shared parts


class MapData(TypedDict):
    """What every map answer may carry: the files it names that changed since the build."""

    staleFiles: NotRequired[list[str]]


class Verification(TypedDict):
    """What `verify` found: edges checked, held, not held, and why some were not checked."""

    method: Literal["definition at the use site"]
    checked: int
    held: int
    notHeld: int
    unchecked: int
    uncheckedReasons: dict[UncheckedReason, int]


class MapReason(TypedDict):
    """Why a map answer is partial."""

    code: MapReasonCode
    message: str


class UnresolvedSite(TypedDict):
    """A use linking left open (to nothing of the project's, or a guess by name) that may
    stand for an edge the answer does not list: where, the line's text, what the map
    sees there (`seenAs`), the name used and its `receiver` as written, the symbol it
    is in (`enclosing`), `why` it is open, the `hop` it would add an edge at, and for a
    guess the definitions it may mean (`guesses`)."""

    path: str
    line: int
    column: int
    text: str
    seenAs: SeenAs
    name: str
    receiver: str | None
    enclosing: str
    why: UnresolvedWhy
    hop: NotRequired[int]
    guesses: NotRequired[list[str]]


class MapChecked(TypedDict):
    """How complete a graph answer is (verify.mapcheck): `unresolved` lists the open
    uses after the answer's own items, as far as the budget goes; the count has all."""

    completeness: Completeness
    completenessReasons: list[MapReason]
    unresolved: list[UnresolvedSite]
    unresolvedCount: int


class StaticData(MapData):
    """A graph answer: its edges come from the static map (`source`, `note`)."""

    source: Literal["map"]
    note: str
    verification: NotRequired[Verification]


WALK_ORDER = (
    "nearest first; at one distance, by the node each was reached from (in listed "
    "order), then by node ID"
)
"""How a walk's answer orders what it reached (`order`)."""


class WalkChecked(MapChecked):
    """How complete a walk's answer is, the `depth` it went to (null: no limit), the
    `order` of its items, and the hops whose open uses were weighed (`hopsChecked`)."""

    depth: int | None
    order: str
    hopsChecked: int


class Walked(StaticData, WalkChecked):
    """A walk's answer (map_neighbors, map_impact)."""


_From = TypedDict("_From", {"from": str})
"""`from` is a Python keyword: the functional form declares it."""
_FromTo = TypedDict("_FromTo", {"from": str, "to": str})


class Neighbor(_From):
    """A node reached over edges: `via` the kind of the last one, `from` the node it was
    reached from, `confidence` the weakest edge on the way, `edgeConfidence` and `at`
    (use lines) the last edge's."""

    nodeId: str
    kind: NodeKind
    distance: int
    via: EdgeKind
    confidence: float
    edgeConfidence: float
    at: list[int]
    lines: NotRequired[list[int]]
    verified: NotRequired[bool | None]


# ----------------------------------------------------------------- answers' data


class SearchHit(TypedDict):
    """A node whose name matched."""

    nodeId: str
    kind: NodeKind
    path: str
    lines: NotRequired[list[int]]


class SearchData(MapData):
    """map_search: hits, best match first."""

    query: str
    hits: list[SearchHit]


class OutlineSymbol(TypedDict):
    """One symbol of a file as the map recorded it; `depth` 0 is top level."""

    nodeId: str
    kind: SymbolKind
    lines: list[int]
    depth: int


class OutlineData(MapData):
    """map_outline: the file's symbols in file order."""

    path: str
    symbols: list[OutlineSymbol]


class NeighborsData(Walked):
    """map_neighbors."""

    nodeId: str
    direction: Direction
    neighbors: list[Neighbor]


class ImpactData(Walked):
    """map_impact: transitive dependents, nearest first."""

    nodeId: str
    count: int
    dependents: list[Neighbor]


class Step(_FromTo):
    """One edge of a path: `from` uses `to` (`via`), with its confidence and use lines."""

    via: EdgeKind
    confidence: float
    at: list[int]
    verified: NotRequired[bool | None]


class PathData(StaticData, MapChecked, _FromTo):
    """map_path: the node IDs of the shortest chain (`path`, empty when none) and its
    `steps`."""

    path: list[str]
    found: bool
    steps: list[Step]


class OverviewData(MapData):
    """map_overview: the ranked repo map as text; `symbols` how many it shows."""

    text: str
    symbols: int
    truncated: bool


# ----------------------------------------------------------------- answers


class SearchAnswer(AnswerBase):
    """The map_search answer."""

    data: SearchData


class OutlineAnswer(AnswerBase):
    """The map_outline answer."""

    data: OutlineData


class NeighborsAnswer(AnswerBase):
    """The map_neighbors answer."""

    data: NeighborsData


class PathAnswer(AnswerBase):
    """The map_path answer."""

    data: PathData


class ImpactAnswer(AnswerBase):
    """The map_impact answer."""

    data: ImpactData


class OverviewAnswer(AnswerBase):
    """The map_overview answer."""

    data: OverviewData
