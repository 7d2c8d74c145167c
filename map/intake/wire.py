"""Files loaded in a pool worker, on their way back: extracts as the store's blobs.

A worker sends each extract as the orjson blob the map store keeps
(map.extraction.snapshot's compact lists, as extraction writes them: no extract objects
are built in a worker), packed as the linker holds it (map.linking.packed), not
pickled: orjson writes a sympy-sized batch in a fifth of the time the
pickler took (its reducer ran in Python for each of ~800k extract objects),
`decode_extract` rebuilds the objects no slower than unpickling did, sharing
one string per scope, name and line as an extract read from the store does,
and the linker keeps the packed bytes as they came instead of encoding and
packing the extract again in the main process.

Only a worker and the process that started it exchange these bytes.
"""

from __future__ import annotations

import pickle
from collections.abc import Sequence
from typing import Any

from disk.stamps import FileStamp
from map.extraction.snapshot import decode_extract, encode_extract, pack_lists, unpack_lists
from map.model import FileExtract

Sent = tuple[str, tuple[int, int, int, int] | None, str | None, bytes | None, str | None]
"""(path, stat stamp fields, content hash, packed extract blob, skip reason) of one file."""


def extract_blob(extract: FileExtract) -> bytes:
    """The extract packed, as the map store holds it."""
    return pack_lists(encode_extract(extract))


def unpacked(path: str, packed: bytes) -> FileExtract:
    """The extract of `path` from its packed blob (as `sent` packs it); raises
    zlib.error, orjson.JSONDecodeError, KeyError, TypeError, ValueError or
    IndexError when the blob is malformed."""
    return decode_extract(path, unpack_lists(packed))


def sent(
    path: str,
    stamp: FileStamp | None,
    digest: str | None,
    lists: list[Any] | None,
    skipped: str | None,
) -> Sent:
    """One loaded file as it crosses the pool; `lists`: its extract as map.extraction.snapshot's
    compact lists (map.extraction.extract.extract_lists)."""
    fields = None if stamp is None else (stamp.size, stamp.mtime_ns, stamp.ctime_ns, stamp.inode)
    packed = None if lists is None else pack_lists(lists)
    return path, fields, digest, packed, skipped


def dumps(batch: Sequence[Sent]) -> bytes:
    """A worker's batch, for the trip back (plain tuples of str, int and bytes)."""
    return pickle.dumps(list(batch), protocol=pickle.HIGHEST_PROTOCOL)


def loads(packed: bytes) -> list[Sent]:
    """The inverse of `dumps`."""
    batch: list[Sent] = pickle.loads(packed)
    return batch


def stamp_of(fields: tuple[int, int, int, int] | None) -> FileStamp | None:
    """The stat stamp sent as `fields`."""
    return None if fields is None else FileStamp(*fields)
