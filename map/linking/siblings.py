"""Names in the other files of a Go package, found at once.

A Go file sees the top-level names of every file of its package, and a type's
methods may be declared in any of them. Walking the files one by one for each
name (as map.linking.resolve does for what a file includes) costs a package's size per
lookup; a table per package, built on first use and dropped with the
resolver's other memories, finds the same symbols, in the same order, and
consults the same names.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

from map.linking.lookup import Lookup, see
from map.linking.scopes import FileScope

Table = dict[str, list[tuple[str, tuple[str, ...]]]]
"""Qualified name -> (file, its symbols of that name) for each file defining it, in
the package's file order."""


class Siblings:
    """Each package's table of qualified names, remembered until `forget`."""

    def __init__(self, scopes: Mapping[str, FileScope]) -> None:
        self._scopes = scopes
        self._tables: dict[str, Table] = {}

    def forget(self) -> None:
        """Drop the tables; call whenever scopes change."""
        self._tables.clear()

    def find(self, ctx: Lookup, scope: FileScope, qual: str, name: str) -> tuple[str, ...]:
        """The symbols of qualified name `qual` in the first of `scope`'s package
        siblings (its `visible_files`, in order) that defines it, consulting `name` as
        looking in each of them in turn would."""
        visible = scope.visible_files
        if not visible:
            return ()
        hit = next(
            ((path, ids) for path, ids in self._table(scope).get(qual, ()) if path != scope.path),
            None,
        )
        first = visible[0]
        if (hit[0] == first) if hit is not None else len(visible) == 1:
            see(ctx, self._scopes[first], name)  # only the first sibling was looked in
        else:
            ctx.consulted.add(name)  # two or more were: one is not the file asking
        return hit[1] if hit is not None else ()

    def _table(self, scope: FileScope) -> Table:
        package = scope.path.rpartition("/")[0]
        table = self._tables.get(package)
        if table is None:
            found: defaultdict[str, list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
            for path in sorted({scope.path, *scope.visible_files}):
                for qual, ids in self._scopes[path].by_qual.items():
                    found[qual].append((path, ids))
            table = self._tables[package] = dict(found)
        return table
