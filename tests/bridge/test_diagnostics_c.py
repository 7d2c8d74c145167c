"""nav_diagnostics on a C header's change, through a real MCP client and clangd: the
calls it broke are `new` against the baseline (the header sent as it was at HEAD
reaches the files including it), the files that see the header only through
another header are checked too, and a rename's trial reaches them as well."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bridge.context import AppContext
from bridge.tools.rename_trial import try_rename
from tests.bridge.mcp_session import call, call_error, serve
from tests.bridge.test_diagnostics import (
    CASES,
    SCENARIO_TIMEOUT_S,
    _checked,
    _diagnose_change,
    _errors,
    _repo,
)
from tests.conftest import require_binary
from tests.lsp.conftest import line_of

OLD = "int distance2(struct point a, struct point b);"
NEW = "int distance2(struct point a, struct point b, int scale);"


def test_a_changed_prototype_breaks_callers_seen_through_other_headers_as_new(
    tmp_path: Path,
) -> None:
    case = CASES[3]
    require_binary(case.server)
    repo = _repo(tmp_path, case)
    repo.write("include/shapes.h", '#include "geometry.h"\n\nint far(void);\n')
    repo.write(
        "src/uses.c",
        '#include "shapes.h"\n\nint far(void) {\n'
        "  struct point a = {0, 0};\n  return distance2(a, a);\n}\n",
    )
    repo.commit("a file seeing geometry.h through shapes.h")
    repo.write("include/geometry.h", repo.read("include/geometry.h").replace(OLD, NEW))
    data = _diagnose_change(repo)
    checked = {path: why for path, why, _ in _checked(data)}
    assert checked.get("src/uses.c") == "imports_changed_file", data["files"]
    broken = [
        ("src/main.c", line_of(repo.root, "src/main.c", "distance2(origin, corner)")),
        ("src/uses.c", 5),
    ]
    changes = {(d["path"], d["line"]): d["change"] for d in data["diagnostics"]}
    assert {changes.get(site) for site in broken} == {"new"}, data["diagnostics"]
    assert ("src/geometry.c", line_of(repo.root, "src/geometry.c", "int distance2(")) in _errors(
        data
    )
    assert data["baseline"]["missing"] == []
    # the definition now conflicts with the prototype: clang checks no later call of it
    assert [r["code"] for r in data["completenessReasons"]] == ["conflicting_declaration"]


def test_files_a_change_leaves_clean_are_settled_though_clangd_has_nothing_new(
    tmp_path: Path,
) -> None:
    """clangd publishes nothing for a file sent again unchanged whose headers did not
    change: such a file in the scope is settled all the same, not waited for in vain."""
    case = CASES[3]
    require_binary(case.server)
    repo = _repo(tmp_path, case)
    repo.write("src/geometry.c", repo.read("src/geometry.c") + "\nint unused(void) { return 0; }\n")
    repo.commit("a function to rename")
    repo.write("src/other.c", "int unused(void);\n\nint twice(void) { return 2 * unused(); }\n")
    repo.commit("a user of it")

    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo.root) as client:
            await call(client, "nav_diagnostics", path="src/other.c")  # open, published
            geometry = repo.read("src/geometry.c")
            repo.write("src/geometry.c", geometry.replace("int unused(", "int spare("))
            answer = await call(client, "nav_diagnostics")
            data: dict[str, Any] = answer["data"]
            return data

    data = asyncio.run(scenario())
    assert "src/other.c" in {path for path, _, _ in _checked(data)}, data["files"]
    assert {f["settled"] for f in data["files"]} == {True}, data["files"]
    assert data["completeness"] == "complete", data["completenessReasons"]


def test_a_source_file_included_through_a_header_has_its_includers_checked(
    tmp_path: Path,
) -> None:
    """cJSON's tests include ../cJSON.c through common.h: they see its definitions."""
    case = CASES[3]
    require_binary(case.server)
    repo = _repo(tmp_path, case)
    repo.write("include/bundle.h", '#include "../src/geometry.c"\n')
    repo.write("src/bundled.c", '#include "bundle.h"\n\nint four(void) { return 4; }\n')
    repo.commit("a file including geometry.c through a header")
    geometry = repo.read("src/geometry.c")
    repo.write("src/geometry.c", geometry.replace("return v * v;", "return v * v * 1;"))
    data = _diagnose_change(repo)
    assert ("src/bundled.c", "imports_changed_file", []) in _checked(data), data["files"]


