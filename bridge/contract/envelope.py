"""One envelope for every answer, and the budget that caps its size.

An agent's context is the scarcest resource there is, so every answer fits a
token budget: the least useful items (the tail of the ranked list) go first,
then long strings are shortened, and `truncated` says what was dropped.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NotRequired

import orjson
from typing_extensions import TypedDict

from bridge.contract.errors import BadInputError, ToolError, UnknownIdError

MIN_BUDGET_TOKENS = 200
MAX_BUDGET_TOKENS = 50_000
CHARS_PER_TOKEN = 4
SHORTEST_STRING = 80


class ErrorInfo(TypedDict):
    """What went wrong, and what to do about it."""

    code: str
    message: str
    hint: str | None
    suggestions: NotRequired[list[str]]
    """The nearest known IDs, for an unknown one (`unknown_id`)."""


class Cut(TypedDict):
    """One list of an answer the budget cut: its key, and how many items it kept and lost."""

    items: str
    kept: int
    dropped: int


class Truncation(TypedDict):
    """What the budget dropped from an answer: `items`, `kept` and `dropped` name the
    most important list it cut; `cuts` lists every list it cut, inside `data` too."""

    items: str
    kept: int
    dropped: int
    budgetTokens: int
    stringsShortened: bool
    cuts: list[Cut]


class AnswerBase(TypedDict):
    """What every answer carries beside its `data`.

    A tool with a typed answer declares `class XAnswer(AnswerBase): data: XData`
    and returns it: MCP publishes that shape as the tool's output schema.
    """

    ok: bool
    warnings: list[str]
    truncated: Truncation | None
    mapBuiltAt: str | None
    stale: bool


class Envelope(AnswerBase):
    """Every tool's answer, whatever its `data`."""

    data: Any


@dataclass(frozen=True)
class Ranked:
    """Items of an answer ranked most important first, however they nest.

    `keep(n)` is the answer's data with only the `n` most important of the
    `total` items; the budget keeps as many as fit and names them `key`. Items
    from several lists rank list after list (`sections`: each list's key and
    size, in rank order), so a cut names what each list lost.
    """

    key: str
    total: int
    keep: Callable[[int], Any]
    sections: tuple[tuple[str, int], ...] = ()

    def cuts(self, kept: int) -> list[Cut]:
        """What keeping the first `kept` items cuts, list by list."""
        sections = self.sections or ((self.key, self.total),)
        found = []
        for key, size in sections:
            own = min(size, max(kept, 0))
            kept -= size
            if own < size:
                found.append(Cut(items=key, kept=own, dropped=size - own))
        return found


def ranked_list(data: dict[str, Any], key: str) -> Ranked:
    """The list `data[key]`, already in rank order: the budget drops its tail."""
    items: list[Any] = data[key]
    return Ranked(key, len(items), lambda n: {**data, key: items[:n]})


Section = tuple[str, int, Callable[[int], list[Any]]]
"""One ranked list of an answer: its key, its size, and its first `n` items (`take(n)`,
fewer when it has fewer): the items may be built only as far as they are asked for."""


def ranked_lists(data: Mapping[str, Any], *keys: str) -> Ranked:
    """The lists `data[key]` for each of `keys`, each in rank order, the first most
    important: the budget empties the last one's tail first, then the one before."""
    return ranked_sections(data, *(_built(key, data[key]) for key in keys))


def _built(key: str, items: list[Any]) -> Section:
    """A list already built, as a section."""
    return key, len(items), lambda count: items[:count]


def ranked_sections(data: Mapping[str, Any], *sections: Section) -> Ranked:
    """`ranked_lists` of lists built as far as asked (`sections`, most important
    first): `keep(n)` asks each list only for the items it keeps."""

    def keep(count: int) -> dict[str, Any]:
        kept = dict(data)
        for key, size, take in sections:
            kept[key] = take(max(count, 0))
            count -= size
        return kept

    sizes = tuple((key, size) for key, size, _ in sections)
    return Ranked(sections[0][0], sum(size for _, size in sizes), keep, sizes)


