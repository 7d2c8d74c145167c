"""C links through function-like macros, `static` functions and alternatives under
`#if` keep equal to a fresh build edit by edit (the linker re-resolves a call when
a macro's body, a static or a definition it consulted moves)."""

from __future__ import annotations

import pytest

from tests.bridge.test_map_c_callers import C
from tests.map.test_declarations import edits_link_like_a_fresh_build

HEADER = "include/check.h"
EDITS: list[tuple[str, str | None, str]] = [
    (
        HEADER,
        C[HEADER].replace("check_equal((long)(a)", 'fail_at("eq", (line)); check_equal((long)(a)'),
        "a macro's body calls one more function",
    ),
    (HEADER, C[HEADER].replace("#define CHECK_EQ(a, b)", "#define CHECK_IS(a, b)"), "renamed"),
    ("src/other.c", "int other(void) { return report(1); }\n", "a file's static removed"),
    ("src/math.c", None, "the file defining the header's prototype deleted"),
    ("src/check.c", C["src/check.c"].replace("int check_equal(", "int check_same("), "renamed"),
    ("src/stack.c", C["src/stack.c"].replace("#else\n", "#endif\n#ifdef NDEBUG\n"), "re-guarded"),
]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_c_edits_link_like_a_fresh_build(seed: int) -> None:
    edits_link_like_a_fresh_build(C, EDITS, seed)
