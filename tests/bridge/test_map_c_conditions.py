"""C callers under preprocessor conditions, asked through the real tools on a real
AppContext (map.extraction.c_conditions, map.linking.conditions).

A definition under a branch its file decides is not taken (`#if 0`) takes no call;
one under a branch its file decides is taken (`#ifdef X` after `#define X`, an
include guard) is as if unconditional. A `static` definition under a condition the
file does not decide (zlib's minigzip.c: `static int gzclose` under `#ifdef Z_SOLO`,
beside zlib.h's prototype) may or may not be what a call of its file runs: the call
is a guess between the two, listed in `unresolved` as `conditional`, and every answer
about either says `partial` naming the condition. A macro body the parser misreads
(`{ if keyiswhite(n) reallymarkobject(...); }`: lua's `if` without parentheses) still
calls what it names. A call inside a definition under an undecided condition (lua's
ltests.c, all under `#if defined(LUA_DEBUG)`) is listed, and the answer says
`partial` naming the condition: whether it is compiled depends on the build.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bridge.tools.mapgraph import map_neighbors
from tests.bridge.test_map_completeness import _ask, _listed, _repo

CONDITIONS = {
    "zlib.h": "#ifndef ZLIB_H\n#define ZLIB_H\nint gzclose(int f);\n#endif\n",
    "gzclose.c": '#include "zlib.h"\nint gzclose(int f) { return f; }\n',
    "test/example.c": '#include "../zlib.h"\nint main(void) { return gzclose(1); }\n',
    "test/minigzip.c": (
        '#include "../zlib.h"\n'
        "#ifdef Z_SOLO\n"
        "static int gzclose(int f) { return -f; }\n"
        "#endif\n"
        "int run(void) { return gzclose(2); }\n"
    ),
    "test/dead.c": (
        '#include "../zlib.h"\n'
        "#if 0\n"
        "static int gzclose(int f) { return 0; }\n"
        "#endif\n"
        "int dead(void) { return gzclose(3); }\n"
    ),
    "test/near.c": (
        '#include "../zlib.h"\n'
        "#define NEAR_CLOSE 1\n"
        "#if defined(NEAR_CLOSE) && !0\n"
        "static int gzclose(int f) { return f + 1; }\n"
        "#endif\n"
        "int near(void) { return gzclose(4); }\n"
    ),
    "lgc.c": (
        "static void reallymark(int g, int o);\n"
        "#define markkey(g, n) { if iswhite(n) reallymark(g, n); }\n"
        "static void reallymark(int g, int o) { (void)g; (void)o; }\n"
        "void traverse(int g) { markkey(g, 1); }\n"
    ),
}
"""`gzclose.c`'s `gzclose` is called by `main` (example.c, line 2) and `dead` (dead.c,
line 5: its own `static` one is under `#if 0`), maybe by `run` (minigzip.c, line 5:
its own under `#ifdef Z_SOLO` if the build defines it); near.c's own `static` one
(its condition is decided by the file's own `#define`) by `near` (line 6). Lua's
`reallymark` by `markkey`'s body (line 2) and through it by `traverse` (line 4)."""


def _answers(
    tmp_path: Path, *node_ids: str, sources: dict[str, str] = CONDITIONS
) -> list[dict[str, Any]]:
    root = _repo(tmp_path / "repo", sources)
    calls = {"direction": "in", "kinds": ["calls"]}
    asked = [(map_neighbors, {"node_id": node_id, **calls}) for node_id in node_ids]
    return [answer["data"] for answer in _ask(root, *asked)]


def test_an_undecided_static_beside_a_header_s_prototype_makes_the_call_a_guess(
    tmp_path: Path,
) -> None:
    extern, solo = _answers(tmp_path, "gzclose.c#gzclose", "test/minigzip.c#gzclose")
    assert _listed(extern) == [("test/dead.c#dead", [5]), ("test/example.c#main", [2])]
    assert _listed(solo) == []
    for data in (extern, solo):
        assert data["completeness"] == "partial"
        assert [(u["path"], u["line"], u["why"], u["guesses"]) for u in data["unresolved"]] == [
            ("test/minigzip.c", 5, "conditional", ["test/minigzip.c#gzclose", "gzclose.c#gzclose"])
        ]
        (reason,) = data["completenessReasons"]
        assert reason["code"] == "unresolved_uses"
        assert "`#ifdef Z_SOLO` in test/minigzip.c" in reason["message"]


def test_conditions_the_file_decides_are_evaluated(tmp_path: Path) -> None:
    decided = {path: text for path, text in CONDITIONS.items() if path != "test/minigzip.c"}
    asked = ("gzclose.c#gzclose", "test/near.c#gzclose", "test/dead.c#gzclose")
    extern, near, dead = _answers(tmp_path, *asked, sources=decided)
    assert _listed(extern) == [("test/dead.c#dead", [5]), ("test/example.c#main", [2])]
    assert _listed(near) == [("test/near.c#near", [6])]
    assert _listed(dead) == []
    assert {data["completeness"] for data in (extern, near, dead)} == {"complete"}


def test_a_macro_body_the_parser_misreads_still_calls_what_it_names(tmp_path: Path) -> None:
    (marked,) = _answers(tmp_path, "lgc.c#reallymark")
    assert _listed(marked) == [("lgc.c#markkey", [2]), ("lgc.c#traverse", [4])]
    assert marked["completeness"] == "complete"


DEBUG = {
    "lauxlib.h": "#ifndef LAUXLIB_H\n#define LAUXLIB_H\nconst char *checkstr(int i);\n#endif\n",
    "lauxlib.c": (
        '#include "lauxlib.h"\n'
        'const char *checkstr(int i) { return i ? "a" : "b"; }\n'
        "int base(void) { return checkstr(0)[0]; }\n"
    ),
    "ltests.c": (
        '#include "lauxlib.h"\n'
        "#if defined(LUA_DEBUG)\n"
        "int probe(void) { return checkstr(1)[0]; }\n"
        "#endif\n"
    ),
}


def test_a_call_inside_a_definition_under_an_undecided_condition_is_listed_partial(
    tmp_path: Path,
) -> None:
    (checked,) = _answers(tmp_path, "lauxlib.c#checkstr", sources=DEBUG)
    assert _listed(checked) == [("lauxlib.c#base", [3]), ("ltests.c#probe", [3])]
    assert checked["completeness"] == "partial"
    assert [(u["path"], u["line"], u["why"], u["guesses"]) for u in checked["unresolved"]] == [
        ("ltests.c", 3, "compiled_if", ["lauxlib.c#checkstr"])
    ]
    (reason,) = checked["completenessReasons"]
    assert reason["code"] == "conditional_uses"
    assert "`#if defined(LUA_DEBUG)` in ltests.c" in reason["message"]


ROLES = {
    "xmlrole.c": (
        "static int inner(int t) { return t; }\n"
        "static int outer(int t) { return -t; }\n"
        "#ifdef XML_DTD\n"
        "#  define SET_TOP(s, doc) ((s) = (doc) ? inner : outer)\n"
        "#else\n"
        "#  define SET_TOP(s, doc) ((s) = inner)\n"
        "#endif\n"
        "void top(int (*s)(int), int doc) { SET_TOP(s, doc); }\n"
    ),
}
"""expat's `setTopLevel`: a macro defined under `#ifdef XML_DTD` and under `#else`."""


def test_a_macro_s_alternatives_under_conditions_are_all_expanded(tmp_path: Path) -> None:
    (outer,) = _answers(tmp_path, "xmlrole.c#outer", sources=ROLES)
    assert _listed(outer) == [("xmlrole.c#SET_TOP", [4]), ("xmlrole.c#top", [8])]
    assert outer["completeness"] == "partial"
    assert [(u["line"], u["why"]) for u in outer["unresolved"]] == [(4, "compiled_if")]
    assert "`#ifdef XML_DTD` in xmlrole.c" in outer["completenessReasons"][0]["message"]
