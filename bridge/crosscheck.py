"""Ask a live question, primed by and checked against the symbol's candidate sites.

1. The name at the queried position is scanned for (`bridge.candidates`).
2. The server answers.
3. For a server whose catalog entry says `prime_before_search`, the
   candidate files that answer did not cover are opened (`bridge.priming`)
   and, when any was, the question is asked again.
4. The answer is judged against the candidates (`bridge.completeness`);
   when sites stay unconfirmed, `recover` may confirm some from another side
   (callers: `bridge.callers`), and the answer is judged again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection
from typing import TypeVar

from bridge.candidates import Scan, Site, name_at, scan
from bridge.completeness import Question, Verdict, candidates_for, judge
from bridge.context import AppContext
from bridge.priming import Priming, files_to_prime, prime, prime_cap
from bridge.targets import LspPosition
from disk.columns import from_utf16
from disk.errors import DiskError
from disk.paths import resolve_in_root
from disk.text import read_source

R = TypeVar("R")
Places = Callable[[list[R]], set[tuple[str, int]]]


async def cross_checked(
    app: AppContext,
    position: LspPosition,
    question: Question,
    ask: Callable[[], Awaitable[list[R]]],
    places: Places[R],
    *,
    excluded: Collection[tuple[str, int]] = (),
    recover: Callable[[list[Site]], Awaitable[list[R]]] | None = None,
) -> tuple[list[R], Verdict]:
    """The answer of `ask` (asked again after priming, when priming opened files)
    and its verdict; `places` gives an answer's (path, 1-based line) places."""
    live = app.live
    language = live.language_of(position.path)
    spec = live.catalog.server_for_language(language)
    found_scan = await _scan(app, position, spec.extensions if spec is not None else ())
    found = await ask()
    target = (position.path, position.line + 1)
    priming: Priming | None = None
    primes = spec is not None and spec.prime_before_search and question != "definition"
    if primes and found_scan is not None:
        covered = {path for path, _ in places(found)} | {position.path}
        sites = candidates_for(question, found_scan, target)
        files = files_to_prime(sites, covered)
        if files:
            cap = prime_cap(app.live_settings.max_open_documents)
            priming = await prime(live, language, files, cap)
            if priming.opened:
                found = await ask()

    def verdict_on(answer: list[R]) -> Verdict:
        return judge(
            question,
            answer=places(answer),
            scan=found_scan,
            target=target,
            excluded=excluded,
            loading=live.still_loading(position.path),
            priming=priming,
        )

    verdict = verdict_on(found)
    if recover is not None and verdict.unconfirmed:
        extra = await recover(list(verdict.unconfirmed))
        if extra:
            found = [*found, *extra]
            verdict = verdict_on(found)
    return found, verdict


async def _scan(app: AppContext, position: LspPosition, extensions: Collection[str]) -> Scan | None:
    """The candidate sites of the name at `position` (None when no name is there)."""
    name = _name_at(app, position)
    if name is None or not extensions:
        return None
    settings = app.map_settings
    return await asyncio.to_thread(
        scan,
        app.root,
        name,
        extensions,
        exclude=settings.exclude,
        snapshot_dir=settings.snapshot_dir,
        max_file_bytes=settings.max_file_bytes,
    )


def _name_at(app: AppContext, position: LspPosition) -> str | None:
    text = position.line_text
    if not text:
        try:
            lines = read_source(resolve_in_root(app.root, position.path)).splitlines()
        except DiskError:
            return None
        text = lines[position.line] if position.line < len(lines) else ""
    return name_at(text, from_utf16(text, position.character))
