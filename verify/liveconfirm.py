"""Memory checks confirmed live: is a symbol the check found listed by the server?

The memory check runs in a worker thread; each question goes to the event
loop that owns the live pool and waits there (bounded). A file's outline is
asked once per check. A symbol is confirmed when the server's document
symbols have its node ID with the name on a line of the reported range.
A file without a server (`no_server`, said once per language in `notes`), a
failure or a timeout (`server_failed`) answer None: a live confirmation never
fails a check. At most `max_files` files are asked per check, within
`budget_s` seconds, so a check after a large refactor stays bounded (the
rest are `over_budget`).

Verification never imports memory/, nor memory/ verification: the surface
adapts a `LiveConfirmer`'s `Listing` to the memory check's `LiveConfirm`.
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass
from typing import Literal

from disk.errors import DiskError
from lsp import LspError, NoServerError, UnsupportedFileError
from verify.resolve import live_symbols
from verify.symbols import LiveSymbol
from verify.workspace import Workspace

MAX_FILES = 20
"""Files whose outline one check asks for."""
BUDGET_S = 30.0
"""Wall time one check may spend waiting for outlines, in all."""

ListingReason = Literal["listed", "not_listed", "no_server", "server_failed", "over_budget"]


@dataclass(frozen=True, slots=True)
class Listing:
    """What the server said of a symbol: `listed` True or False, or None (nobody could
    say: `reason` tells why)."""

    listed: bool | None
    reason: ListingReason


class LiveConfirmer:
    """Answers `LiveConfirm` questions for one check from a workspace's language servers."""

    def __init__(
        self,
        workspace: Workspace,
        loop: asyncio.AbstractEventLoop,
        *,
        max_files: int = MAX_FILES,
        budget_s: float = BUDGET_S,
    ) -> None:
        self.workspace = workspace
        self.loop = loop
        self.max_files = max_files
        self.budget_s = budget_s
        self.deadline = time.monotonic() + budget_s
        self._outlines: dict[str, list[LiveSymbol] | ListingReason] = {}
        self._notes: dict[str, str] = {}
        """Why some symbols could not be confirmed, by language (or cause): said once."""

    def __call__(self, path: str, symbol: str, lines: tuple[int, int]) -> Listing:
        """Listed when the server has `path#symbol` with its name within `lines`."""
        outline = self._outline(path)
        if isinstance(outline, str):
            return Listing(None, outline)
        node_id = f"{path}#{symbol}"
        first, last = lines
        listed = any(
            s.node_id == node_id and first <= s.selection.start_line + 1 <= last for s in outline
        )
        return Listing(True, "listed") if listed else Listing(False, "not_listed")

    @property
    def notes(self) -> list[str]:
        """What kept symbols from being confirmed (a missing server, the budget), one line each."""
        return list(self._notes.values())

    def _outline(self, path: str) -> list[LiveSymbol] | ListingReason:
        if path in self._outlines:
            return self._outlines[path]
        outline = self._ask(path)
        self._outlines[path] = outline
        return outline

    def _ask(self, path: str) -> list[LiveSymbol] | ListingReason:
        try:
            language = self.workspace.live.language_of(path)
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
        future = asyncio.run_coroutine_threadsafe(live_symbols(self.workspace, path), self.loop)
        try:
            return future.result(timeout=left)
        except FutureTimeout:
            future.cancel()
            problem = f"no outline of {path} in time"
        except (LspError, DiskError, OSError) as exc:  # a crashed or refusing server
            problem = f"{path}: {exc}"
        return self._note(
            f"failed {language}", f"the {language} server failed: {problem}", "server_failed"
        )

    def _note(self, key: str, message: str, reason: ListingReason) -> ListingReason:
        """Say once per `key` why symbols are not confirmed; returns `reason`."""
        self._notes.setdefault(key, f"live confirmation: {message}")
        return reason
