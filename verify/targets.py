"""What verification is pointed at: a symbol by node ID, or a checked LSP position.

Parsing what a user typed into these (and refusing what is malformed) is the
surface's job (`bridge.tools.targets`); verification takes them as given.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class NodeTarget:
    """A file (`qualname` None) or a symbol in it; `ordinal` counts repeats from 1."""

    path: str
    qualname: str | None = None
    ordinal: int = 1

    @property
    def node_id(self) -> str:
        """The canonical node ID."""
        if self.qualname is None:
            return self.path
        suffix = f"~{self.ordinal}" if self.ordinal > 1 else ""
        return f"{self.path}#{self.qualname}{suffix}"

    @property
    def parts(self) -> tuple[str, ...]:
        """The qualified name split into its container chain and name."""
        return () if self.qualname is None else tuple(self.qualname.split("."))


@dataclass(frozen=True, slots=True)
class LspPosition:
    """A checked position in LSP terms (0-based line, UTF-16 column), path relative."""

    path: str
    line: int
    character: int
    line_text: str
