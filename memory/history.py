"""What the code was at an anchor commit: the evidence that something is new since then.

A candidate for where moved code went must be new since the anchor commit:
a file git reports added (or untracked), a symbol its file did not have
then, a block of lines that was not there. Old versions come from one
`git cat-file --batch` process, started on first use and ended by `close`;
each old version is parsed once per content, and only when its text names
the symbol asked about. Outside git, for an unknown commit or a dirty
anchor (no commit to compare with), nothing is known to be new: every
candidate counts as new, and the other evidence decides.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Protocol

from memory.bodies import SymbolIndex
from memory.files import FileNow, file_at
from memory.git import BlobReader, Change

_WORD = re.compile(r"\w+")


class CodeNow(Protocol):
    """What History asks of the code now, for one run: `memory.workspace.Workspace`
    (which holds the run's History) is one."""

    @property
    def root(self) -> Path: ...
    @property
    def untracked(self) -> frozenset[str]: ...
    def changes(self, commit: str) -> dict[str, Change] | None: ...
    def mentions(self, file: FileNow, word: str) -> bool: ...
    def index(self, file: FileNow) -> SymbolIndex: ...


class History:
    """Old versions of files, per anchor commit, for one run of a `Workspace`."""

    def __init__(self, ws: CodeNow) -> None:
        self.ws = ws
        self._blobs: BlobReader | None = None
        self._renamed_from: dict[str, dict[str, str]] = {}
        self._then: dict[tuple[str, str], FileNow | None] = {}

    def path_then(self, commit: str | None, path: str) -> str | None:
        """Where the file now at `path` was at `commit`: its old path, or None when it
        is new since then (added, copied or untracked). Outside git, or for an unknown
        commit, `path` itself (nothing is known to be new)."""
        changes = self.ws.changes(commit) if commit else None
        if changes is None or commit is None:
            return path
        if commit not in self._renamed_from:
            self._renamed_from[commit] = {
                change.new_path: old
                for old, change in changes.items()
                if change.kind == "renamed" and change.new_path
            }
        if path in self._renamed_from[commit]:
            return self._renamed_from[commit][path]
        change = changes.get(path)
        if change is not None and change.kind == "added":
            return None
        return None if path in self.ws.untracked else path

    def file_is_new(self, commit: str | None, path: str) -> bool:
        """True unless git shows the file now at `path` existed at `commit` (under any
        path). Unknown history counts as new."""
        if commit is None or self.ws.changes(commit) is None:
            return True
        return self.path_then(commit, path) is None

    def symbol_is_new(self, commit: str | None, path: str, symbol: str) -> bool:
        """True unless the file now at `path` already had a symbol `symbol` (`Qual.Name`)
        at `commit`. Unknown history counts as new: it is no evidence either way.

        The old version is parsed only when its text has the symbol's name as a
        word (a symbol's definition spells its name): most new symbols are new
        under a name the old file never mentioned.
        """
        if commit is None or self.ws.changes(commit) is None:
            return True
        then = self.file_then(commit, path)
        if then is None:
            return True
        name = symbol.rpartition(".")[2].partition("~")[0]
        if _WORD.fullmatch(name) and not self.ws.mentions(then, name):
            return True
        return symbol not in self.ws.index(then).by_id

    def file_then(self, commit: str | None, path: str) -> FileNow | None:
        """The file now at `path` as it was at `commit` (following a git rename); None
        when it is new since then, or git cannot tell (no commit, unknown commit)."""
        old = self.path_then(commit, path)
        if commit is None or old is None or self.ws.changes(commit) is None:
            return None
        return self.file_at(commit, old)

    def file_at(self, commit: str, path: str) -> FileNow | None:
        """The file at `path` in `commit` (any commit name git knows: `abc^` too), read
        once per run; None when absent or not source text."""
        if (commit, path) not in self._then:
            self._then[(commit, path)] = file_at(self._reader(), commit, path)
        return self._then[(commit, path)]

    def blob(self, blob_id: str) -> bytes | None:
        """The content of a blob by its ID (not kept: callers keep what they need)."""
        return self._reader().object(blob_id)

    def _reader(self) -> BlobReader:
        if self._blobs is None:
            self._blobs = BlobReader(self.ws.root)
        return self._blobs

    def close(self) -> None:
        """End the git process that reads old versions (a later call starts it again)."""
        if self._blobs is not None:
            self._blobs.close()
            self._blobs = None
