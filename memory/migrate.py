"""Copy every memory of a repository from one store to another, all or nothing.

`codeanchor memory migrate --to LOCATION` moves a team from the embedded
SQLite store to PostgreSQL (or back): memories keep their IDs, statuses,
times and anchors. The copy is one write transaction on the target, so a
failure (an ID already there, a dropped connection) leaves the target as it
was. The source is never changed.
"""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

from memory.errors import MemoryInputError
from memory.stores import StoreLocation, open_store, store_exists


def migrate_store(root: Path, source: StoreLocation, target: StoreLocation) -> int:
    """Copy the memories of the repository at `root` from `source` to `target`; returns
    how many were copied. Raises MemoryInputError when the target already holds any of
    them (nothing is copied then)."""
    if source == target:
        raise MemoryInputError("--to names the store the memories are already in")
    if not store_exists(source):
        raise MemoryInputError(f"{source}: no memory store there to copy from")
    with closing(open_store(source, root, create=False)) as src:
        memories = src.select()
    if not memories:
        return 0
    with closing(open_store(target, root, create=True)) as dst:
        clash = sorted(set(dst.ids()) & {m.id for m in memories})
        if clash:
            raise MemoryInputError(
                f"the target store already holds {len(clash)} of these memories "
                f"(e.g. {clash[0]}); nothing was copied",
                hint="migrate into an empty store, or retire the copies there first",
            )
        dst.add(memories)
    return len(memories)
