"""C callers as a compiler sees them: real maps of small C repositories asked through the
real tools on a real AppContext.

A call made through a function-like macro calls what the macro's body calls, at the
line the macro is used (through macros that use macros, never through a call of a
macro's own parameter); a `static` function is seen by its own file (and its
includers) only, so two files' `static` functions of one name each keep their own
callers; a call the parser reads as a prototype (after a macro written without its
semicolon) is a call. Each of those answers lists its callers exactly and says
`complete`. Alternatives under preprocessor conditions (a header's `#define zopen
zopen64` beside the prototype of `zopen`, a function defined under `#if` and under
`#else`) make a call a guess between them: the answer says `partial`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bridge.tools.mapgraph import map_neighbors
from tests.bridge.test_map_completeness import _ask, _listed, _repo

C = {
    "include/check.h": (
        "#ifndef CHECK_H\n"
        "#define CHECK_H\n"
        "void fail_at(const char *what, int line);\n"
        "int check_equal(long a, long b, int line);\n"
        "#define CHECK_EQ_AT(a, b, line) check_equal((long)(a), (long)(b), (line))\n"
        "#define CHECK_EQ(a, b) CHECK_EQ_AT(a, b, __LINE__)\n"
        "#define CHECK_ALL(f, n) do { int i; for (i = 0; i < (n); i++) f(i); } while (0)\n"
        "#define FAIL(what) fail_at(#what, __LINE__)\n"
        "#ifdef BIG\n"
        "#  define zopen zopen64\n"
        "#else\n"
        "int zopen(const char *path);\n"
        "#endif\n"
        "int twice(int x);\n"
        "#endif\n"
    ),
    "src/check.c": (
        '#include "../include/check.h"\n'
        "static int report(int line) { return line; }\n"
        "void fail_at(const char *what, int line) { report(line); }\n"
        "int check_equal(long a, long b, int line) {\n"
        '    if (a != b) { fail_at("eq", line); return 0; }\n'
        "    return 1;\n"
        "}\n"
        "int zopen(const char *path) { return path != 0; }\n"
        "int zopen64(const char *path) { return path != 0; }\n"
    ),
    "src/other.c": (
        "static int report(int line) { return -line; }\n"
        "int other(void) { return report(1); }\n"
        "static int twice(int x) { return x + x; }\n"
        "int other_twice(void) { return twice(3); }\n"
    ),
    "src/math.c": '#include "../include/check.h"\nint twice(int x) { return 2 * x; }\n',
    "src/stack.c": (
        "#ifdef DEBUG\n"
        "static void relstack(int *s) { s[0] = 0; }\n"
        "#else\n"
        "static void relstack(int *s) { (void)s; }\n"
        "#endif\n"
        "void shrink(int *s) { relstack(s); }\n"
    ),
    "tests/test_main.c": (
        '#include "../include/check.h"\n'
        "static void one(int i) { CHECK_EQ(i, i); }\n"
        "int main(void) {\n"
        "    CHECK_EQ(1, 1);\n"
        "    CHECK_ALL(one, 3);\n"
        '    if (!zopen("a")) FAIL(open);\n'
        "    return check_equal(twice(2), 4, 0);\n"
        "}\n"
        "#define BEGIN_EXPECT if (1) {\n"
        "#define END_EXPECT }\n"
        "void expect_fail(const char *what, int line) {\n"
        "    BEGIN_EXPECT\n"
        "    fail_at(what, line);\n"
        "    END_EXPECT\n"
        "}\n"
    ),
}
"""`check_equal` is called in `one` (line 2) and `main` (line 4) through two macros,
directly in `main` (line 7), and in the bodies of `CHECK_EQ_AT` and `CHECK_EQ` (lines 5
and 6 of the header);
`fail_at` through `FAIL` (line 6), in `check_equal`, and in `expect_fail` (line 13,
after a macro without its semicolon: the parser reads a prototype); the `static` `report` and
`twice` of each source file by that file alone, the header's `twice` (math.c's) by
`main` (line 7); `relstack`, defined under `#ifdef DEBUG` and under `#else`, by
`shrink` (line 6 of stack.c), whichever the build compiles; `zopen` (through the
header's prototype) or the header's macro `zopen`, whichever the build defines, by
`main`."""


def _answers(tmp_path: Path, *node_ids: str) -> list[dict[str, Any]]:
    root = _repo(tmp_path / "repo", C)
    calls = {"direction": "in", "kinds": ["calls"]}
    asked = [(map_neighbors, {"node_id": node_id, **calls}) for node_id in node_ids]
    return [answer["data"] for answer in _ask(root, *asked)]


def test_calls_through_function_like_macros_call_what_the_macro_calls(tmp_path: Path) -> None:
    check, fail = _answers(tmp_path, "src/check.c#check_equal", "src/check.c#fail_at")
    assert _listed(check) == [
        ("include/check.h#CHECK_EQ", [6]),
        ("include/check.h#CHECK_EQ_AT", [5]),
        ("tests/test_main.c#main", [4, 7]),
        ("tests/test_main.c#one", [2]),
    ]
    assert check["completeness"] == "complete"
    assert _listed(fail) == [
        ("include/check.h#FAIL", [8]),
        ("src/check.c#check_equal", [5]),
        ("tests/test_main.c#expect_fail", [13]),
        ("tests/test_main.c#main", [6]),
    ]
    assert fail["completeness"] == "complete"


ALIASED = {
    "sdsalloc.h": '#include "alloc.h"\n#define s_free hi_free\n#define local static\n',
    "alloc.h": "static inline void hi_free(void *p) { (void)p; }\n",
    "sds.c": '#include "sdsalloc.h"\nlocal void sdsfree(void *s) { s_free(s); }\n',
}
"""hiredis's shape: `s_free` stands for `hi_free`."""


def test_a_call_through_a_macro_naming_a_function_calls_it(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", ALIASED)
    asked = (map_neighbors, {"node_id": "alloc.h#hi_free", "direction": "in", "kinds": ["calls"]})
    (answer,) = _ask(root, asked)
    data = answer["data"]
    assert _listed(data) == [("sds.c#sdsfree", [2]), ("sdsalloc.h#s_free", [2])]
    assert data["completeness"] == "complete"


def test_static_functions_of_one_name_keep_their_own_callers(tmp_path: Path) -> None:
    asked = ("src/check.c#report", "src/other.c#report", "src/math.c#twice", "src/other.c#twice")
    answers = _answers(tmp_path, *asked)
    assert [_listed(data) for data in answers] == [
        [("src/check.c#fail_at", [3])],
        [("src/other.c#other", [2])],
        [("tests/test_main.c#main", [7])],
        [("src/other.c#other_twice", [4])],
    ]
    assert {data["completeness"] for data in answers} == {"complete"}


def test_a_function_defined_twice_under_conditions_is_a_guess_between_them(
    tmp_path: Path,
) -> None:
    answers = _answers(tmp_path, "src/stack.c#relstack", "src/stack.c#relstack~2")
    for data in answers:
        assert _listed(data) == []
        assert data["completeness"] == "partial"
        assert [(u["path"], u["line"], u["why"]) for u in data["unresolved"]] == [
            ("src/stack.c", 6, "conditional")
        ]


PREFIXED = {
    "zconf.h": "#ifdef Z_PREFIX\n#  define flush_bits z_flush_bits\n#endif\n",
    "deflate.h": '#include "zconf.h"\nvoid flush_bits(int s);\n',
    "trees.c": '#include "deflate.h"\nvoid flush_bits(int s) { (void)s; }\n',
    "deflate.c": '#include "zconf.h"\n#include "deflate.h"\nvoid run(int s) { flush_bits(s); }\n',
    "inflate.c": '#include "zconf.h"\nvoid pull(int s) { flush_bits(s); }\n',
}
"""zlib's shape: one header renames a function under a condition (Z_PREFIX, to a name
nothing defines: the definition is renamed too), another declares it; a file that
includes both sees both, whichever it includes first, and calls the function; a file
that sees only the rename calls it too, maybe (a guess: no declaration says so)."""


def test_a_prefixing_rename_in_one_header_leaves_the_prototype_of_another(
    tmp_path: Path,
) -> None:
    root = _repo(tmp_path / "repo", PREFIXED)
    asked = (
        map_neighbors,
        {"node_id": "trees.c#flush_bits", "direction": "in", "kinds": ["calls"]},
    )
    (answer,) = _ask(root, asked)
    data = answer["data"]
    assert (_listed(data), data["completeness"]) == ([("deflate.c#run", [3])], "partial")
    assert [(u["path"], u["line"], u["guesses"]) for u in data["unresolved"]] == [
        ("inflate.c", 2, ["zconf.h#flush_bits", "trees.c#flush_bits"])
    ]


def test_a_macro_renaming_a_function_under_a_condition_is_a_guess_between_them(
    tmp_path: Path,
) -> None:
    (opened,) = _answers(tmp_path, "src/check.c#zopen")
    assert _listed(opened) == []
    assert opened["completeness"] == "partial"
    assert [(u["path"], u["line"], u["why"], u["guesses"]) for u in opened["unresolved"]] == [
        ("tests/test_main.c", 6, "guess", ["include/check.h#zopen", "src/check.c#zopen"])
    ]


RUNNER = {
    "include/runner.h": "static void run_tests(void);\nint main(void) { run_tests(); return 0; }\n",
    **{
        f"tests/t{n}.c": f'#include "../include/runner.h"\nstatic void run_tests(void) {{ {n}; }}\n'
        for n in range(6)
    },
}
"""A header's `static` prototype, called in the header, is defined by each of six test
files that include it: which one a call means depends on the file compiled."""


def test_a_header_s_static_prototype_is_each_includer_s_a_guess_among_many(
    tmp_path: Path,
) -> None:
    root = _repo(tmp_path / "repo", RUNNER)
    asked = (map_neighbors, {"node_id": "tests/t0.c#run_tests", "direction": "in"})
    (answer,) = _ask(root, asked)
    data = answer["data"]
    assert _listed(data) == []
    assert data["completeness"] == "partial"
    assert [(u["path"], u["line"], u["why"]) for u in data["unresolved"]] == [
        ("include/runner.h", 2, "guess")
    ]


MADE = {
    "minicheck.h": (
        "#define START_TEST(name) static void name(void) {\n"
        "#define END_TEST }\n"
        "void add_test(void (*f)(void));\n"
    ),
    "tests.c": (
        '#include "minicheck.h"\n'
        "static int helper(void) { return 1; }\n"
        "START_TEST(test_first) { helper(); }\n"
        "END_TEST\n"
        "START_TEST(test_second) { helper(); }\n"
        "END_TEST\n"
        "void suite(void) { add_test(test_first); add_test(test_second); }\n"
    ),
    "role.c": (
        "static int inner(int t) { return t; }\n"
        "static int outer(int t) { return -t; }\n"
        "#define SET_TOP(s, doc) ((s) = (doc) ? inner : outer)\n"
        "void top(int (*s)(int), int doc) { SET_TOP(s, doc); }\n"
        "int pick(int doc) { int (*f)(int) = doc ? inner : outer; return f(1); }\n"
    ),
}
"""expat's shapes: test functions a macro defines (`START_TEST(test_x) {`, minicheck's
`static void test_x(void) {`), registered by name; a function a macro's body takes as a
value through `?:` (`setTopLevel`), and one `?:` chooses in a function."""


def test_functions_a_macro_defines_and_functions_chosen_as_values_have_their_callers(
    tmp_path: Path,
) -> None:
    root = _repo(tmp_path / "repo", MADE)
    asked = ("tests.c#test_first", "tests.c#test_second", "tests.c#helper", "role.c#outer")
    calls = {"direction": "in", "kinds": ["calls"]}
    answers = [
        a["data"] for a in _ask(root, *[(map_neighbors, {"node_id": n, **calls}) for n in asked])
    ]
    assert [_listed(data) for data in answers] == [
        [("tests.c#suite", [7])],
        [("tests.c#suite", [7])],
        [("tests.c#test_first", [3]), ("tests.c#test_second", [5])],
        [("role.c#SET_TOP", [3]), ("role.c#pick", [5]), ("role.c#top", [4])],
    ]
    assert {data["completeness"] for data in answers} == {"complete"}


GLOBAL = {
    "zlib.h": "int gzclose(int f);\n",
    "gzclose.c": '#include "zlib.h"\nint gzclose(int f) { return f; }\n',
    "zstream.h": (
        '#include "zlib.h"\n'
        "class stream {\n"
        " public:\n"
        "  int close() { return ::gzclose(fd); }\n"
        "  int fd;\n"
        "};\n"
    ),
}
"""zlib's contrib/iostream2: a C++ method calls the C function past its class's names."""


def test_a_cpp_call_of_a_global_name_reaches_the_c_function(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", GLOBAL)
    asked = (map_neighbors, {"node_id": "gzclose.c#gzclose", "direction": "in", "kinds": ["calls"]})
    (answer,) = _ask(root, asked)
    data = answer["data"]
    assert (_listed(data), data["completeness"]) == ([("zstream.h#stream.close", [4])], "complete")
