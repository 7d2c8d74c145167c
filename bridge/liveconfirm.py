"""Memory checks confirmed live: a `memory.live.LiveConfirm` built on the language servers.

The memory check runs in a worker thread; each question goes to the event
loop that owns the live pool and waits there (bounded). A file's outline is
asked once per check. A symbol is confirmed when the server's document
symbols have its node ID with the name on a line of the reported range.
A file without a server (`no_server`, said once per language in `notes`), a
failure or a timeout (`server_failed`) answer None: a live confirmation never
fails a check. At most `max_files` files are asked per check, within
`budget_s` seconds, so a check after a large refactor stays bounded (the
rest are `over_budget`).

`run_live` gives the CLI's `memory check` (and `--since`) the same, on
servers the one-shot process starts and stops.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from bridge.context import AppContext
from bridge.errors import BadInputError, ToolError
from bridge.symbols import LiveSymbol
from bridge.tools.resolve import live_symbols
from disk.errors import DiskError
from lsp import LspError, NoServerError, UnsupportedFileError
from memory import (
    LiveCheck,
    LiveConfirm,
    LiveReason,
    MemoryCheck,
    MemoryService,
    Touched,
    confirm_check,
)

T = TypeVar("T")

MAX_FILES = 20
"""Files whose outline one check asks for."""
BUDGET_S = 30.0
"""Wall time one check may spend waiting for outlines, in all."""


class LiveConfirmer:
    """Answers `LiveConfirm` questions for one check from `app`'s language servers."""

    def __init__(
        self,
        app: AppContext,
        loop: asyncio.AbstractEventLoop,
        *,
        max_files: int = MAX_FILES,
        budget_s: float = BUDGET_S,
    ) -> None:
        self.app = app
        self.loop = loop
        self.max_files = max_files
        self.budget_s = budget_s
        self.deadline = time.monotonic() + budget_s
        self._outlines: dict[str, list[LiveSymbol] | LiveReason] = {}
        self._notes: dict[str, str] = {}
        """Why some symbols could not be confirmed, by language (or cause): said once."""

    def __call__(self, path: str, symbol: str, lines: tuple[int, int]) -> LiveCheck:
        """Listed when the server has `path#symbol` with its name within `lines`."""
        outline = self._outline(path)
        if isinstance(outline, str):
            return LiveCheck(None, outline)
        node_id = f"{path}#{symbol}"
        first, last = lines
        listed = any(
            s.node_id == node_id and first <= s.selection.start_line + 1 <= last for s in outline
        )
        return LiveCheck(True, "listed") if listed else LiveCheck(False, "not_listed")

    @property
    def notes(self) -> list[str]:
        """What kept symbols from being confirmed (a missing server, the budget), one line each."""
        return list(self._notes.values())

    def _outline(self, path: str) -> list[LiveSymbol] | LiveReason:
        if path in self._outlines:
            return self._outlines[path]
        outline = self._ask(path)
        self._outlines[path] = outline
        return outline

    def _ask(self, path: str) -> list[LiveSymbol] | LiveReason:
        try:
            language = self.app.live.language_of(path)
        except NoServerError as exc:
            return self._note(exc.language, str(exc), "no_server")
        except UnsupportedFileError:
            return self._note(path, f"no language server reads {path}", "no_server")
        except LspError as exc:
            return self._note(path, str(exc), "no_server")
        left = self.deadline - time.monotonic()
        if len(self._outlines) >= self.max_files or left <= 0:
            return self._note(
                "over_budget",
                f"a check asks for at most {self.max_files} file outlines in "
                f"{self.budget_s:.0f} s; the symbols past that say over_budget",
                "over_budget",
            )
        future = asyncio.run_coroutine_threadsafe(live_symbols(self.app, path), self.loop)
        try:
            return future.result(timeout=left)
        except FutureTimeout:
            future.cancel()
            problem = f"no outline of {path} in time"
        except (LspError, ToolError, DiskError, OSError) as exc:  # a crashed or refusing server
            problem = f"{path}: {exc}"
        return self._note(
            f"failed {language}", f"the {language} server failed: {problem}", "server_failed"
        )

    def _note(self, key: str, message: str, reason: LiveReason) -> LiveReason:
        """Say once per `key` why symbols are not confirmed; returns `reason`."""
        self._notes.setdefault(key, f"live confirmation: {message}")
        return reason


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
        result = await asyncio.to_thread(work, confirm)
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
