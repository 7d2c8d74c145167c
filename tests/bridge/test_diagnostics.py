"""nav_diagnostics through a real MCP client, on every real server: a type error
written to disk by another tool is reported at once, for the file and among the
files changed since HEAD, with how the diagnostics were had (pull or published).
A change that breaks a caller in another file has that file checked too (ty and
typescript-language-server), and says which files it checked and why, and which
it left out. Then the collector of published diagnostics on its own."""

from __future__ import annotations

import asyncio
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from bridge.cli.main import main
from bridge.context import AppContext
from bridge.tools import diagnostics
from lsp.published import PublishedDiagnostics
from tests.bridge.mcp_session import call, call_error, serve
from tests.conftest import FIXTURES, require_binary
from tests.lsp.conftest import line_of
from tests.memory.conftest import Repo

SCENARIO_TIMEOUT_S = 240.0


@dataclass(frozen=True)
class Case:
    """A fixture, the server to run, a file in it and a line with a type error."""

    fixture: str
    language: str
    server: str
    path: str
    bad_line: str


CASES = [
    Case("py_app", "python", "ty", "app/shapes.py", "broken: int = 'not a number'"),
    Case("py_app", "python", "pyright", "app/shapes.py", "broken: int = 'not a number'"),
    Case(
        "ts_app",
        "typescript",
        "typescript-language-server",
        "src/shapes.ts",
        "export const broken: number = 'not a number';",
    ),
    Case("c_app", "c", "clangd", "src/geometry.c", 'int broken = "not a number";'),
    Case("go_app", "go", "gopls", "main.go", 'var broken int = "not a number"'),
]


def _repo(tmp_path: Path, case: Case) -> Repo:
    repo = Repo(tmp_path / case.fixture)
    shutil.copytree(FIXTURES / case.fixture, repo.root)
    # a busy machine may outlast the default cold-start deadline (see tests/lsp/realserver.py)
    repo.write(
        "codeanchor.toml",
        f'servers = {{ {case.language} = "{case.server}" }}\n[live]\ncold_start_deadline = 60.0\n',
    )
    repo.write(".gitignore", ".codeanchor/\n")
    repo.git("init", "-q", "-b", "main")
    repo.commit("start")
    return repo


@pytest.mark.parametrize("case", CASES, ids=[c.server for c in CASES])
def test_a_type_error_written_to_disk_shows_up_at_once(tmp_path: Path, case: Case) -> None:
    require_binary(case.server)
    repo = _repo(tmp_path, case)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo.root) as client:
            clean = await call(client, "nav_diagnostics", path=case.path)
            repo.write(case.path, repo.read(case.path) + "\n" + case.bad_line + "\n")
            one = await call(client, "nav_diagnostics", path=case.path)
            changed = await call(client, "nav_diagnostics")
            return clean["data"], one["data"], changed["data"]

    clean, one, changed = asyncio.run(scenario())
    bad_line = len(repo.read(case.path).splitlines())
    assert clean["errorCount"] == 0, clean["diagnostics"]
    assert clean["completeness"] == "complete", clean["completenessReasons"]
    for data in (one, changed):
        errors = [(d["path"], d["line"]) for d in data["diagnostics"] if d["severity"] == "error"]
        assert (case.path, bad_line) in errors, data
        assert data["completeness"] == "complete", data["completenessReasons"]
    assert changed["files"][0]["path"] == case.path
    assert {f["why"] for f in changed["files"][1:]} <= WIDER
    assert one["files"][0]["source"] in ("pull", "published")
    assert one["files"][0]["settled"] is True


@dataclass(frozen=True)
class Breaking:
    """An edit of `case.path` adding a required parameter to `symbol`, which breaks
    the call `call` in `user`."""

    case: Case
    old: str
    new: str
    symbol: str
    user: str
    call: str


BREAKING = [
    Breaking(
        CASES[0],
        "def total_area(shapes: list[Shape])",
        "def total_area(shapes: list[Shape], scale: float)",
        "app/shapes.py#total_area",
        "app/report.py",
        "total_area(squares)",
    ),
    Breaking(
        CASES[2],
        "export function totalArea(shapes: Shape[])",
        "export function totalArea(shapes: Shape[], scale: number)",
        "src/shapes.ts#totalArea",
        "src/main.ts",
        "totalArea(shapes)",
    ),
]


