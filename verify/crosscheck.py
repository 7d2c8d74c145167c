"""Ask a live question, primed by and checked against the symbol's candidate sites.

1. The name at the queried position is scanned for (`verify.candidates`,
   reusing the workspace's `CheckCache` for files that did not change) while
2. the server answers (the two run at once: the scan is local work).
3. For a server whose catalog entry says `prime_before_search`, the
   candidate files that answer did not cover are opened (`verify.priming`)
   and, when any was, the question is asked again.
4. The sites it did not confirm are labelled (`verify.labels`; those the map's
   link ties to another symbol are ruled out: `verify.typed`) and the
   answer is judged against the candidates (`verify.completeness`);
   when sites that stand against it stay unconfirmed (`stands_against`: not
   comments nor other symbols' definitions), `recover` may confirm some from
   another side (callers: `verify.callers`), and the answer is judged again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection
from dataclasses import replace
from typing import TypeVar

from disk.columns import from_utf16
from disk.errors import DiskError
from disk.paths import resolve_in_root
from disk.text import read_source
from verify.candidates import Scan, name_at, scan
from verify.completeness import Question, Verdict, judge, stands_against
from verify.labels import label, names_code
from verify.priming import Priming, files_to_prime, prime, prime_cap
from verify.sites import Site
from verify.targets import LspPosition
from verify.typed import WEIGHED, typed_elsewhere
from verify.workspace import Workspace

R = TypeVar("R")
Places = Callable[[list[R]], set[tuple[str, int]]]


async def cross_checked(
    workspace: Workspace,
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
    live = workspace.live
    language = live.language_of(position.path)
    spec = live.catalog.server_for_language(language)
    found_scan, found = await asyncio.gather(
        _scan(workspace, position, spec.extensions if spec is not None else ()), ask()
    )
    target = (position.path, position.line + 1)
    priming: Priming | None = None
    primes = spec is not None and spec.prime_before_search and question != "definition"
    if primes and found_scan is not None:
        covered = {path for path, _ in places(found)} | {position.path}
        files = files_to_prime(_to_prime(question, found_scan), covered)
        if files:
            cap = prime_cap(workspace.live_settings.max_open_documents)
            priming = await prime(live, language, files, cap)
            if priming.opened:
                found = await ask()

    async def verdict_on(answer: list[R]) -> Verdict:
        confirmed = places(answer)
        checked, unparsed = found_scan, 0
        if found_scan is not None and not (question == "definition" and confirmed):
            checked, unparsed = await _labelled(workspace, found_scan, confirmed, target)
        return judge(
            question,
            answer=confirmed,
            scan=checked,
            target=target,
            excluded=excluded,
            unparsed_files=unparsed,
            checked=found_scan is not None,
            loading=live.still_loading(position.path),
            workspace=[f"{p.cause}; {p.fix}" for p in live.workspace_problems(position.path)],
            priming=priming,
        )

    verdict = await verdict_on(found)
    against = [site for site in verdict.unconfirmed if stands_against(question, site)]
    if recover is not None and against:
        extra = await recover(against)
        if extra:
            found = [*found, *extra]
            verdict = await verdict_on(found)
    return found, verdict


def _to_prime(question: Question, found: Scan) -> list[Site]:
    """The sites whose files may hold what the server missed."""
    if question == "callers":
        return [site for site in found.sites if site.call_like]
    return list(found.sites)


async def _labelled(
    workspace: Workspace,
    found: Scan,
    confirmed: Collection[tuple[str, int]],
    target: tuple[str, int],
) -> tuple[Scan, int]:
    """`found` with the sites the answer did not confirm labelled by the map (those
    its link ties to another symbol than the one at `target` ruled out: verify.typed),
    and how many of their files were left unparsed."""
    pending = [site for site in found.sites if site.place not in confirmed]
    code_map = workspace.open_map
    done = await asyncio.to_thread(
        label,
        workspace.root,
        found.name,
        pending,
        max_file_bytes=workspace.map_settings.max_file_bytes,
        known=code_map.extract_of if code_map is not None else None,
        cache=workspace.check_cache,
    )
    labelled = list(done.sites)
    if any(site.role in WEIGHED for site in labelled):  # uses in code: does the map type them?
        code_map = code_map or await workspace.code_map()
        labelled = await asyncio.to_thread(typed_elsewhere, code_map, target, found.name, labelled)
    kept = [site for site in found.sites if site.place in confirmed]
    return replace(found, sites=(*kept, *labelled)), done.unparsed_files


async def _scan(
    workspace: Workspace, position: LspPosition, extensions: Collection[str]
) -> Scan | None:
    """The candidate sites of the name at `position`; None when no name in code
    is there (a keyword, punctuation, a comment)."""
    text = position.line_text
    if not text:
        try:
            lines = read_source(resolve_in_root(workspace.root, position.path)).splitlines()
        except DiskError:
            return None
        text = lines[position.line] if position.line < len(lines) else ""
    column = from_utf16(text, position.character)
    name = name_at(text, column)
    if name is None or not extensions:
        return None
    cache = workspace.check_cache
    if not await asyncio.to_thread(
        names_code, workspace.root, position.path, position.line, column, cache
    ):
        return None
    settings = workspace.map_settings
    return await asyncio.to_thread(
        scan,
        workspace.root,
        name,
        extensions,
        exclude=settings.exclude,
        snapshot_dir=settings.snapshot_dir,
        max_file_bytes=settings.max_file_bytes,
        cache=cache,
    )
