"""A linked map per commit, shared through the team store: a new checkout at that
commit, or near it, starts from it and relinks only what differs.

`map publish` (CI) puts a checkout's whole map store (its SQLite file: extracts,
nodes, edges and what linking decided), compressed, in the team store under the
commit it was built from, which must be the checkout's exact content (no
uncommitted or untracked file), and the map's version (`map_version`: this
codeanchor's map code and the settings that decide what is listed). A checkout
with no map store of its own takes the snapshot of its HEAD, else of the nearest
of its last `NEARBY` commits, rewritten for its own root (`restore`); opening it
then checks every file against the disk as a restart does: the files that differ
are extracted (from the team's rows when they hold them) and relinked, the rest
only hashed (a fresh clone's stamps all moved). Rows hold relative paths only.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import tempfile
import zlib
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Protocol

from map.intake.shared import git_output
from map.store.store_files import SIDE_FILES
from map.store.store_rows import STORE_SCHEMA

NEARBY = 50
"""How many of HEAD's last commits a new checkout looks for a snapshot among."""
PACK_LEVEL = 6
"""zlib's level for a snapshot: written once by CI, read by every new checkout."""
CHUNK_BYTES = 1 << 20
"""A snapshot is packed and unpacked this many bytes at a time."""
_MAP = Path(__file__).resolve().parents[1]


class Snapshots(Protocol):
    """Where snapshots are kept (map.store.team_store.TeamStore)."""

    def snapshot(self, commits: Sequence[str], version: str) -> tuple[str, bytes] | None:
        """The snapshot of the first of `commits` that has one of `version`, if any."""
        ...


@cache
def _code_digest() -> str:
    digest = hashlib.blake2b(digest_size=12)
    for source in sorted(_MAP.rglob("*")):
        if source.suffix in (".py", ".scm"):
            digest.update(str(source.relative_to(_MAP)).encode() + b"\0" + source.read_bytes())
    return digest.hexdigest()


def map_version(max_file_bytes: int, exclude: Sequence[str]) -> str:
    """What a snapshot is reused by besides its commit: the store's schema, this map
    code, and the settings that decide which files the map holds."""
    settings = hashlib.blake2b(repr((max_file_bytes, tuple(exclude))).encode(), digest_size=8)
    return f"{STORE_SCHEMA}-{_code_digest()}-{settings.hexdigest()}"


def packed_store(path: Path) -> bytes:
    """The map store at `path` as one compressed SQLite file (a consistent copy, taken
    with SQLite's backup while the store may be written; compressed as it is read, so
    only the compressed bytes are ever held whole)."""
    with tempfile.TemporaryDirectory(prefix="codeanchor-snapshot-") as scratch:
        copy = Path(scratch) / "map.sqlite"
        source = sqlite3.connect(path)
        target = sqlite3.connect(copy)
        try:
            source.backup(target)
        finally:
            target.close()
            source.close()
        packer = zlib.compressobj(PACK_LEVEL)
        parts: list[bytes] = []
        with copy.open("rb") as stored:
            while chunk := stored.read(CHUNK_BYTES):
                parts.append(packer.compress(chunk))
        parts.append(packer.flush())
        return b"".join(parts)


def restore(snapshots: Snapshots, root: Path, path: Path, version: str) -> str | None:
    """Put the snapshot of HEAD, or of the nearest commit before it, at `path` (where
    the checkout at `root` has no store), made of `root`; the commit it was taken at,
    or None when there is none (a snapshot that does not unpack is left out)."""
    commits = nearby_commits(root)
    found = snapshots.snapshot(commits, version) if commits else None
    if found is None:
        return None
    commit, packed = found
    fresh = path.with_name(path.name + ".team")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        _unpack(packed, fresh)
        del packed
        with sqlite3.connect(fresh) as db:
            db.execute("UPDATE meta SET value = ? WHERE key = 'root'", (str(root),))
            db.execute("UPDATE files SET size = -1")  # no stamp of another disk may match
            db.execute("UPDATE skipped SET size = -1")
        db.close()
        for side in SIDE_FILES:
            Path(str(path) + side).unlink(missing_ok=True)
        os.replace(fresh, path)
    except (zlib.error, sqlite3.Error, OSError):
        fresh.unlink(missing_ok=True)
        return None
    return commit


def _unpack(packed: bytes, into: Path) -> None:
    """Write the SQLite file `packed` holds to `into`, a chunk at a time."""
    unpacker = zlib.decompressobj()
    with into.open("wb") as out:
        for start in range(0, len(packed), CHUNK_BYTES):
            out.write(unpacker.decompress(packed[start : start + CHUNK_BYTES]))
        out.write(unpacker.flush())
    if not unpacker.eof:
        raise zlib.error("the snapshot ends early")


def nearby_commits(root: Path) -> list[str]:
    """HEAD's commit and the ones before it, nearest first (empty outside git)."""
    found = _git(root, "rev-list", f"--max-count={NEARBY}", "HEAD")
    return [] if found is None else found.split()


def exact_commit(root: Path) -> str | None:
    """HEAD's commit when the checkout at `root` is exactly it (nothing modified, staged
    or untracked outside what git ignores), else None."""
    status = _git(root, "status", "--porcelain", "--untracked-files=normal")
    head = _git(root, "rev-parse", "HEAD")
    if status is None or head is None or status.strip():
        return None
    return head.strip()


def _git(root: Path, *command: str) -> str | None:
    found = git_output(root, *command)
    return None if found is None else found.decode()
