"""The live answers' cross-check knows what the map types: a namesake's use is ruled out.

ty answers nav_references and nav_callers on a small Python repository whose
`invoke` is also a library's method (`runner.invoke` on click's `CliRunner`),
another class's (`Other.invoke`) and a local's (`invoke = print`). Those sites are
listed as weighed (`seenAs`: `library`, `other`, and `definition` where the local is
bound) and stand against nothing: the
answer that lists every use of `Context.invoke` is complete. A call on a receiver
the map cannot type keeps standing: it may be ours.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bridge.tools.nav import nav_callers, nav_references
from tests.bridge.test_nav_completeness import _ask
from tests.conftest import require_binary

INVOKE = "pkg/core.py#Context.invoke"
SOURCES = {
    "codeanchor.toml": 'watch = false\nservers = { python = "ty" }\n',
    "pkg/__init__.py": "",
    "pkg/core.py": (
        "class Context:\n"
        "    def invoke(self, callback):\n"
        "        return callback()\n\n\n"
        "class Other:\n"
        "    def invoke(self):\n"
        "        return 0\n"
    ),
    "pkg/use.py": (
        "from click.testing import CliRunner\n\n"
        "from pkg.core import Context, Other\n\n\n"
        "def run() -> int:\n"
        "    runner = CliRunner()\n"
        '    runner.invoke(["a"])\n'
        "    Other().invoke()\n"
        "    invoke = print\n"
        "    invoke()\n"
        "    return Context().invoke(len)\n"
    ),
}
"""Line 12 calls our `Context.invoke`; line 8 a library's, line 9 `Other.invoke`,
line 11 the local `invoke`."""
UNTYPED = "def drive(thing):\n    return thing.invoke(len)\n"


def _repo(root: Path, extra: dict[str, str] | None = None) -> Path:
    for path, text in {**SOURCES, **(extra or {})}.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    return root


def _weighed(data: dict[str, Any]) -> dict[tuple[str, int], str]:
    return {(u["path"], u["line"]): u["seenAs"] for u in data["unconfirmed"]}


def test_namesakes_the_map_types_elsewhere_stand_against_nothing(tmp_path: Path) -> None:
    require_binary("ty")
    root = _repo(tmp_path / "repo")
    refs = _ask(root, nav_references, INVOKE)
    assert ("pkg/use.py", 12) in {(loc["path"], loc["line"]) for loc in refs["locations"]}
    assert refs["completeness"] == "complete", refs["completenessReasons"]
    weighed = _weighed(refs)
    assert {place: weighed[place] for place in weighed if place[0] == "pkg/use.py"} == {
        ("pkg/use.py", 8): "library",
        ("pkg/use.py", 9): "other",
        ("pkg/use.py", 10): "definition",
        ("pkg/use.py", 11): "other",
    }
    callers = _ask(root, nav_callers, INVOKE)
    assert [(c["name"], c["callLines"]) for c in callers["callers"]] == [("run", [12])]
    assert callers["completeness"] == "complete", callers["completenessReasons"]


def test_a_receiver_the_map_cannot_type_still_stands(tmp_path: Path) -> None:
    require_binary("ty")
    root = _repo(tmp_path / "repo", {"pkg/drive.py": UNTYPED})
    refs = _ask(root, nav_references, INVOKE)
    assert refs["completeness"] == "partial"
    assert _weighed(refs)[("pkg/drive.py", 2)] == "call"
    assert refs["completenessReasons"][0]["code"] == "unconfirmed_candidates"
