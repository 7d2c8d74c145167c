"""Python names given by `with X() as name` and methods that return their own object:
real maps of a small repository asked through the real tools on a real AppContext.

`with httpx.Client() as client: client.post(...)` was a guess on an untyped receiver
(httpx's tests: every `client.post` in a `with` block), so the answer for `Client.post`
said partial. Now the name holds what the class's `__enter__` (`__aenter__` in an `async
with`) returns, and a method returns its own class when annotated `-> Self` or with its
`self`'s TypeVar, or when unannotated it returns `self`. A namesake `Session.post` keeps
its own callers, and an `__enter__` that returns something else is followed there.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from map import CodeMap, MapSettings
from tests.bridge.test_map_completeness import _ask, _callers, _listed, _repo

LIB = (
    "import typing\n\n"  # 1
    'T = typing.TypeVar("T", bound="Client")\n\n\n'  # 3
    "class Session:\n"  # 6
    "    def post(self) -> int:\n"  # 7
    "        return 1\n\n"  # 8
    "    def close(self) -> None:\n"  # 10
    "        pass\n\n\n"  # 11
    "class Client:\n"  # 14
    "    def __enter__(self: T) -> T:\n"  # 15
    "        return self\n\n"  # 16
    "    def __exit__(self, *args: object) -> None:\n"  # 18
    "        pass\n\n"  # 19
    "    async def __aenter__(self) -> typing.Self:\n"  # 21
    "        return self\n\n"  # 22
    "    async def __aexit__(self, *args: object) -> None:\n"  # 24
    "        pass\n\n"  # 25
    "    def post(self) -> int:\n"  # 27
    "        return 2\n\n"  # 28
    "    def named(self, name: str):\n"  # 30
    "        self.name = name\n"  # 31
    "        return self\n\n\n"  # 32
    "class Opener:\n"  # 35
    "    def __enter__(self) -> Session:\n"  # 36
    "        return Session()\n\n"  # 37
    "    def __exit__(self, *args: object) -> None:\n"  # 39
    "        pass\n\n"  # 40
    "    async def __aenter__(self):\n"  # 42
    "        return Session()\n"  # 43
)
USE = (
    "import lib\n"  # 1
    "from lib import Client\n\n\n"  # 2
    "def plain():\n"  # 5
    "    with Client() as client:\n"  # 6
    "        client.post()\n\n\n"  # 7
    "async def asynchronous():\n"  # 10
    "    async with lib.Client() as client, lib.Opener() as session:\n"  # 11
    "        client.post()\n"  # 12
    "        session.post()\n\n\n"  # 13
    "def fluent():\n"  # 16
    '    Client().named("a").post()\n\n\n'  # 17
    "def opened():\n"  # 20
    "    with lib.Opener() as session:\n"  # 21
    "        session.post()\n"  # 22
)
"""`plain`, `asynchronous` and `fluent` call Client.post; `opened` calls Session.post
(Opener's `__enter__` gives a Session); line 13's `session` is what Opener's unannotated
`__aenter__` gives, which the map cannot tell: a use it cannot tie, so both answers are
partial, with that one line."""


def test_with_as_names_hold_what_enter_returns(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", {"lib.py": LIB, "use.py": USE})
    client, session = _ask(root, _callers("lib.py#Client.post"), _callers("lib.py#Session.post"))
    data = client["data"]
    assert sorted(_listed(data)) == [
        ("use.py#asynchronous", [12]),
        ("use.py#fluent", [17]),
        ("use.py#plain", [7]),
    ]
    assert _unresolved(data) == [("use.py", 13)]
    data = session["data"]
    assert _listed(data) == [("use.py#opened", [22])]
    assert _unresolved(data) == [("use.py", 13)]


def _unresolved(data: dict[str, Any]) -> list[tuple[str, int]]:
    return [(u["path"], u["line"]) for u in data["unresolved"]]


def test_an_edit_of_what_enter_returns_relinks_as_a_fresh_build_does(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", {"lib.py": LIB, "use.py": USE})
    code_map = CodeMap.open(root, MapSettings(snapshot_dir=str(tmp_path / "store")))
    assert [t.targets for t in code_map.ties("use.py", "post") if t.line == 7] == [
        ("lib.py#Client.post",)
    ]
    given = "(self) -> Session:\n        return Session()"
    (root / "lib.py").write_text(LIB.replace("(self: T) -> T:\n        return self", given))
    code_map.rebuild()
    edited = code_map.ties("use.py", "post")
    assert [t.targets for t in edited if t.line == 7] == [("lib.py#Session.post",)]
    fresh = CodeMap.open(root, MapSettings(snapshot_dir=str(tmp_path / "fresh")))
    assert fresh.ties("use.py", "post") == edited
