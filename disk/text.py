"""Read a file as source text, or say clearly why not."""

from __future__ import annotations

from pathlib import Path

from disk.errors import (
    BinaryFileError,
    FileTooLargeError,
    MissingFileError,
    UndecodableFileError,
)

DEFAULT_MAX_BYTES = 2 * 1024 * 1024
_SNIFF_BYTES = 8192


def looks_binary(data: bytes) -> bool:
    """True when the start of `data` holds a NUL byte, as git decides."""
    return b"\0" in data[:_SNIFF_BYTES]


def read_source_bytes(path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> bytes:
    """The bytes of a text source file; raises a DiskError when it is not one."""
    shown = str(path)
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise FileTooLargeError(
                f"{shown}: {size} bytes, over the {max_bytes}-byte cap", path=shown
            )
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as exc:
        raise MissingFileError(f"{shown}: no such file", path=shown) from exc
    if looks_binary(data):
        raise BinaryFileError(f"{shown}: a binary file, not source text", path=shown)
    return data


def decode_source(data: bytes, *, path: str) -> str:
    """Decode UTF-8 source (a BOM is dropped); raises UndecodableFileError."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UndecodableFileError(
            f"{path}: not valid UTF-8 (byte {exc.start}); only UTF-8 sources are supported",
            path=path,
        ) from exc


def read_source(path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The text of a source file; raises a DiskError when it is not one."""
    return decode_source(read_source_bytes(path, max_bytes=max_bytes), path=str(path))