GO_BREAKING = Breaking(
    Case("go_app", "go", "gopls", "shapes/shapes.go", CASES[4].bad_line),
    "func Total(shapes []Shape) float64",
    "func Total(shapes []Shape, scale float64) float64",
    "shapes/shapes.go#Total",
    "main.go",
    "shapes.Total(all)",
)


WIDER = {"imports_changed_file", "same_package", "references_changed_symbol"}
"""Why the files past the changed ones and their users in the map are checked."""


def _checked(data: dict[str, Any]) -> list[tuple[str, str, list[str]]]:
    return [(f["path"], f["why"], f["symbols"]) for f in data["files"]]


def _errors(data: dict[str, Any]) -> list[tuple[str, int]]:
    return [(d["path"], d["line"]) for d in data["diagnostics"] if d["severity"] == "error"]


def _diagnose_change(repo: Repo) -> dict[str, Any]:
    """`nav_diagnostics {}` through a real MCP client: its `data`."""

    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo.root) as client:
            answer = await call(client, "nav_diagnostics")
            data: dict[str, Any] = answer["data"]
            return data

    return asyncio.run(scenario())


@pytest.mark.parametrize("edit", BREAKING, ids=[b.case.server for b in BREAKING])
def test_a_change_that_breaks_a_caller_elsewhere_has_the_callers_file_checked(
    tmp_path: Path, edit: Breaking
) -> None:
    case = edit.case
    require_binary(case.server)
    repo = _repo(tmp_path, case)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo.root) as client:
            clean = await call(client, "nav_diagnostics")
            repo.write(case.path, repo.read(case.path).replace(edit.old, edit.new))
            changed = await call(client, "nav_diagnostics")
            return clean["data"], changed["data"]

    clean, changed = asyncio.run(scenario())
    assert (clean["files"], clean["notChecked"], clean["completeness"]) == ([], [], "complete")
    assert _checked(changed)[:2] == [
        (case.path, "changed", []),
        (edit.user, "uses_changed_symbol", [edit.symbol]),
    ]
    assert {why for _, why, _ in _checked(changed)[2:]} <= WIDER
    assert (edit.user, line_of(repo.root, edit.user, edit.call)) in _errors(changed)
    assert changed["notChecked"] == []
    assert changed["completeness"] == "complete", changed["completenessReasons"]


@pytest.mark.parametrize("edit", [GO_BREAKING, BREAKING[1]], ids=lambda b: b.case.server)
def test_a_callers_diagnostics_published_before_the_change_are_never_taken_as_current(
    tmp_path: Path, edit: Breaking
) -> None:
    """The caller's file was open (and published clean) before the change: the
    first answer after it lists the broken call, or says it is not settled."""
    case = edit.case
    require_binary(case.server)
    repo = _repo(tmp_path, case)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo.root) as client:
            before = await call(client, "nav_diagnostics", path=edit.user)
            repo.write(case.path, repo.read(case.path).replace(edit.old, edit.new))
            changed = await call(client, "nav_diagnostics")
            return before["data"], changed["data"]

    before, changed = asyncio.run(scenario())
    assert before["errorCount"] == 0, before["diagnostics"]
    user = next(f for f in changed["files"] if f["path"] == edit.user)
    broken = (edit.user, line_of(repo.root, edit.user, edit.call))
    if user["settled"]:
        assert broken in _errors(changed), changed
    else:
        assert changed["completeness"] == "partial", changed


@pytest.mark.parametrize("edit", [BREAKING[0], GO_BREAKING], ids=lambda b: b.case.server)
def test_what_the_change_broke_is_new_and_listed_before_what_was_broken_already(
    tmp_path: Path, edit: Breaking
) -> None:
    """Errors committed before (one per file, more than the new ones) are `existing`;
    the broken call is `new`, and comes first."""
    case = edit.case
    require_binary(case.server)
    repo = _repo(tmp_path, case)
    old_errors = {
        "python": "\nbroken_{n}: int = 'not a number'\n",
        "go": '\nvar broken{n} int = "not a number"\n',
    }[case.language]
    for n, path in enumerate((case.path, edit.user)):
        repo.write(path, repo.read(path) + old_errors.format(n=n) * 3)
    repo.commit("errors that were there before")
    repo.write(case.path, repo.read(case.path).replace(edit.old, edit.new))
    data = _diagnose_change(repo)
    broken = (edit.user, line_of(repo.root, edit.user, edit.call))
    changes = {(d["path"], d["line"], d["change"]) for d in data["diagnostics"]}
    assert (*broken, "new") in changes, data["diagnostics"]
    errors = [d for d in data["diagnostics"] if d["severity"] == "error"]
    assert [d["change"] for d in errors].count("existing") >= 6
    assert errors[0]["change"] == "new"
    assert data["newErrorCount"] == sum(d["change"] == "new" for d in errors)
    assert data["baseline"]["kind"] == "since" and data["baseline"]["missing"] == []
    assert data["completeness"] == "complete", data["completenessReasons"]


