"""Memory checks confirmed live: a `memory.live.LiveConfirm` built on the language servers.

The memory check runs in a worker thread; each question goes to the event
loop that owns the live pool and waits there (bounded). A file's outline is
asked once per check. A symbol is confirmed when the server's document
symbols have its node ID with the name on a line of the reported range.
Files without a server, and any failure or timeout, answer None
(`unavailable`): a live confirmation never fails a check. At most
`max_files` files are asked per check, so a check after a large refactor
stays bounded (the rest are `unavailable`).
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import TimeoutError as FutureTimeout

from bridge.context import AppContext
from bridge.symbols import LiveSymbol
from bridge.tools.resolve import live_symbols
from disk.errors import DiskError
from lsp.errors import LspError, NoServerError, UnsupportedFileError

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
        self.deadline = time.monotonic() + budget_s
        self._outlines: dict[str, list[LiveSymbol] | None] = {}

    def __call__(self, path: str, symbol: str, lines: tuple[int, int]) -> bool | None:
        """True when the server lists `path#symbol` with its name within `lines`."""
        outline = self._outline(path)
        if outline is None:
            return None
        node_id = f"{path}#{symbol}"
        first, last = lines
        return any(
            s.node_id == node_id and first <= s.selection.start_line + 1 <= last for s in outline
        )

    def _outline(self, path: str) -> list[LiveSymbol] | None:
        if path in self._outlines:
            return self._outlines[path]
        outline: list[LiveSymbol] | None = None
        left = self.deadline - time.monotonic()
        if len(self._outlines) < self.max_files and left > 0 and self._has_server(path):
            future = asyncio.run_coroutine_threadsafe(live_symbols(self.app, path), self.loop)
            try:
                outline = future.result(timeout=left)
            except FutureTimeout:
                future.cancel()
            except (LspError, DiskError, OSError):  # a crashed or refusing server
                outline = None
        self._outlines[path] = outline
        return outline

    def _has_server(self, path: str) -> bool:
        try:
            self.app.live.language_of(path)
        except (NoServerError, UnsupportedFileError):
            return False
        return True
