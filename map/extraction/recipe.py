"""What an extract was computed from, besides the bytes: the recipe a shared row is
keyed by (map.store.team_store), so that a row is reused only by an extraction that
would have written the very same one.

    extractor   the store encoding's version (map.extraction.snapshot.SCHEMA_VERSION)
                and a digest of this room's code and the map's models: any change to
                how extraction works is a new extractor, even one nobody numbered
    grammar     the tree-sitter runtime and the language's grammar wheel, by version
    query       a digest of the language's extraction query text
"""

from __future__ import annotations

import hashlib
import importlib.metadata
from functools import cache
from pathlib import Path
from typing import NamedTuple

from map.extraction.languages import grammar_module, query_source
from map.extraction.snapshot import SCHEMA_VERSION

_ROOM = Path(__file__).parent
_MODELS = _ROOM.parent / "model.py"


class Recipe(NamedTuple):
    """What, besides a file's bytes, its extract depends on (see the module docstring)."""

    extractor: str
    grammar: str
    query: str


@cache
def extractor_version() -> str:
    """The store encoding's version and a digest of the code that extracts."""
    digest = hashlib.blake2b(digest_size=12)
    for source in [*sorted(_ROOM.glob("*.py")), _MODELS]:
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return f"{SCHEMA_VERSION}-{digest.hexdigest()}"


@cache
def recipe(language: str) -> Recipe:
    """The recipe of `language`'s extracts (a name in map.extraction.languages.LANGUAGES)."""
    module = grammar_module(language)
    wheel = module.replace("_", "-")
    grammar = (
        f"tree-sitter {importlib.metadata.version('tree-sitter')}; "
        f"{wheel} {importlib.metadata.version(wheel)}"
    )
    query = hashlib.blake2b(query_source(language).encode(), digest_size=16).hexdigest()
    return Recipe(extractor_version(), grammar, query)
