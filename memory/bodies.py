"""A symbol's text and its name-blind body: what finds code that moved or was
renamed without parsing it again (fingerprints, prefilters, a per-file index)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from disk.stamps import content_hash
from map import Symbol
from memory.files import FileNow

_MASK = "__anchored_symbol__"
_TOKEN = re.compile(r"\w+|\S")
_WORD = re.compile(r"\w+")


@dataclass(slots=True)
class SymbolIndex:
    """A file's symbols, findable by ID and name, with their name-blind bodies."""

    file: FileNow
    symbols: tuple[Symbol, ...]
    by_id: dict[str, Symbol]
    """By the symbol part of the node ID (`Qual.Name`, `Qual.Name~2`)."""
    _bodies: dict[str, str] = field(default_factory=dict)
    _by_name: dict[str, list[Symbol]] | None = None

    @classmethod
    def of(cls, file: FileNow, symbols: tuple[Symbol, ...]) -> SymbolIndex:
        """Index `symbols` by ID."""
        return cls(file, symbols, {symbol_id(s): s for s in symbols})

    def body(self, symbol: Symbol) -> str:
        """The name-blind body fingerprint of one of its symbols (computed once)."""
        found = self._bodies.get(symbol.node_id)
        if found is None:
            found = body_fingerprint(symbol_text(self.file, symbol), symbol.name)
            self._bodies[symbol.node_id] = found
        return found

    def by_name(self, name: str) -> list[Symbol]:
        """The symbols whose own (unqualified) name is `name`, in file order."""
        if self._by_name is None:
            self._by_name = {}
            for symbol in self.symbols:
                self._by_name.setdefault(symbol.name, []).append(symbol)
        return self._by_name.get(name, [])


def symbol_id(symbol: Symbol) -> str:
    """The symbol part of a node ID (`Qual.Name`, or `Qual.Name~2`)."""
    return symbol.node_id.partition("#")[2]


def symbol_text(file: FileNow, symbol: Symbol) -> str:
    """The whole lines a symbol spans."""
    return file.span(symbol.range.first_line, symbol.range.last_line)


def body_fingerprint(text: str, *names: str) -> str:
    """A hash of the tokens with the given names masked: same body, any name.

    Cheap on purpose (one regex pass, no parsing): a check may compute it for
    every symbol of every file a missing symbol may have moved to.
    """
    masked = set(names)
    tokens = [_MASK if token in masked else token for token in _TOKEN.findall(text)]
    return content_hash(" ".join(tokens).encode())


def body_words(text: str, name: str) -> frozenset[str]:
    """The words any symbol with the same name-blind body must contain (a cheap prefilter).

    Every word other than `name`, leaving out the last one (the stored text
    may be cut short in the middle of it).
    """
    return frozenset(_WORD.findall(text)[:-1]) - {name}


def body_pattern(text: str, name: str) -> re.Pattern[str]:
    """What any symbol with the same name-blind body (`body_fingerprint`) as `text`,
    a symbol called `name`, looks like in its file with whitespace removed
    (`Workspace.squeezed`): the text's lines, squeezed, with `name` standing for
    one other name throughout. A test that needs no parse.

    A line cut short where the stored text ends is left out.
    """
    whole = text[: text.rfind("\n") + 1]
    parts = (
        re.split(rf"(?<!\w){re.escape(name)}(?!\w)", whole) if _WORD.fullmatch(name) else [whole]
    )
    pieces = [re.escape("".join(part.split())) for part in parts]
    named = "".join(
        piece + (r"(\w+)" if n == 1 else r"\1") for n, piece in enumerate(pieces[:-1], 1)
    )
    return re.compile(named + pieces[-1])
