"""Pytest fixtures: what a test's parameter holds when a fixture of its name gives it.

`def test_run(runner): runner.invoke(...)` calls `CliRunner.invoke` when the
nearest fixture named `runner` returns `CliRunner()`: the fixture defined in the
test's own file, else in the `conftest.py` of its folder or the nearest folder
above. What a fixture gives is read from its body (map.model's `GIVES`: the
call or name it returns or yields). Only the parameters of tests (functions
named `test...`) and of fixtures, in test files and conftest.py, are read so.
"""

from __future__ import annotations

import posixpath

from map.linking.scopes import FileScope
from map.model import GIVES

CONFTEST = "conftest.py"


def requests_fixtures(scope: FileScope, where: str) -> bool:
    """Whether the function `where` of the file takes pytest fixtures as parameters:
    a test, or a fixture, in a test file or a conftest.py."""
    if scope.language != "python":
        return False
    symbol = scope.symbols.get(where)
    if symbol is None or symbol.kind not in ("function", "method"):
        return False
    base = posixpath.basename(scope.path)
    if not (base.startswith("test_") or base.endswith("_test.py") or base == CONFTEST):
        return False
    return symbol.name.startswith("test") or (where, GIVES) in scope.assigned


def fixture_files(path: str) -> list[str]:
    """Where the fixtures a test in `path` sees are defined, nearest first: the file,
    then the conftest.py of its folder and of each folder above, to the root."""
    found = [path]
    folder = posixpath.dirname(path)
    while True:
        found.append(posixpath.join(folder, CONFTEST) if folder else CONFTEST)
        if not folder:
            return found
        folder = posixpath.dirname(folder)