def test_a_file_broken_through_a_structural_type_is_checked_though_the_map_sees_no_use(
    tmp_path: Path,
) -> None:
    """`Square` stands for a Protocol in a file that never calls `area`: no map edge
    leads there from `Square.area`, but the file imports the changed one."""
    case = CASES[0]
    require_binary(case.server)
    repo = _repo(tmp_path, case)
    repo.write(
        "app/sized.py",
        "from typing import Protocol\n\nfrom app.shapes import Square\n\n\n"
        "class Sized(Protocol):\n    def area(self) -> float: ...\n\n\n"
        "SIZED: Sized = Square(2.0)\n",
    )
    repo.commit("a protocol")
    old = "    def area(self) -> float:\n        return self.side * self.side"
    repo.write(case.path, repo.read(case.path).replace(old, old.replace("float", "str", 1)))
    data = _diagnose_change(repo)
    assert ("app/sized.py", "imports_changed_file", []) in _checked(data)
    assert ("app/sized.py", 10) in _errors(data), data["diagnostics"]


def test_every_caller_file_is_checked_and_settled_though_they_open_together(
    tmp_path: Path,
) -> None:
    """ty cancels a pull when another file opens meanwhile: the files are sent first."""
    edit = BREAKING[0]
    require_binary(edit.case.server)
    repo = _repo(tmp_path, edit.case)
    users = [f"app/use_{i}.py" for i in range(6)]
    for user in users:
        repo.write(user, "from app.shapes import total_area\n\nTOTAL = total_area([])\n")
    repo.commit("callers")
    repo.write(edit.case.path, repo.read(edit.case.path).replace(edit.old, edit.new))
    data = _diagnose_change(repo)
    checked = {f["path"]: f for f in data["files"]}
    assert set(users) < set(checked)
    assert data["completeness"] == "complete", data["completenessReasons"]
    assert {(u, 3) for u in users} <= set(_errors(data))
    assert {checked[u]["settled"] for u in users} == {True}


def test_a_renamed_function_has_the_files_still_naming_it_checked(tmp_path: Path) -> None:
    case = CASES[0]
    require_binary(case.server)
    repo = _repo(tmp_path, case)
    repo.write("app/report.py", repo.read("app/report.py").replace("build_report", "make_report"))
    data = _diagnose_change(repo)
    assert _checked(data) == [
        ("app/report.py", "changed", []),
        ("app/cli.py", "names_removed_symbol", ["app/report.py#build_report"]),
    ]
    assert ("app/cli.py", line_of(repo.root, "app/cli.py", "import build_report")) in _errors(data)
    assert data["completeness"] == "complete", data["completenessReasons"]


def test_files_over_the_cap_are_named_with_why_and_the_answer_is_partial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    edit = BREAKING[0]
    require_binary(edit.case.server)
    repo = _repo(tmp_path, edit.case)
    repo.write(edit.case.path, repo.read(edit.case.path).replace(edit.old, edit.new))
    monkeypatch.setattr(diagnostics, "MAX_FILES", 1)
    monkeypatch.setattr(diagnostics, "MAX_PULLED_FILES", 1)  # ty answers pulls

    async def scenario() -> dict[str, Any]:
        app = AppContext(repo.root)
        try:
            async with asyncio.timeout(SCENARIO_TIMEOUT_S):
                answer = await diagnostics.nav_diagnostics(app)
                return dict(answer["data"])
        finally:
            await app.aclose()

    data = asyncio.run(scenario())
    assert _checked(data) == [(edit.case.path, "changed", [])]
    left = data["notChecked"][0]
    assert (left["path"], left["reason"], left["why"], left["symbols"]) == (
        edit.user,
        "files_capped",
        "uses_changed_symbol",
        [edit.symbol],
    )
    assert {f["reason"] for f in data["notChecked"]} == {"files_capped"}
    assert data["completeness"] == "partial"
    assert [r["code"] for r in data["completenessReasons"]] == ["files_capped"]


