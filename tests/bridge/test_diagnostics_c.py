"""nav_diagnostics on a C header's change, through a real MCP client and clangd: the
calls it broke are `new` against the baseline (the header sent as it was at HEAD
reaches the files including it), and the files that see the header only through
another header are checked too."""

from __future__ import annotations

from pathlib import Path

from tests.bridge.test_diagnostics import CASES, _checked, _diagnose_change, _errors, _repo
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
    assert data["completeness"] == "complete", data["completenessReasons"]
