"""What linking decided for one file, as the map store keeps it: each reference's
resolution and the names each consulted (map.linking.linker's `FileLinks`).

A process that opens the store restores the link from these rows instead of
resolving every reference again, and relinks an edit made while no process
ran from them (map.store.store_link). One orjson list per file: the distinct node
IDs its resolutions reach, then one row per resolved reference (index,
target positions, confidence, constructor positions), then the consulted
table's names, run ends and indexes (map.linking.consulted).
"""

from __future__ import annotations

from collections.abc import Sequence
from sys import intern

import orjson

from map.linking.consulted import Consulted
from map.linking.resolution import Resolution

LINKS_FORMAT = 12
"""Moves whenever the encoding, or what a resolution means, does (part of the store's
schema: a store linked under another meaning is linked again)."""


def encode_links(results: Sequence[Resolution | None], deps: Consulted) -> bytes:
    """One file's resolutions (by reference index; None: nothing of ours) and
    consulted names, as stored."""
    positions: dict[str, int] = {}
    rows: list[list[object]] = []
    for index, found in enumerate(results):
        if found is None:
            continue
        targets = [positions.setdefault(t, len(positions)) for t in found.targets]
        builds = [positions.setdefault(t, len(positions)) for t in found.constructors]
        rows.append(
            [index, targets, found.confidence, builds]
            if builds
            else [index, targets, found.confidence]
        )
    return orjson.dumps([len(results), list(positions), rows, *deps.lists()])


def decode_links(
    blob: bytes, shared: dict[Resolution, Resolution]
) -> tuple[list[Resolution | None], Consulted]:
    """`encode_links`'s input back; equal resolutions are one object, kept in
    `shared` (across the files of one load). Raises ValueError, KeyError,
    TypeError or IndexError (orjson.JSONDecodeError is a ValueError) when
    `blob` is not such a row."""
    count, ids, rows, names, ends, indexes = orjson.loads(blob)
    ids = [intern(node_id) for node_id in ids]  # one string per ID across files
    results: list[Resolution | None] = [None] * count
    for index, targets, confidence, *builds in rows:
        found = Resolution(
            tuple(ids[t] for t in targets),
            confidence,
            tuple(ids[t] for t in builds[0]) if builds else (),
        )
        results[index] = shared.setdefault(found, found)
    return results, Consulted.of_lists(names, ends, indexes)
