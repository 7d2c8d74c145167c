"""What the completeness cross-check keeps between questions, keyed by content.

A nav answer is checked against every line of the workspace naming the
symbol, and the lines it did not confirm are labelled by the map's
extraction (`verify.candidates`, `verify.labels`). Most files do not change between two
questions, so one `CheckCache` per workspace (on the `AppContext`) keeps:

| kept                     | keyed by                                           |
|--------------------------|----------------------------------------------------|
| the last file listing    | the scan's options (passed back as `previous`)     |
| a name's sites           | name, options; each file's stamp on a `FileClock`  |
| a name's roles in a file | name, file; the file's content hash                |
| a file's syntax tree     | file; its content hash                             |
| a file's live outline    | file; its content hash (an outline is its syntax)  |

A file's sites are reused while its stat stamp (size, mtime_ns, ctime_ns,
inode) has not moved since they were read, the same prefilter the live
layer's sync and the map's rebuild trust; when it moved the file is read
again. The stamps are kept once per scan's options (`FileClock`), so a name
costs only its sites. Roles and trees are keyed by the content hash itself
(the stamp only spares reading an unchanged file again), so an edit, however
it keeps the stamp, never gets another content's roles. Every table but the
clocks (one per options, each holding one stamp per listed file) is an LRU
bounded by `CacheSettings` (`[tool.codeanchor.cache]`): a question about a
name no longer kept costs what it did before the cache, no more, and a
server that runs all week holds no more than the bounds. The cache is filled
from worker threads; each table takes a lock.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from disk.stamps import FileStamp

if TYPE_CHECKING:
    from tree_sitter import Tree

    from lsp import DocumentSymbolNode
    from verify.sites import Role, Site

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

LISTINGS_KEPT = 4
"""File listings kept: one per scan's options (a few: one per server's extensions)."""


@dataclass(frozen=True, slots=True)
class CacheSettings:
    """How much the cross-check keeps between questions (`[tool.codeanchor.cache]`)."""

    names_kept: int = 64
    """Names whose sites are kept (each holds its sites and a time; stamps are shared)."""
    roles_kept: int = 8192
    """(name, file) pairs whose roles are kept (a few hundred bytes each)."""
    trees_kept: int = 8
    """Syntax trees of queried files (a target's file is asked about again and again;
    a tree of a large file takes a few MB)."""
    outlines_kept: int = 64
    """Live outlines of files around unconfirmed calls (callers recovery), by content."""


class Lru(Generic[K, V]):
    """A bounded, thread-safe map that forgets the least recently used entry first."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        """The value kept for `key`, or None."""
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        """Keep `value` for `key`, forgetting the oldest entry past `size`."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def __len__(self) -> int:
        return len(self._items)


@dataclass(frozen=True, slots=True)
class NameSites:
    """A name's sites in each listed file, as of a time on a `FileClock`."""

    clock: FileClock
    at: int
    sites: Mapping[str, tuple[Site, ...]]
    """Only files with sites are keys."""


class FileClock:
    """When each listed file's stamp last moved, on a clock that ticks once per
    listing: a name's sites found at time T hold for every file that has not moved
    since T. One table per scan's options, so a name costs only its sites."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[FileStamp, int]] = {}
        self._now = 0
        self._lock = threading.Lock()

    def tick(self, stamps: Mapping[str, FileStamp]) -> int:
        """Take a listing's stamps (files not in it are forgotten); the time now."""
        with self._lock:
            self._now += 1
            seen = self._seen
            for rel in seen.keys() - stamps.keys():
                del seen[rel]
            for rel, stamp in stamps.items():
                known = seen.get(rel)
                if known is None or known[0] != stamp:
                    seen[rel] = (stamp, self._now)
            return self._now

    def __len__(self) -> int:
        return len(self._seen)

    def moved_since(self, rel: str, at: int) -> bool:
        """Whether the file's stamp moved (or it appeared) after time `at`."""
        known = self._seen.get(rel)
        return known is None or known[1] > at


@dataclass(frozen=True, slots=True)
class FileRoles:
    """What the map sees of a name on each line of one file's content."""

    stamp: FileStamp
    content_hash: str
    roles: Mapping[int, Role]


ScanOptions = tuple[tuple[str, ...], tuple[str, ...], str, int]
"""(suffixes, exclude patterns, snapshot dir, max file bytes) of a scan."""


class CheckCache:
    """The cross-check's tables for one workspace (see the module docstring)."""

    def __init__(self, settings: CacheSettings | None = None) -> None:
        bounds = settings or CacheSettings()
        self.listings: Lru[ScanOptions, Any] = Lru(LISTINGS_KEPT)
        """`map.list_files` answers (its `Listing` is not among map's public names)."""
        self._clocks: dict[ScanOptions, FileClock] = {}
        """One per scan's options (a few: one per server's extensions), never forgotten."""
        self._lock = threading.Lock()
        self.sites: Lru[tuple[str, ScanOptions], NameSites] = Lru(bounds.names_kept)
        self.roles: Lru[tuple[str, str], FileRoles] = Lru(bounds.roles_kept)
        self.trees: Lru[tuple[str, str], Tree] = Lru(bounds.trees_kept)
        self.outlines: Lru[tuple[str, str], tuple[DocumentSymbolNode, ...]] = Lru(
            bounds.outlines_kept
        )

    def counts(self) -> dict[str, int]:
        """How many entries each table holds now (names, roles, trees, outlines,
        listings, and the files the clocks track)."""
        with self._lock:
            clocked = sum(len(clock) for clock in self._clocks.values())
        return {
            "names": len(self.sites),
            "roles": len(self.roles),
            "trees": len(self.trees),
            "outlines": len(self.outlines),
            "listings": len(self.listings),
            "clockedFiles": clocked,
        }

    def clock(self, options: ScanOptions) -> FileClock:
        """The file clock of scans with `options` (made on first use)."""
        with self._lock:
            return self._clocks.setdefault(options, FileClock())
