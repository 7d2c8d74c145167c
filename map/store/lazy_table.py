"""A dict that fills itself, key by key, from a loader: the linker's tables as read
from the map store, for a process that relinks an edit without loading the whole
map (map.store.store_link)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LazyTable(dict[K, V]):
    """Each key is loaded once, on its first read (`load` returns None for a key it
    does not have); what is set or popped here is never loaded over. `empty` makes a
    missing key's value on `table[key]`, as a defaultdict does; `known` tells
    membership without loading. Iteration, `values()` and `len()` see only what was
    loaded; the table is always true (it stands for a whole map)."""

    def __init__(
        self,
        load: Callable[[K], V | None],
        *,
        empty: Callable[[], V] | None = None,
        known: Callable[[K], bool] | None = None,
    ) -> None:
        super().__init__()
        self._load = load
        self._empty = empty
        self._known = known
        self._settled: set[K] = set()
        """Keys loaded, set or popped: never loaded again."""

    def _fetch(self, key: K) -> bool:
        """Load `key` unless it was settled; whether the table holds it now."""
        if key not in self._settled:
            self._settled.add(key)
            value = self._load(key)
            if value is not None:
                super().__setitem__(key, value)
        return super().__contains__(key)

    def __missing__(self, key: K) -> V:
        if self._fetch(key):
            return super().__getitem__(key)
        if self._empty is None:
            raise KeyError(key)
        value = self._empty()
        super().__setitem__(key, value)
        return value

    def get(self, key: K, default: Any = None) -> Any:
        return super().__getitem__(key) if self._fetch(key) else default

    def __contains__(self, key: object) -> bool:
        if super().__contains__(key):
            return True
        if key in self._settled:
            return False
        if self._known is not None:
            return self._known(key)  # type: ignore[arg-type]
        return self._fetch(key)  # type: ignore[arg-type]

    def __setitem__(self, key: K, value: V) -> None:
        self._settled.add(key)
        super().__setitem__(key, value)

    def pop(self, key: K, *default: Any) -> Any:
        self._fetch(key)
        return super().pop(key, *default)

    def __bool__(self) -> bool:
        return True
