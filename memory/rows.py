"""How a memory and its anchors become table rows and back, and how a lookup or a
search is checked before any SQL runs.

The columns, in the order of the values here, are those of `memory.tables`;
tags and containers are JSON arrays.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

import orjson

from memory.errors import MemoryInputError, UnknownMemoryError
from memory.model import Anchor, Memory, MemoryStatus, Origin, RefSpec, RefType

_WORD = re.compile(r"\w+", re.UNICODE)


def memory_values(m: Memory) -> tuple[Any, ...]:
    """A memory's values in `memory.tables.MEMORY_COLUMNS` order."""
    tags = orjson.dumps(list(m.tags)).decode()
    return (m.id, m.text, m.kind, tags, m.origin, m.status, m.created_at, m.last_used_at,
            m.last_verified_at, m.superseded_by)  # fmt: skip


def anchor_values(a: Anchor) -> tuple[Any, ...]:
    """An anchor's values in `memory.tables.REF_COLUMNS` order."""
    container = orjson.dumps(list(a.container)).decode()
    spec = a.spec
    return (spec.type, spec.path, spec.symbol, spec.start_line, spec.end_line, a.start_line,
            a.end_line, container, a.commit, a.branch, a.dirty, a.content_hash, a.fingerprint,
            a.body_fingerprint, a.file_hash, a.text, a.truncated)  # fmt: skip


def memory_from_row(r: Sequence[Any], anchors: Sequence[Anchor]) -> Memory:
    """A memory from its `MEMORY_COLUMNS` values."""
    return Memory(
        id=str(r[0]),
        text=str(r[1]),
        kind=str(r[2]),
        tags=tuple(orjson.loads(r[3])),
        origin=cast(Origin, r[4]),
        status=cast(MemoryStatus, r[5]),
        created_at=str(r[6]),
        anchors=tuple(anchors),
        last_used_at=r[7],
        last_verified_at=r[8],
        superseded_by=r[9],
    )


def anchor_from_row(r: Sequence[Any]) -> Anchor:
    """An anchor from its `REF_COLUMNS` values."""
    spec = RefSpec(
        type=cast(RefType, r[0]), path=str(r[1]), symbol=r[2], start_line=r[3], end_line=r[4]
    )
    return Anchor(
        spec=spec,
        start_line=r[5],
        end_line=r[6],
        container=tuple(orjson.loads(r[7])),
        commit=r[8],
        branch=r[9],
        dirty=bool(r[10]),
        content_hash=str(r[11]),
        fingerprint=str(r[12]),
        body_fingerprint=r[13],
        file_hash=str(r[14]),
        text=str(r[15]),
        truncated=bool(r[16]),
    )


def search_words(query: str) -> list[str]:
    """The words of a full-text query; MemoryInputError when it has none."""
    words = _WORD.findall(query)
    if not words:
        raise MemoryInputError(f"query {query!r} has no words to search for")
    return words


def in_order(
    ids: Sequence[str], found: Iterable[Memory], known: Callable[[], list[str]]
) -> list[Memory]:
    """The `found` memories in the order of `ids`; UnknownMemoryError naming the
    first ID not found, with the nearest of the `known` ones."""
    by_id = {m.id: m for m in found}
    for memory_id in ids:
        if memory_id not in by_id:
            raise unknown_memory(memory_id, known())
    return [by_id[i] for i in ids]


def unknown_memory(memory_id: str, known: Sequence[str]) -> UnknownMemoryError:
    """The error for an ID no memory has, suggesting the nearest `known` IDs."""
    near = difflib.get_close_matches(memory_id, known, n=3, cutoff=0.5)
    return UnknownMemoryError(f"no memory with ID {memory_id!r}", suggestions=near)