def estimate_tokens(value: Any) -> int:
    """A cheap token estimate: JSON length over four."""
    return -(-len(orjson.dumps(value)) // CHARS_PER_TOKEN)


def check_budget(budget_tokens: int) -> int:
    """The budget, if it is within bounds; else a BadInputError saying the bounds."""
    if not MIN_BUDGET_TOKENS <= budget_tokens <= MAX_BUDGET_TOKENS:
        raise BadInputError(
            f"budget {budget_tokens} is out of range",
            hint=f"pass a budget between {MIN_BUDGET_TOKENS} and {MAX_BUDGET_TOKENS} tokens",
        )
    return budget_tokens


def respond(
    data: Any,
    *,
    budget_tokens: int,
    items_key: str | None = None,
    ranked: Ranked | None = None,
    cuts: Sequence[Cut] = (),
    warnings: Sequence[str] = (),
    map_built_at: str | None = None,
    stale: bool = False,
) -> Envelope:
    """Wrap `data` in the envelope, trimmed to the budget.

    `items_key` names the list in `data` (ranked most useful first) that may
    lose items from its tail; `ranked` says which items go first otherwise
    (e.g. the locals of a nested outline before its classes). `cuts` are what a
    tool already cut inside `data` to fit the budget: `truncated` reports every
    cut, theirs and the envelope's, in this one place.
    """
    envelope = Envelope(
        ok=True,
        data=data,
        warnings=list(warnings),
        truncated=None,
        mapBuiltAt=map_built_at,
        stale=stale,
    )
    if estimate_tokens(envelope) <= budget_tokens:
        if cuts:
            _note(envelope, cuts[0], list(cuts), budget_tokens, shortened=False)
        return envelope
    has_list = items_key and isinstance(data, dict) and isinstance(data.get(items_key), list)
    if ranked is None and items_key and has_list:
        ranked = ranked_list(data, items_key)
    # Reserve room for the note first, with the widest numbers it can hold.
    sections = _sections(ranked, items_key)
    widest = [Cut(items=key, kept=size, dropped=size) for key, size in sections]
    _note(envelope, _whole(sections), [*cuts, *widest], budget_tokens, shortened=False)
    found = list(cuts)
    if ranked is not None:
        envelope["data"], kept = _keep_most_important(envelope, ranked, budget_tokens)
        found.extend(ranked.cuts(kept))
    shortened = estimate_tokens(envelope) > budget_tokens
    if shortened:
        envelope["data"] = _shorten_to_fit(envelope, budget_tokens)
    headline = found[0] if found else _whole(sections)
    _note(envelope, headline, found, budget_tokens, shortened=shortened)
    return envelope


def _sections(ranked: Ranked | None, items_key: str | None) -> tuple[tuple[str, int], ...]:
    """The lists a cut may name, with their sizes, most important first."""
    if ranked is None:
        return ((items_key, 0),) if items_key else ()
    return ranked.sections or ((ranked.key, ranked.total),)


def _whole(sections: tuple[tuple[str, int], ...]) -> Cut:
    """The most important list, kept whole (`text` when the answer has none)."""
    key, size = sections[0] if sections else ("text", 0)
    return Cut(items=key, kept=size, dropped=0)


def _note(
    envelope: Envelope, headline: Cut, cuts: list[Cut], budget: int, *, shortened: bool
) -> None:
    """Say in the envelope what the budget took out (replacing an earlier note):
    `headline` is the most important list cut (or the answer's list, whole)."""
    envelope["truncated"] = Truncation(
        items=headline["items"],
        kept=headline["kept"],
        dropped=headline["dropped"],
        budgetTokens=budget,
        stringsShortened=shortened,
        cuts=cuts,
    )
    lost = ", ".join(
        f"{cut['dropped']} of {cut['kept'] + cut['dropped']} {cut['items']}" for cut in cuts
    )
    what = f": {lost} dropped" if lost else ""
    warning = f"answer cut to fit {budget} tokens{what}; pass a larger budget or narrow the query"
    if envelope["warnings"] and envelope["warnings"][-1].startswith("answer cut to fit"):
        envelope["warnings"][-1] = warning
    else:
        envelope["warnings"].append(warning)


def error_envelope(exc: ToolError) -> dict[str, Any]:
    """The envelope of a failed call (what an MCP client reads as the error text)."""
    info = ErrorInfo(code=exc.code, message=exc.message, hint=exc.hint)
    if isinstance(exc, UnknownIdError) and exc.suggestions:
        info["suggestions"] = list(exc.suggestions)
    return {"ok": False, "error": info}


def _keep_most_important(envelope: Envelope, ranked: Ranked, budget: int) -> tuple[Any, int]:
    """The data with as many of the most important items as fit, and how many were kept.

    The count is searched from the front (1, 2, 4, ... then halving), so `keep` is never
    asked for more than about twice the items kept: items may be built as asked for."""

    def fits(count: int) -> bool:
        return estimate_tokens({**envelope, "data": ranked.keep(count)}) <= budget

    low, high = 0, 1
    while high <= ranked.total and fits(high):
        low, high = high, high * 2
    high = min(high - 1, ranked.total)
    while low < high:
        mid = (low + high + 1) // 2
        if fits(mid):
            low = mid
        else:
            high = mid - 1
    return ranked.keep(low), low


def _shorten_to_fit(envelope: Envelope, budget: int) -> Any:
    limit = budget * CHARS_PER_TOKEN
    data = envelope["data"]
    while limit > SHORTEST_STRING:
        data = _cap_strings(envelope["data"], limit)
        if estimate_tokens({**envelope, "data": data}) <= budget:
            return data
        limit //= 2
    return _cap_strings(envelope["data"], SHORTEST_STRING)


def _cap_strings(value: Any, limit: int) -> Any:
    if isinstance(value, str) and len(value) > limit:
        return value[: limit - 1] + "…"
    if isinstance(value, dict):
        return {k: _cap_strings(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [_cap_strings(v, limit) for v in value]
    return value
