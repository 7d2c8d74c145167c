"""The reasons a map answer gives for being partial, as lines that say them
(verify.mapcheck weighs the answer; these word it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from map import UnresolvedUse

MapReasonCode = Literal[
    "graph_not_loaded",
    "link_not_loaded",
    "unresolved_uses",
    "conditional_uses",
    "unresolved_callees",
    "hops_not_checked",
    "symbols_removed",
]
"""The codes a map answer's `completenessReasons` give (published in the map schemas)."""
SHOWN_NAMES = 4
"""Names a reason quotes per kind of open use."""
COMPILED_IF = "compiled_if"
"""The why of a use tied in C code under a preprocessor condition the map cannot
decide: listed, and compiled only in builds that meet it (`conditional_uses`)."""


@dataclass(frozen=True, slots=True)
class MapReason:
    """Why a map answer is partial: a code, and a line that says it."""

    code: MapReasonCode
    message: str


@dataclass(frozen=True, slots=True)
class OpenUse:
    """An open use an answer lists, and the hop it would have been found at (the
    distance from the answer's node of the edge it may stand for; 0: a path's)."""

    use: UnresolvedUse
    hop: int


_WHAT = {
    "receiver": "on receivers whose type the map does not know",
    "guess": "guessed by name only (on receivers whose type the map does not know)",
    "undefined": "bare names the map could not tie to one definition (library names, or "
    "too many of that name to guess)",
    "outside": "into libraries imported from outside the project",
    "config": "through imports a project configuration the map could not read "
    "(a tsconfig.json or package.json; a PHP namespace Composer maps onto a folder) "
    "may tie to the project",
    "local": "calls through locals or parameters",
    "builtin": "builtins of the language",
    "conditional": "C calls that may run a definition under a preprocessor condition the "
    "map cannot decide, or another: which one depends on the build",
}


def counted(uses: Sequence[OpenUse], *, quote: bool = False) -> str:
    """`uses` counted by why, most first (with a few names each when `quote`)."""
    by_why: dict[str, list[str]] = {}
    for found in uses:
        use = found.use
        written = use.name if use.receiver is None else f"{use.receiver}.{use.name}"
        by_why.setdefault(use.why, []).append(written)
    parts = []
    for why, written_all in sorted(by_why.items(), key=lambda item: -len(item[1])):
        names = list(dict.fromkeys(written_all))
        more = ", ..." if len(names) > SHOWN_NAMES else ""
        quoted = f" ({', '.join(names[:SHOWN_NAMES])}{more})" if quote else ""
        parts.append(f"{len(written_all)} {_WHAT[why]}{quoted}{_conditions(uses, why)}")
    return "; ".join(parts)


def _conditions(uses: Sequence[OpenUse], why: str) -> str:
    """The undecided preprocessor conditions of `conditional` (or `compiled_if`) uses."""
    if why not in ("conditional", COMPILED_IF):
        return ""
    held = dict.fromkeys(f"`{u.use.condition}` in {u.use.path}" for u in uses if u.use.condition)
    more = ", ..." if len(held) > SHOWN_NAMES else ""
    return f" ({', '.join(list(held)[:SHOWN_NAMES])}{more})"


def split_reasons(
    uses: Sequence[OpenUse], reason: Callable[[Sequence[OpenUse]], MapReason]
) -> list[MapReason]:
    """The reasons `uses` give: `reason` for the open ones, and one for the uses tied
    in C code under preprocessor conditions the map cannot decide (`compiled_if`)."""
    tied = [u for u in uses if u.use.why == COMPILED_IF]
    open_ = [u for u in uses if u.use.why != COMPILED_IF]
    reasons = [reason(open_)] if open_ else []
    if tied:
        reasons.append(
            MapReason(
                "conditional_uses",
                f"{count_uses(tied)} listed lie in C code under preprocessor conditions the map "
                f"cannot decide{_conditions(tied, COMPILED_IF)}: compiled only in builds that "
                "meet them (in `unresolved`, why `compiled_if`)",
            )
        )
    return reasons


def count_uses(uses: Sequence[OpenUse]) -> str:
    return f"{len(uses)} use" + ("" if len(uses) == 1 else "s")


def users_reason(uses: Sequence[OpenUse]) -> MapReason:
    named = list(dict.fromkeys(u.use.name for u in uses))
    whose = f"`{named[0]}`"
    if len(named) > 1:
        shown = ", ".join(named[:SHOWN_NAMES]) + (", ..." if len(named) > SHOWN_NAMES else "")
        whose = f"{len(named)} names of the walked nodes ({shown})"
    return MapReason(
        "unresolved_uses",
        f"{count_uses(uses)} of {whose} the map could not tie to a definition "
        f"({counted(uses)}): any may be a user it does not list (in `unresolved`)",
    )


def callees_reason(uses: Sequence[OpenUse], bodies: int) -> MapReason:
    where = "the body" if bodies == 1 else f"the {bodies} bodies walked"
    return MapReason(
        "unresolved_callees",
        f"{count_uses(uses)} inside {where} resolved to nothing in the project "
        f"({counted(uses, quote=True)}): their targets are not listed (in `unresolved`); "
        "any not into a library or a builtin may be project code the map could not tie",
    )