def test_outside_paths_and_bad_commits_are_refused(tmp_path: Path) -> None:
    require_binary("ty")
    repo = _repo(tmp_path, CASES[0])

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo.root) as client:
            outside = await call_error(client, "nav_diagnostics", path="../elsewhere.py")
            commit = await call_error(client, "nav_diagnostics", since="no-such-commit")
            return outside, commit

    outside, commit = asyncio.run(scenario())
    assert outside["code"] == "outside_root"
    assert commit["code"] == "bad_input"


def test_published_diagnostics_settle_only_for_what_the_server_was_last_sent() -> None:
    uri = "file:///w/a.py"
    old = types.Diagnostic(
        range=types.Range(
            start=types.Position(line=0, character=0), end=types.Position(line=0, character=1)
        ),
        message="old",
    )

    async def scenario() -> tuple[bool, bool, bool, list[str]]:
        found = PublishedDiagnostics()
        found.sent(uri, 2)
        found.publish(types.PublishDiagnosticsParams(uri=uri, diagnostics=[old], version=1))
        stale = await found.settled(uri, within=0.2)  # a publish for version 1 is not for 2
        found.publish(types.PublishDiagnosticsParams(uri=uri, diagnostics=[], version=2))
        current = await found.settled(uri, within=30.0)
        found.sent(uri, 3)
        found.publish(types.PublishDiagnosticsParams(uri=uri, diagnostics=[old]))
        unversioned = await found.settled(uri, within=30.0)  # published after it was sent
        return stale, current, unversioned, [d.message for d in found.current(uri)]

    assert asyncio.run(scenario()) == (False, True, True, ["old"])


def test_an_edited_file_that_stays_clean_is_settled_in_typescript(tmp_path: Path) -> None:
    """typescript-language-server publishes nothing for a clean file edited into a clean
    file: the answer is asked of tsserver, never waited for until the deadline."""
    case = CASES[2]
    require_binary(case.server)
    repo = _repo(tmp_path, case)

    async def scenario() -> dict[str, Any]:
        async with asyncio.timeout(SCENARIO_TIMEOUT_S), serve(repo.root) as client:
            await call(client, "nav_diagnostics", path=case.path)
            repo.write(case.path, "// edited\n" + repo.read(case.path))
            answer = await call(client, "nav_diagnostics", path=case.path)
            data: dict[str, Any] = answer["data"]
            return data

    data = asyncio.run(scenario())
    assert (data["errorCount"], data["completeness"]) == (0, "complete"), data
    assert [(f["source"], f["settled"]) for f in data["files"]] == [("pull", True)]


def test_a_publish_from_before_the_workspace_changed_is_stale_until_sent_again() -> None:
    """A user of a changed file keeps its version: its old publish proves nothing."""
    user = "file:///w/user.go"

    async def scenario() -> tuple[bool, bool, bool, bool]:
        found = PublishedDiagnostics()
        found.sent(user, 1)
        found.publish(types.PublishDiagnosticsParams(uri=user, diagnostics=[], version=1))
        found.workspace_changed()  # another file changed
        stale = found.stale(user)
        settled_old = await found.settled(user, within=0.2)
        found.sent(user, 2)  # sent again
        still = found.stale(user)
        found.publish(types.PublishDiagnosticsParams(uri=user, diagnostics=[], version=2))
        return stale, settled_old, still, await found.settled(user, within=30.0)

    assert asyncio.run(scenario()) == (True, False, False, True)


def test_a_publish_is_for_the_document_however_the_server_escapes_its_uri() -> None:
    """gopls sends a `+` in a folder name as is; the document was opened as `%2B`."""

    async def scenario() -> tuple[bool, int]:
        found = PublishedDiagnostics()
        found.sent("file:///w/a%2Bb/x.go", 1)
        found.publish(
            types.PublishDiagnosticsParams(uri="file:///w/a+b/x.go", diagnostics=[], version=1)
        )
        return await found.settled("file:///w/a%2Bb/x.go", within=30.0), 0

    assert asyncio.run(scenario()) == (True, 0)


def test_the_command_exits_1_when_an_error_is_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[0]
    require_binary(case.server)
    repo = _repo(tmp_path, case)
    assert main(["nav", "diagnostics", "--root", str(repo.root)]) == 0
    repo.write(case.path, repo.read(case.path) + "\n" + case.bad_line + "\n")
    assert main(["nav", "diagnostics", "--root", str(repo.root)]) == 1
    bad_line = len(repo.read(case.path).splitlines())
    assert f"{case.path}:{bad_line}:" in capsys.readouterr().out
