"""C links under preprocessor conditions keep equal to a fresh build edit by edit: a
`#define` a condition tests added or removed (in the file, or in a header that turns
its prototype off), a branch turned on or off, a caller's condition decided."""

from __future__ import annotations

import pytest

from tests.bridge.test_map_c_conditions import CONDITIONS, DEBUG
from tests.map.test_declarations import edits_link_like_a_fresh_build

EDITS: list[tuple[str, str | None, str]] = [
    ("test/near.c", CONDITIONS["test/near.c"].replace("#define NEAR_CLOSE 1\n", ""), "undefined"),
    ("test/dead.c", CONDITIONS["test/dead.c"].replace("#if 0", "#if 1"), "a branch turned on"),
    ("test/minigzip.c", CONDITIONS["test/minigzip.c"].replace("#ifdef Z_SOLO", "#if 0"), "off"),
    (
        "zlib.h",
        CONDITIONS["zlib.h"].replace("int gzclose", "#define NO_GZ\n#ifndef NO_GZ\nint gzclose")
        + "#endif\n",
        "a header's #define turns its prototype off",
    ),
    ("test/near.c", CONDITIONS["test/near.c"], "defined again"),
]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_c_condition_edits_link_like_a_fresh_build(seed: int) -> None:
    edits_link_like_a_fresh_build(CONDITIONS, EDITS, seed)


DEBUG_EDITS: list[tuple[str, str | None, str]] = [
    ("ltests.c", DEBUG["ltests.c"].replace("defined(LUA_DEBUG)", "1"), "decided"),
    ("lauxlib.h", DEBUG["lauxlib.h"].replace("#define LAUXLIB_H", "#define LAUXLIB_H 1"), "h"),
    ("ltests.c", DEBUG["ltests.c"], "undecided again"),
]


@pytest.mark.parametrize("seed", [1, 2])
def test_c_caller_condition_edits_link_like_a_fresh_build(seed: int) -> None:
    edits_link_like_a_fresh_build(DEBUG, DEBUG_EDITS, seed)
