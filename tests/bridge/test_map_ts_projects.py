"""Map answers on TypeScript projects configured as real ones are: a workspace monorepo,
tsconfig `paths` with `baseUrl` and `extends`, a package whose tests import it by its
own name, `.js` specifiers naming `.ts` files, re-exports and default exports. Each
fixture (tests/fixtures/ts_projects) is asked through the real map tools on a real
AppContext; the callers must be exactly the ones the compiler would tie, and the
answer `complete`. The self-importing package is checked against the real
typescript-language-server too.
"""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from bridge.context import AppContext
from bridge.tools.mapgraph import map_impact, map_neighbors
from bridge.tools.nav import nav_references
from tests.conftest import require_binary

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "ts_projects"
TIMEOUT_S = 90.0


def _repo(tmp_path: Path, name: str) -> Path:
    root = tmp_path / name
    shutil.copytree(FIXTURES / name, root)
    (root / "codeanchor.toml").write_text("watch = false\n")
    return root


def _ask(root: Path, *questions: tuple[Any, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each tool's `data`, asked in turn of one AppContext."""

    async def scenario() -> list[dict[str, Any]]:
        app = AppContext(root)
        try:
            answers = []
            for tool, arguments in questions:
                envelope = dict(await tool(app, **arguments))
                assert envelope["ok"], envelope
                answers.append(envelope["data"])
            return answers
        finally:
            await app.aclose()

    return asyncio.run(asyncio.wait_for(scenario(), TIMEOUT_S))


def _callers(node_id: str) -> tuple[Any, dict[str, Any]]:
    return map_neighbors, {"node_id": node_id, "direction": "in"}


def _listed(data: dict[str, Any]) -> list[tuple[str, str, list[int]]]:
    return sorted((n["nodeId"], n["via"], n["at"]) for n in data["neighbors"])


def _complete(data: dict[str, Any]) -> None:
    assert (data["completeness"], data["completenessReasons"], data["unresolved"]) == (
        "complete",
        [],
        [],
    )


CASES = {
    "workspace": {
        "packages/core/src/index.ts#makeThing": [("packages/app/src/main.ts#run", "calls", [7])],
        "packages/core/src/util.ts#helper": [("packages/app/src/main.ts#run", "calls", [7])],
    },
    "paths": {
        "lib/math.ts#add": [("src/main.ts#total", "calls", [5])],
        "src/tools.ts#tool": [("src/main.ts#total", "calls", [5])],
    },
    "selfref": {
        "src/vanilla.ts#createStore": [
            ("tests/basic.test.ts#basic", "calls", [4]),
            ("tests/root.test.ts#root", "calls", [4]),
        ],
    },
    "jsext": {
        "src/parse.ts#parse": [("src/main.ts#main", "calls", [6])],
        "src/load.mts#load": [("src/main.ts#main", "calls", [6])],
        "src/lib/index.ts#helper": [("src/main.ts#main", "calls", [6])],
    },
    "reexports": {
        "src/impl.ts#create": [("src/use.ts#use", "calls", [9])],
        "src/named.ts#make": [("src/use.ts#use", "calls", [9])],
        "src/legacy.ts#legacy": [("src/use.ts#use", "calls", [9])],
        "src/impl.ts#buildImpl": [("src/use.ts#use", "calls", [9])],
        "src/local.ts#inner": [("src/use.ts#use", "calls", [9])],
        "src/common.js#common": [("src/use.ts#use", "calls", [9])],
    },
}
"""Fixture -> symbol -> its callers exactly: (caller, edge, call lines)."""


@pytest.mark.parametrize("fixture", sorted(CASES))
def test_callers_through_the_project_configuration_are_exact_and_complete(
    tmp_path: Path, fixture: str
) -> None:
    root = _repo(tmp_path, fixture)
    expected = CASES[fixture]
    answers = _ask(root, *(_callers(node) for node in expected))
    for node, data in zip(expected, answers, strict=True):
        assert _listed(data) == expected[node], node
        _complete(data)


def test_a_python_repository_gets_no_config_reason_from_broken_js_configs(
    tmp_path: Path,
) -> None:
    root = tmp_path / "py"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "a.py").write_text("import requests\n\n\ndef helper():\n    return 1\n")
    (root / "pkg" / "b.py").write_text(
        "from pkg.a import helper\n\n\ndef use():\n    return helper()\n"
    )
    (root / "package.json").write_text('{"name": ')
    (root / "tsconfig.json").write_text('{"extends": "./missing.json"}')
    (root / "codeanchor.toml").write_text("watch = false\n")
    (data,) = _ask(root, _callers("pkg/a.py#helper"))
    assert _listed(data) == [("pkg/b.py#use", "calls", [5])]
    _complete(data)


def test_a_package_from_node_modules_is_outside_not_a_guess(tmp_path: Path) -> None:
    root = _repo(tmp_path, "workspace")
    (callees,) = _ask(root, (map_neighbors, {"node_id": "packages/app/src/main.ts#run"}))
    assert _listed(callees) == [
        ("packages/core/src/index.ts#makeThing", "calls", [7]),
        ("packages/core/src/util.ts#helper", "calls", [7]),
    ]
    open_uses = [(u["name"], u["why"], u.get("guesses")) for u in callees["unresolved"]]
    assert open_uses == [("chunk", "outside", None)]


def test_the_workspace_package_is_found_through_pnpm_too(tmp_path: Path) -> None:
    root = _repo(tmp_path, "workspace")
    (root / "package.json").write_text('{"name": "acme", "private": true}\n')
    (root / "pnpm-workspace.yaml").write_text("packages:\n  # all of them\n  - 'packages/*'\n")
    (data,) = _ask(root, _callers("packages/core/src/index.ts#makeThing"))
    assert _listed(data) == [("packages/app/src/main.ts#run", "calls", [7])]
    _complete(data)


def test_the_own_name_resolves_through_exports_without_paths(tmp_path: Path) -> None:
    root = _repo(tmp_path, "selfref")
    (root / "tsconfig.json").write_text('{"include": ["src/**/*", "tests/**/*"]}\n')
    (data,) = _ask(root, _callers("src/vanilla.ts#createStore"))
    assert _listed(data) == CASES["selfref"]["src/vanilla.ts#createStore"]
    _complete(data)


def test_impact_follows_the_alias_to_the_tests(tmp_path: Path) -> None:
    root = _repo(tmp_path, "selfref")
    (data,) = _ask(root, (map_impact, {"node_id": "src/vanilla.ts#createStore"}))
    assert sorted(n["nodeId"] for n in data["dependents"]) == [
        "tests/basic.test.ts#basic",
        "tests/root.test.ts#root",
    ]
    assert data["completeness"] == "complete"


def test_an_unparseable_tsconfig_makes_the_answer_partial_not_a_crash(tmp_path: Path) -> None:
    root = _repo(tmp_path, "paths")
    (root / "tsconfig.base.json").write_text('{"compilerOptions": {"baseUrl": ".", \n')
    (data,) = _ask(root, _callers("src/tools.ts#tool"))
    assert data["neighbors"] == []
    assert data["completeness"] == "partial"
    assert [r["code"] for r in data["completenessReasons"]] == ["unresolved_uses"]
    assert "configuration" in data["completenessReasons"][0]["message"]
    assert [(u["path"], u["line"], u["name"], u["why"]) for u in data["unresolved"]] == [
        ("src/main.ts", 5, "tool", "config")
    ]


def test_the_live_server_agrees_on_the_self_import(tmp_path: Path) -> None:
    require_binary("typescript-language-server")
    root = _repo(tmp_path, "selfref")
    with (root / "codeanchor.toml").open("a") as config:  # a loaded machine loads slowly
        config.write("[live]\ncold_start_deadline = 60.0\n")
    live, mapped = _ask(
        root,
        (  # without the declaration: a server still loading answers empty, and is asked again
            nav_references,
            {"target": "src/vanilla.ts:1", "name": "createStore", "include_declaration": False},
        ),
        _callers("src/vanilla.ts#createStore"),
    )
    assert [r for r in live.get("completenessReasons", []) if r["code"] == "server_loading"] == []
    sites = sorted({(loc["path"], loc["line"]) for loc in live["locations"]})
    called = sorted(
        (n["nodeId"].partition("#")[0], at) for n in mapped["neighbors"] for at in n["at"]
    )
    import_lines = [("tests/basic.test.ts", 1), ("tests/root.test.ts", 1)]
    assert sites == sorted([*called, *import_lines]), json.dumps(live["locations"])
