"""What a memory store path holds, found out before SQLite may write to it.

A `--store` is input: it may name a directory, a kernel file under /proc,
random bytes, a truncated database, or another program's database. Each is
refused here with a MemoryStoreError, having read the file (its header, then
its schema through an immutable read-only connection) without writing a
byte, not even SQLite's side files.
"""

from __future__ import annotations

import sqlite3
import stat
from pathlib import Path

from memory.errors import MemoryStoreError
from memory.schema import Ownership, ownership, stored_version

STORE_NAME = "memory.db"
NEW_FILE_HINT = "point --store (or CODEANCHOR_STORE) at a new file"
_SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_BYTES = 100
_PSEUDO_FILESYSTEMS = (Path("/proc"), Path("/sys"))


def inspect_store_file(path: Path) -> tuple[Ownership, int] | None:
    """Whose the file at `path` is and its schema version, None when there is none yet.

    Reads the file without writing anything (not even SQLite's side files);
    raises MemoryStoreError for anything that is not a usable store.
    """
    header = _read_header(path)
    if header is None:
        return None
    if not header:
        return Ownership.EMPTY, 0
    # immutable: SQLite reads the file as it is, without locks, a journal or side files
    conn = sqlite3.connect(path.absolute().as_uri() + "?mode=ro&immutable=1", uri=True)
    try:
        kind, why = ownership(conn)
        version = stored_version(conn)
    except sqlite3.DatabaseError as exc:
        raise MemoryStoreError(
            f"{path}: not a usable SQLite database ({exc})", hint=NEW_FILE_HINT
        ) from exc
    finally:
        conn.close()
    if kind is Ownership.FOREIGN:
        raise foreign_store(path, why)
    return kind, version


def _read_header(path: Path) -> bytes | None:
    """The first bytes of a plausible SQLite file at `path` (b"" when empty), None when
    there is no file; raises MemoryStoreError for anything that cannot be a store."""
    try:
        if any(path.resolve().is_relative_to(fs) for fs in _PSEUDO_FILESYSTEMS):
            raise MemoryStoreError(
                f"{path}: is on a kernel pseudo-filesystem, not a place for a memory store",
                hint=NEW_FILE_HINT,
            )
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise MemoryStoreError(
                f"{path}: is a directory; the memory store is a file",
                hint=f"pass a file path, e.g. {path / STORE_NAME}",
            )
        if not stat.S_ISREG(info.st_mode):
            raise MemoryStoreError(f"{path}: is not a regular file", hint=NEW_FILE_HINT)
        with path.open("rb") as stream:
            header = stream.read(_HEADER_BYTES)
    except FileNotFoundError:
        return None
    except (OSError, RuntimeError) as exc:  # RuntimeError: a symlink loop
        raise MemoryStoreError(
            f"{path}: cannot read the memory store ({exc})", hint=NEW_FILE_HINT
        ) from exc
    problem = _header_problem(path, header, info.st_size) if header else None
    if problem is not None:
        raise MemoryStoreError(f"{path}: {problem}", hint=NEW_FILE_HINT)
    return header


def _header_problem(path: Path, header: bytes, size: int) -> str | None:
    """What the first bytes say is wrong with a would-be SQLite file, or None."""
    if len(header) < _HEADER_BYTES or not header.startswith(_SQLITE_MAGIC):
        return "not a SQLite database (a memory store is one)"
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    pages_valid = header[24:28] == header[92:96]
    wal = Path(f"{path}-wal")
    # with a write-ahead log beside it, the file may lag its header until recovery
    if pages_valid and size < pages * page_size and not (wal.exists() and wal.stat().st_size):
        return f"truncated SQLite database ({size} bytes, its header says {pages * page_size})"
    return None


def foreign_store(path: Path, why: str) -> MemoryStoreError:
    """The refusal of another program's database at `path` (`why`: what gave it away)."""
    return MemoryStoreError(
        f"{path}: a SQLite database that is not a codeanchor memory store ({why}); "
        "it is left untouched",
        hint=NEW_FILE_HINT,
    )
