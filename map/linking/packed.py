"""Every linked file's extract, packed: the loaded map's copy of what the store holds.

A decoded extract of the benchmark's mix corpus takes about 360 MB in
memory; packed (the store's own orjson encoding, zlib level 1) it takes
about 31 MB. Linking keeps what it reads in compact form of its own
(map.linking.scopes, map.linking.references); answers that show a node's ranges,
container or fingerprint, and saves, unpack one file (about a millisecond;
the last few stay decoded).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import lru_cache
from typing import Any

from map.extraction.snapshot import decode_extract, encode_extract, pack_lists, unpack_lists
from map.linking.references import References
from map.model import FileExtract

LEVEL = 1
"""zlib's fastest level: packing the store's blobs of mix takes about a second."""
DECODED = 64
"""How many unpacked extracts stay decoded (the most recently read)."""


def pack(extract: FileExtract) -> bytes:
    """An extract packed as `PackedExtracts` and the map store hold it."""
    return pack_lists(encode_extract(extract))


def _unpack(path: str, packed: bytes) -> FileExtract:
    return decode_extract(path, unpack_lists(packed))


class PackedExtracts(Mapping[str, FileExtract]):
    """path -> extract, held packed and decoded when read."""

    def __init__(self, held: dict[str, bytes] | None = None) -> None:
        self._packed = {} if held is None else held
        """path -> the packed extract (`held`: e.g. a table that loads itself)."""
        self._decode = lru_cache(maxsize=DECODED)(_unpack)

    def put(self, extract: FileExtract, packed: bytes | None = None) -> None:
        """Hold `extract` (`packed`: already packed, e.g. from the store's blob)."""
        self._packed[extract.path] = pack(extract) if packed is None else packed

    def pop(self, path: str) -> None:
        """Forget a file (no error when it is not held)."""
        self._packed.pop(path, None)

    def packed(self, path: str) -> bytes:
        """A file's extract packed, as the store holds it (map.extraction.snapshot.pack_lists);
        raises KeyError when the file is not held."""
        return self._packed[path]

    def __getitem__(self, path: str) -> FileExtract:
        return self._decode(path, self._packed[path])

    def __contains__(self, path: object) -> bool:
        return path in self._packed

    def __iter__(self) -> Iterator[str]:
        return iter(self._packed)

    def __len__(self) -> int:
        return len(self._packed)


def for_linking(
    path: str, lists: list[Any], own: Mapping[str, str] | None = None
) -> tuple[FileExtract, References]:
    """A file's extract from its stored lists as the linker takes it in: the extract
    with only the references that name a base class (map.extraction.snapshot.decode_extract),
    and every reference as columns (a decoded extract of mix holds ~360 MB, mostly
    reference objects)."""
    extract = decode_extract(path, lists, bases_only=True, own=own)
    return extract, References.of_stored(path, lists[4])
