"""What the fresh-process measures edit and ask about: an offline edit (a new function
and a caller of it in a sibling file) and the hub symbol (the most used one)."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from disk.statedir import STATE_DIR
from map.store.mapstore import STORE_NAME

HUB_QUERY = (
    "SELECT target, count(*) FROM edges WHERE target LIKE '%#%' "
    "GROUP BY target ORDER BY 2 DESC, 1 LIMIT 1"
)
"""The symbol with the most incoming edges (calls, references, inherits, imports)."""


def pick_hub(root: Path) -> str:
    """The node ID of the hub symbol in `root`'s map store (read-only)."""
    store = root / STATE_DIR / STORE_NAME
    try:
        with sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True) as db:
            row = db.execute(HUB_QUERY).fetchone()
    except sqlite3.Error as exc:
        raise RuntimeError(f"cannot pick the hub symbol from {store}: {exc}") from exc
    if row is None:
        raise RuntimeError(f"the map store {store} has no edge into a symbol")
    return str(row[0])


@dataclass(frozen=True)
class OfflineEdit:
    """A new function appended to `callee_file` and a caller of it appended to
    `caller_file` (a sibling in the same package, importing it relatively)."""

    callee_file: str
    caller_file: str
    seq: int

    @property
    def callee(self) -> str:
        return f"_codeanchor_bench_callee_{self.seq}"

    @property
    def caller(self) -> str:
        return f"_codeanchor_bench_caller_{self.seq}"

    @property
    def callee_id(self) -> str:
        return f"{self.callee_file}#{self.callee}"

    @property
    def caller_id(self) -> str:
        return f"{self.caller_file}#{self.caller}"

    def callee_text(self) -> str:
        return f"\n\ndef {self.callee}():\n    return {self.seq}\n"

    def caller_text(self) -> str:
        module = PurePosixPath(self.callee_file).stem
        source = "." if module == "__init__" else f".{module}"
        return (
            f"\n\ndef {self.caller}():\n"
            f"    from {source} import {self.callee}\n\n"
            f"    return {self.callee}()\n"
        )


def caller_file(callee_file: str, sizes: dict[str, int]) -> str:
    """The Python file beside `callee_file` closest to it in size (then by name), from
    `sizes` (repo-relative path -> bytes); RuntimeError when it has no sibling."""
    folder = PurePosixPath(callee_file).parent
    siblings = [
        rel
        for rel in sizes
        if rel != callee_file and rel.endswith(".py") and PurePosixPath(rel).parent == folder
    ]
    if not siblings:
        raise RuntimeError(f"{callee_file} has no sibling Python file to call it from")
    size = sizes[callee_file]
    return min(siblings, key=lambda rel: (abs(sizes[rel] - size), rel))


def sibling_sizes(root: Path, rel: str) -> dict[str, int]:
    """Each file in the folder of `rel` (repo-relative) and its size in bytes."""
    folder = PurePosixPath(rel).parent
    return {
        str(folder / entry.name): entry.stat().st_size
        for entry in (root / folder).iterdir()
        if entry.is_file()
    }
