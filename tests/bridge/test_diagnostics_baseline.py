"""nav_diagnostics' baseline with the real typescript-language-server: a second change
against the same commit reuses the baseline already had (the servers are not held
with the old texts again) and still tells new from existing; a commit in between
means a new baseline; an error whose message moved past its first line only is the
error that was there. Then the baseline state on its own."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bridge.context import AppContext
from bridge.tools import diagnostics
from bridge.tools.baseline_cache import BaselineState, baseline_state
from memory import Diff
from memory.git import Change
from tests.bridge.test_diagnostics import BREAKING, CASES, SCENARIO_TIMEOUT_S, _repo
from tests.conftest import require_binary
from tests.lsp.conftest import line_of
from tests.memory.conftest import Repo

OLD_ERROR = '\nexport const old: number = "was broken before";\n'
EARLIER = "from an earlier answer"


def _changes(data: dict[str, Any]) -> dict[tuple[str, int], str]:
    return {(d["path"], d["line"]): d["change"] for d in data["diagnostics"]}


async def _ask(app: AppContext) -> dict[str, Any]:
    answer = await diagnostics.nav_diagnostics(app, budget=50_000)
    return dict(answer["data"])


def test_a_second_change_reuses_the_baseline_until_the_commit_moves(tmp_path: Path) -> None:
    edit = BREAKING[1]
    require_binary(edit.case.server)
    repo = _repo(tmp_path, edit.case)
    repo.write(edit.user, repo.read(edit.user) + OLD_ERROR)
    repo.commit("an error that was there before")
    shapes = repo.read(edit.case.path)
    three = edit.new.replace("scale: number", "scale: number, more: number")

    async def scenario() -> list[dict[str, Any]]:
        app = AppContext(repo.root)
        try:
            async with asyncio.timeout(SCENARIO_TIMEOUT_S):
                repo.write(edit.case.path, shapes.replace(edit.old, edit.new))
                first = await _ask(app)
                repo.write(edit.case.path, shapes.replace(edit.old, three))
                second = await _ask(app)
                repo.write(edit.case.path, shapes.replace(edit.old, edit.new))
                repo.commit("the change kept")
                repo.write(edit.case.path, shapes.replace(edit.old, three))
                third = await _ask(app)
                return [first, second, third]
        finally:
            await app.aclose()

    first, second, third = asyncio.run(scenario())
    call = (edit.user, line_of(repo.root, edit.user, edit.call))
    old = (edit.user, line_of(repo.root, edit.user, OLD_ERROR.strip()))
    for data in (first, second):
        assert (_changes(data)[call], _changes(data)[old]) == ("new", "existing"), data
        assert data["completeness"] == "complete", data["completenessReasons"]
    assert EARLIER not in first["baseline"]["message"]
    assert EARLIER in second["baseline"]["message"]
    # committed, the broken call was there before the next change: a new baseline
    assert (_changes(third)[call], _changes(third)[old]) == ("new", "existing"), third
    assert EARLIER not in third["baseline"]["message"]
    messages = {d["message"] for d in third["diagnostics"] if (d["path"], d["line"]) == call}
    assert any("3 arguments" in m for m in messages), messages


UNION = (
    "export declare const set: { (a: number): void; (a: string, b: true): void }"
    " | { (a: boolean): void; (a: object, b: 1): void };\n"
)
CALL = "set(1);"


def test_an_error_whose_message_moved_past_its_first_line_is_existing(tmp_path: Path) -> None:
    """tsserver spells out the union it cannot call in the second line of its message:
    a change to one of its members moves that line, not the error."""
    case = CASES[2]
    require_binary(case.server)
    repo: Repo = _repo(tmp_path, case)
    repo.write("src/setter.ts", UNION)
    repo.write("src/caller.ts", f'import {{ set }} from "./setter";\n\n{CALL}\n')
    repo.commit("a call that never worked")

    async def scenario() -> dict[str, Any]:
        app = AppContext(repo.root)
        try:
            async with asyncio.timeout(SCENARIO_TIMEOUT_S):
                repo.write("src/setter.ts", UNION.replace("b: 1", "b: 2"))
                return await _ask(app)
        finally:
            await app.aclose()

    data = asyncio.run(scenario())
    call = ("src/caller.ts", line_of(repo.root, "src/caller.ts", CALL))
    found = [d for d in data["diagnostics"] if (d["path"], d["line"]) == call]
    assert [d["message"].partition("\n")[0] for d in found] == ["This expression is not callable."]
    assert "b: 2" in found[0]["message"]
    assert found[0]["change"] == "existing", found


def test_the_baseline_state_moves_with_the_commit_and_what_is_not_put_back(
    tmp_path: Path,
) -> None:
    """Which files a change modified and put back does not move the baseline; the
    commit, a file added, deleted or renamed, and a changed file left on disk do."""
    (tmp_path / "package.json").write_text("{}")

    def state(commit: str, files: dict[str, Change], sent: set[str]) -> BaselineState:
        return baseline_state(tmp_path, Diff(commit, None, files), dict.fromkeys(sent, ""))

    one = state("c1", {"a.ts": Change("modified")}, {"a.ts"})
    assert one == state(
        "c1", {"b.ts": Change("modified"), "a.ts": Change("modified")}, {"a.ts", "b.ts"}
    )
    assert one != state("c2", {"a.ts": Change("modified")}, {"a.ts"})
    assert one != state("c1", {"n.ts": Change("added")}, {"n.ts"})
    assert one != state("c1", {"a.ts": Change("deleted")}, set())
    assert one != state("c1", {"a.ts": Change("renamed", "z.ts")}, {"z.ts"})
    on_disk = state("c1", {"package.json": Change("modified")}, set())
    assert on_disk != one
    (tmp_path / "package.json").write_text('{"name": "moved"}')
    assert state("c1", {"package.json": Change("modified")}, set()) != on_disk
