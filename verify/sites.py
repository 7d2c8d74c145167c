"""A line where a symbol's name appears, and what the map sees there (its role): what
the candidate scan (verify.candidates) finds and the caches, labels and verdicts
built on it hold."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Role = Literal["definition", "call", "inherits", "use", "import", "mention", "other", "library"]
"""What the map sees on a line: `other` and `library` are uses the map's link ties to
another symbol of the name, or to a library's module or type (verify.typed)."""
Source = Literal["map", "text"]


@dataclass(frozen=True, slots=True)
class Site:
    """One line where the name appears."""

    path: str
    line: int
    """1-based."""
    column: int
    """1-based, in characters: the first occurrence on the line."""
    text: str
    role: Role | None
    """What the map sees there; None until `label` parsed the file."""
    call_like: bool
    """The name is followed by `(` (or a type-argument list and `(`)."""

    @property
    def source(self) -> Source:
        """`map` when the map's extraction sees the name there, else `text`."""
        return "text" if self.role in (None, "mention") else "map"

    @property
    def place(self) -> tuple[str, int]:
        """(path, 1-based line)."""
        return self.path, self.line
