"""Memory checks confirmed live from the CLI: servers this one-shot process starts
(only when a found symbol needs one) and stops (see `verify.LiveConfirmer`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from bridge.context import AppContext
from bridge.contract.errors import BadInputError
from memory import LiveCheck, LiveConfirm, MemoryCheck, MemoryService, Touched, confirm_check
from verify import LiveConfirmer

T = TypeVar("T")


def confirming(confirmer: LiveConfirmer) -> LiveConfirm:
    """The memory check's `LiveConfirm`, answered by `confirmer`."""

    def confirm(path: str, symbol: str, lines: tuple[int, int]) -> LiveCheck:
        said = confirmer(path, symbol, lines)
        return LiveCheck(said.listed, said.reason)

    return confirm


def run_live(root: Path, work: Callable[[LiveConfirm | None], T]) -> tuple[T, list[str]]:
    """Run `work` in a worker thread with a `LiveConfirm` on language servers this
    process starts (only when a found symbol needs one) and stops before returning.

    `work` gets None when the configuration is too broken to start any server:
    the check stays unconfirmed (`skipped`) and the notes say why. Returns what
    `work` returned and what to tell the user (a missing or failing server).
    """
    return asyncio.run(_run_live(root, work))


async def _run_live(root: Path, work: Callable[[LiveConfirm | None], T]) -> tuple[T, list[str]]:
    try:
        app = AppContext(root)
    except BadInputError as exc:  # a broken configuration keeps the servers, not the check, away
        return await asyncio.to_thread(work, None), [f"live confirmation off: {exc.message}"]
    try:
        confirm = LiveConfirmer(app, asyncio.get_running_loop())
        result = await asyncio.to_thread(work, confirming(confirm))
        return result, app.take_notices() + confirm.notes
    finally:
        await app.aclose()


def check_live(service: MemoryService, ids: Sequence[str]) -> tuple[list[MemoryCheck], list[str]]:
    """`memory check`: check `ids` (default: every memory), found symbols confirmed live."""
    return run_live(service.root, lambda live: service.check(ids, live=live))


def touched_live(root: Path, found: list[Touched]) -> tuple[list[Touched], list[str]]:
    """`memory check --since`: the touched memories' found symbols confirmed live."""

    def confirm(live: LiveConfirm | None) -> list[Touched]:
        if live is None:
            return found
        return [replace(t, check=confirm_check(t.check, live)) for t in found]

    return run_live(root, confirm)
