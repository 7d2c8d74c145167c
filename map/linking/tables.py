"""Lua's tables, which its modules are: a required module is the table it returns
(`local stringx = require 'pl.stringx'` then `stringx.wrap(...)` calls the function
`stringx.wrap` that pl/stringx.lua defines on its table), a file's own table holds the
functions defined on it (`function M.f` called as `M.f()`), and the standard library's
tables (`coroutine.wrap`, `string.format`) are not ours: `OUTSIDE`, never guessed.
"""

from __future__ import annotations

from collections.abc import Mapping

from map.linking.lookup import Lookup, see, segments
from map.linking.resolution import OUTSIDE, Resolution, exact
from map.linking.scopes import FileScope

TABLE_LANGUAGES = frozenset({"lua"})
LUA_LIBRARIES = frozenset(
    {"string", "table", "math", "io", "os", "coroutine", "debug", "utf8", "package", "bit32"}
)
"""The tables Lua's standard library gives every chunk."""


def table_members(
    ctx: Lookup, scopes: Mapping[str, FileScope], files: tuple[str, ...], name: str
) -> tuple[str, ...]:
    """The functions `name` defined on a table at the top of `files` (`function M.name`)."""
    found: list[str] = []
    for path in files:
        scope = scopes[path]
        see(ctx, scope, name)
        found += [
            node_id
            for node_id, symbol in scope.symbols.items()
            if symbol.name == name and len(symbol.container) == 1
        ]
    return tuple(found)


def own_table(scope: FileScope, scope_id: str, qualifier: str, name: str) -> Resolution | None:
    """A call on a table the file defines functions on (`M.f()` where `function M.f`), a
    standard library table's (`OUTSIDE`), else None (not known here)."""
    ids = scope.by_qual.get(f"{qualifier}.{name}")
    if ids:
        return exact(ids)
    head = segments(qualifier)[0]
    if head in LUA_LIBRARIES and scope.assigning(scope_id, head) is None:
        return OUTSIDE
    return None
