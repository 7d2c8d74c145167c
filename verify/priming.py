"""The map primes the live server: open the files where the symbol's name appears.

Some servers search only what they have open or in their project/index (the
catalog's `prime_before_search`: tsserver misses files outside every
tsconfig `include`, clangd without a compilation database sees its open files
alone). Before their answer is trusted, the candidate files their first answer
did not cover are opened (and their outline asked), at most `PRIME_CAP` per
question and never more than the open-document limit leaves room for; the
files left out are recorded, and the answer says it is partial.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from disk.paths import relative_posix
from lsp import RequestTimeoutError, ServerCrashedError
from verify.sites import Site

if TYPE_CHECKING:
    from lsp import LivePool

PRIME_CAP = 48
"""Files opened for one question, at most."""
_ROOM_KEPT = 2
"""Open-document slots left for the queried file and one more."""


@dataclass(frozen=True, slots=True)
class Priming:
    """What priming opened for one question, and what it cost."""

    opened: tuple[str, ...]
    not_opened: tuple[str, ...]
    """Candidate files the cap (or a failure) left closed."""
    cap: int
    ms: float
    failed: str | None = None
    """Why priming stopped early (the server crashed or hung), if it did."""


def prime_cap(max_open_documents: int) -> int:
    """How many files one question may open with this open-document limit."""
    return max(0, min(PRIME_CAP, max_open_documents - _ROOM_KEPT))


def files_to_prime(sites: Sequence[Site], covered: Collection[str]) -> list[str]:
    """The files of `sites` the server's answer did not cover: those where the name
    is called first (likelier uses than a mere mention), each group by path."""
    calls = {site.path for site in sites if site.call_like or site.role == "call"}
    files = {site.path for site in sites} - set(covered)
    return sorted(files, key=lambda path: (path not in calls, path))


async def prime(live: LivePool, language: str, files: Sequence[str], cap: int) -> Priming:
    """Open up to `cap` of `files` that `language`'s server does not have open yet.

    A server that crashes or hangs meanwhile ends priming (the question that
    follows restarts it): every file is then reported not opened, with the cause.
    """
    started = time.perf_counter()
    already = {relative_posix(live.root, path) for path in live.session(language).open_documents()}
    closed = [path for path in files if path not in already]
    try:
        opened = await live.prime(closed[:cap]) if cap else []
    except (ServerCrashedError, RequestTimeoutError) as exc:
        return Priming((), tuple(closed), cap, (time.perf_counter() - started) * 1000, str(exc))
    return Priming(
        opened=tuple(opened),
        not_opened=tuple(closed[cap:]),
        cap=cap,
        ms=(time.perf_counter() - started) * 1000,
    )
