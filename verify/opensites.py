"""The open uses an answer lists, as sites: their line's text and the name's column,
read from the disk only for the uses the answer shows (`OpenSites.first`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from disk.errors import DiskError
from disk.text import read_source
from map import UnresolvedUse
from verify.map_reasons import OpenUse
from verify.sites import Role

_ROLES: dict[str, Role] = {"calls": "call", "references": "use", "inherits": "inherits"}


@dataclass(frozen=True, slots=True)
class OpenSite:
    """One open use as answers list it: where (1-based `line`, 1-based `column` of the
    name in characters), the line's `text` (stripped; empty when the file cannot be
    read now), what the map sees there (`role`), and the use's facts."""

    use: UnresolvedUse
    hop: int
    column: int
    text: str

    @property
    def role(self) -> Role:
        """`call`, `use` or `inherits`: the kind of use the map sees."""
        return _ROLES[self.use.kind]


class OpenSites:
    """The sites of `uses` (in answer order), each file read once, as far as asked."""

    def __init__(self, root: Path, uses: Sequence[OpenUse]) -> None:
        self._root = root
        self._uses = uses
        self._lines: dict[str, list[str]] = {}
        self._built: list[OpenSite] = []

    def __len__(self) -> int:
        return len(self._uses)

    def first(self, count: int) -> list[OpenSite]:
        """The first `count` sites (fewer when there are fewer uses)."""
        while len(self._built) < min(count, len(self._uses)):
            self._built.append(self._site(self._uses[len(self._built)]))
        return self._built[:count]

    def _site(self, found: OpenUse) -> OpenSite:
        use = found.use
        lines = self._lines.get(use.path)
        if lines is None:
            try:
                lines = read_source(self._root / use.path).splitlines()
            except (DiskError, OSError):
                lines = []
            self._lines[use.path] = lines
        text = lines[use.line - 1] if use.line <= len(lines) else ""
        match = re.search(rf"(?<![\w$#]){re.escape(use.name)}(?![\w$])", text)
        column = match.start() + 1 if match else 1
        return OpenSite(use, found.hop, column, text.strip())