def test_a_renames_trial_reaches_files_including_the_header_through_others(
    tmp_path: Path,
) -> None:
    """The trial of edits to geometry.h finds the error they would add in a file that
    includes it three headers away (cJSON's tests see cJSON.h through common.h and
    ../cJSON.c)."""
    case = CASES[3]
    require_binary(case.server)
    repo = _repo(tmp_path, case)
    repo.write("include/a.h", '#include "geometry.h"\n')
    repo.write("include/b.h", '#include "a.h"\n')
    repo.write("include/c.h", '#include "b.h"\n')
    repo.write("src/deep.c", '#include "c.h"\n\nint nine(void) { return square(3); }\n')
    repo.commit("a file three headers away from geometry.h")
    edited = repo.read("include/geometry.h").replace("int square(int v);", "int squared(int v);")

    async def scenario() -> list[tuple[str, int]]:
        app = AppContext(repo.root)
        try:
            async with asyncio.timeout(SCENARIO_TIMEOUT_S):
                trial = await try_rename(app, {"include/geometry.h": edited}, "square", "squared")
                return [(e.path, e.line) for e in trial.errors]
        finally:
            await app.aclose()

    assert ("src/deep.c", 3) in asyncio.run(scenario())


def test_a_definition_conflicting_with_its_prototype_says_later_calls_are_unchecked(
    tmp_path: Path,
) -> None:
    """clang marks a function invalid after a conflicting redefinition and checks none
    of its later calls (gcc reports each): the answer listed only the conflict and
    said `complete` (cJSON: 1 of 40 new errors)."""
    case = CASES[3]
    require_binary(case.server)
    repo = _repo(tmp_path, case)
    repo.write(
        "src/twice.c",
        "int twice(int v);\n\nint four(void) { return twice(2); }\n\n"
        "int twice(int v) { return 2 * v; }\n\nint eight(void) { return twice(4); }\n",
    )
    repo.commit("a function called before and after its definition")
    repo.write(
        "src/twice.c", repo.read("src/twice.c").replace("twice(int v) {", "twice(int v, int s) {")
    )
    data = _diagnose_change(repo)
    assert ("src/twice.c", 5) in _errors(data)
    [conflict] = [r for r in data["completenessReasons"] if r["code"] == "conflicting_declaration"]
    assert "'twice'" in conflict["message"] and "src/twice.c:5" in conflict["message"]
    assert data["completeness"] == "partial"


def test_apply_refuses_edits_that_leave_out_a_file_the_preview_edited(tmp_path: Path) -> None:
    """clangd's rename, asked again to apply, can answer other edits than the preview's
    (its index moved in between): edits without a file the preview showed were written,
    and the code broke where the preview had said nothing (cJSON: 8 silent lines)."""
    case = CASES[3]
    require_binary(case.server)
    repo = _repo(tmp_path, case)

    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo.root) as client:
            target = "src/geometry.c#distance2"
            preview = await call(client, "nav_rename", target=target, new_name="dist2")
            hashes = {f["path"]: f["hash"] for f in preview["data"]["files"]}
            hashes["src/other.c"] = "0" * 16  # the preview had edited one more file
            error: dict[str, Any] = await call_error(
                client, "nav_rename", target=target, new_name="dist2", apply=True, hashes=hashes
            )
            return error

    repo.write("src/other.c", "int other(void) { return 0; }\n")
    repo.commit("a file no rename edits")
    error = asyncio.run(scenario())
    assert error["code"] == "conflict"
    assert "src/other.c" in str(error["message"])
    assert "dist2" not in repo.read("src/geometry.c") + repo.read("src/main.c")


def test_past_the_cap_the_includers_calling_the_changed_function_are_checked_first(
    tmp_path: Path,
) -> None:
    """A header with more includers than one answer checks: those naming the changed
    function were checked by path like the rest, after the ones that cannot break
    (libuv: uv.h's sources first, none of the 1,052 errors in its tests listed)."""
    case = CASES[3]
    require_binary(case.server)
    repo = _repo(tmp_path, case)
    for n in range(45):
        repo.write(f"src/a_{n:02}.c", '#include "geometry.h"\n\nint idle(void);\n')
    repo.write(
        "src/z_calls.c",
        '#include "geometry.h"\n\nint far(struct point a) { return distance2(a, a); }\n',
    )
    repo.commit("many includers, one calling distance2")
    repo.write("include/geometry.h", repo.read("include/geometry.h").replace(OLD, NEW))
    data = _diagnose_change(repo)
    assert "files_capped" in {r["code"] for r in data["completenessReasons"]}
    changes = {(d["path"], d["line"]): d["change"] for d in data["diagnostics"]}
    assert changes.get(("src/z_calls.c", 3)) == "new", data["files"]
