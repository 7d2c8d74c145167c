"""The uses linking left open, read from the map store while a loaded graph's link
is not in yet (map.live.store_backed): for answers that read a few files' only.

`StoreView` reads them as answers ask (every file's open names at once, a
file's scope, references and links when an answer reads it); `LinkStandIn`
makes it on first use, lets one answer read it at a time (its tables fill
themselves as they are read) and refuses an answer that would read more than
`VIEW_FILES` files (seconds: the link loading behind the graph brings them all
in soon).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection
from typing import TypeVar

from map.linking.layout import Layout
from map.linking.unresolved import OpenUses
from map.store.mapstore import MapStore
from map.store.store_link import StoreLinker

T = TypeVar("T")

VIEW_FILES = 64
"""Files an answer may read from the store for its open uses (~5 ms each on mix)."""


class StoreView(StoreLinker):
    """The open uses as a store holds them, read as answers ask. Raises StoreError
    when the store cannot be read."""

    def __init__(self, store: MapStore, paths: Collection[str], layout: Layout):
        super().__init__(store, paths, layout)
        held = store.open_names()
        self.open_uses = OpenUses(self._scopes, self._references, self._links, held)

    def _hydrate(self, path: str) -> None:
        """Reading open uses needs no graph."""


class LinkStandIn:
    """Answers about open uses from a store, while a map's link loads."""

    def __init__(self) -> None:
        self._view: StoreView | None = None
        self._lock = threading.Lock()

    def answer(
        self,
        store: MapStore,
        paths: Collection[str],
        layout: Layout,
        files: Callable[[OpenUses], Collection[str]],
        answer: Callable[[OpenUses], list[T]],
    ) -> list[T] | None:
        """`answer` from the open uses of `store` (`paths`: the files it holds), or None
        when it would read more than `VIEW_FILES` `files`. Raises StoreError when the
        store cannot be read."""
        with self._lock:
            if self._view is None:
                self._view = StoreView(store, paths, layout)
            uses = self._view.open_uses
            return answer(uses) if len(files(uses)) <= VIEW_FILES else None

    def forget(self) -> None:
        """Drop what was read (the store moved, or the link is in)."""
        self._view = None
