"""Verification's typed verdicts on map answers, in the published map shapes.

`verification_of` renders the live check of listed edges (`verify.verify_edges`);
`map_checked`, `walked_checked`, `unresolved_site` and `verdict_warnings` render how
complete a graph answer is (`verify.mapcheck`): its reasons, its open uses as sites.
"""

from __future__ import annotations

from bridge.contract.map_shapes import (
    MapChecked,
    MapReason,
    UnresolvedSite,
    Verification,
    WalkChecked,
)
from bridge.contract.nav_shapes import cut_line
from verify import EdgeVerdicts, MapVerdict, OpenSite


def verification_of(verdicts: EdgeVerdicts) -> Verification:
    """What answers carry as `verification`."""
    return Verification(
        method="definition at the use site",
        checked=verdicts.checked,
        held=verdicts.held,
        notHeld=verdicts.not_held,
        unchecked=verdicts.unchecked,
        uncheckedReasons=dict(sorted(verdicts.reasons.items())),
    )


def map_checked(verdict: MapVerdict) -> MapChecked:
    """The keys a verdict adds to a graph answer's `data` (`unresolved` empty: the
    answer lists its sites as far as its budget goes, see `unresolved_site`)."""
    return MapChecked(
        completeness="complete" if verdict.complete else "partial",
        completenessReasons=[MapReason(code=r.code, message=r.message) for r in verdict.reasons],
        unresolved=[],
        unresolvedCount=len(verdict.uses),
    )


def unresolved_site(site: OpenSite, *, hop: bool = True) -> UnresolvedSite:
    """One open use as answers list it (`hop` False: a path's, which has none)."""
    use = site.use
    item = UnresolvedSite(
        path=use.path,
        line=use.line,
        column=site.column,
        text=cut_line(site.text),
        seenAs=site.role,
        name=use.name,
        receiver=use.receiver,
        enclosing=use.scope,
        why=use.why,
    )
    if hop:
        item["hop"] = site.hop
    if use.guesses:
        item["guesses"] = list(use.guesses)
    return item


def verdict_warnings(verdict: MapVerdict) -> list[str]:
    """One line for the envelope when the answer is partial."""
    if verdict.complete:
        return []
    codes = ", ".join(r.code for r in verdict.reasons)
    return [f"partial answer ({codes}): see data.completenessReasons and data.unresolved"]


def walked_checked(verdict: MapVerdict, depth: int | None, order: str) -> WalkChecked:
    """The keys a verdict and its walk add to a walk's `data`."""
    return WalkChecked(
        **map_checked(verdict), depth=depth, order=order, hopsChecked=verdict.hops_checked
    )
