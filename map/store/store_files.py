"""Where the map store lives on disk, and what makes a file there untrustworthy.

The store is one SQLite database (`map.sqlite`) with its WAL side files,
under `.codeanchor/` in the root by default. Under the root it never passes
through a symlink (`store_file`). A file that is not SQLite, or is shorter
than its header says, raises StoreError before any query reads it.
"""

from __future__ import annotations

from pathlib import Path

from disk.paths import resolve_in_root
from disk.statedir import STATE_DIR, state_file
from map.errors import SnapshotError

STORE_NAME = "map.sqlite"
LEGACY_NAME = "map.json"
"""The snapshot of earlier versions: one orjson file, rewritten whole on every save."""
SIDE_FILES = ("-wal", "-shm", "-journal")
_HEADER_BYTES = 100


class StoreError(SnapshotError):
    """The store is unreadable, corrupt, of another schema or of another root."""


def store_file(root: Path, snapshot_dir: str, *, create: bool = False) -> Path:
    """The store's path for `root` with `snapshot_dir` (relative to the root, or
    absolute); `create` makes `.codeanchor` (ignored by git) when that is the folder.

    Raises OutsideRootError when a symlink would take a path under the root elsewhere:
    `.codeanchor`, the store or its side files as links, or a link on `snapshot_dir`.
    """
    directory = Path(snapshot_dir)
    if directory.is_absolute():
        return directory / STORE_NAME
    if directory == Path(STATE_DIR):
        for side in SIDE_FILES:
            state_file(root, STORE_NAME + side, create_dir=create)
        return state_file(root, STORE_NAME, create_dir=create)
    folder = resolve_in_root(root, directory, must_exist=False)
    for name in (STORE_NAME, *(STORE_NAME + side for side in SIDE_FILES)):
        resolve_in_root(root, directory / name, must_exist=False)
    return folder / STORE_NAME


def check_header(path: Path) -> None:
    """Raise StoreError when `path` is not SQLite, or is shorter than its header says
    (a truncated file would read as missing rows, not as an error)."""
    try:
        with path.open("rb") as stream:
            header = stream.read(_HEADER_BYTES)
        size = path.stat().st_size
        wal = path.with_name(path.name + "-wal")
        pending = wal.stat().st_size if wal.exists() else 0
    except OSError as exc:
        raise StoreError(f"{path}: unreadable map store ({exc})") from exc
    if len(header) < _HEADER_BYTES or not header.startswith(b"SQLite format 3\0"):
        raise StoreError(f"{path}: not an SQLite database")
    page_size = int.from_bytes(header[16:18], "big")
    pages = int.from_bytes(header[28:32], "big")
    counted = header[92:96] == header[24:28]  # the header's page count is current
    if counted and not pending and size < pages * (65536 if page_size == 1 else page_size):
        raise StoreError(f"{path}: truncated ({size} bytes, its header says {pages} pages)")


def remove_legacy(folder: Path) -> None:
    """Remove the single-file snapshot of earlier versions (and the temporary files of
    its killed saves) from `folder`: the store replaces it."""
    for entry in folder.glob(f"*{LEGACY_NAME}*"):
        if entry.name == LEGACY_NAME or (
            entry.name.startswith(f".{LEGACY_NAME}.") and entry.name.endswith(".tmp")
        ):
            entry.unlink(missing_ok=True)


def discard(path: Path) -> None:
    """Remove the store at `path` and its side files (a rebuild starts over)."""
    for name in (path.name, *(path.name + side for side in SIDE_FILES)):
        path.with_name(name).unlink(missing_ok=True)
