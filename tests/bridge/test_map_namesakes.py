"""Namesakes are never bound by name alone: real maps of small Go and Python repositories
asked through the real tools on a real AppContext.

A call on a receiver the map types as a library's (Go's `t.Run` on `*testing.T`,
`exec.Cmd.Run`, a Python `runner.invoke` on a library's `CliRunner` given by a pytest
fixture) is no caller of our method of that name and leaves the answer complete; a
call on a receiver the map cannot type is a guess, listed apart in `unresolved` and
never among the callers; a local that shadows a definition is no use of it. Each
answer lists its callers exactly, with the lines of their own calls only.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bridge.tools.mapgraph import map_impact
from map import CodeMap, MapSettings
from tests.bridge.test_map_completeness import _ask, _callers, _repo

RUN = "command.go#Command.Run"
GO = {
    "go.mod": "module example.com/cli\n\ngo 1.21\n",
    "command.go": (
        "package cli\n\n"
        "type Command struct{ Name string }\n\n"
        "func (c *Command) Run(args []string) error { return nil }\n\n"
        "var Default = &Command{}\n"
    ),
    "task.go": "package cli\n\ntype task struct{}\n\nfunc (t task) Run() {}\n",
    "command_test.go": (
        "package cli\n\n"
        'import (\n\t"os/exec"\n\t"testing"\n)\n\n'
        "func TestRun(t *testing.T) {\n"
        '\tt.Run("sub", func(t *testing.T) {\n'
        "\t\tcmd := &Command{}\n"
        "\t\t_ = cmd.Run(nil)\n"
        "\t})\n"
        '\tc := exec.Command("true")\n'
        "\t_ = c.Run()\n"
        "\tvar k task\n"
        "\tk.Run()\n"
        "\t_ = Default.Run(nil)\n"
        "}\n"
    ),
}
"""`TestRun` calls our `Command.Run` on line 11, and on line 17 through a package-level
variable of another file; `t.Run` (line 9) and `c.Run` (line 14) are the standard
library's, `k.Run` (line 16) is `task.Run`."""
UNTYPED_GO = {
    "drive.go": (
        "package cli\n\nfunc drive(get func() *Command) error {\n\treturn get().Run(nil)\n}\n"
    ),
}
DISPATCH = {
    "go.mod": "module example.com/cats\n\ngo 1.21\n",
    "cats.go": (
        "package cats\n\n"
        "type Categories interface{ Visible() []string }\n\n"
        "type Lister interface {\n\tVisible() []string\n\tHidden() []string\n}\n\n"
        "type flagCats struct{}\n\n"
        "func (f *flagCats) Visible() []string { return nil }\n\n"
        "type Command struct{ Categories Categories }\n\n"
        "func (c *Command) Shown() []string { return c.Categories.Visible() }\n"
    ),
}
"""`Command.Shown` calls `Visible` through the interface `Categories` (line 16), which
`flagCats` satisfies (it lacks `Lister`'s `Hidden`; the field is named as its type):
gopls counts that call for `flagCats.Visible` too."""
INVOKE = "pkg/core.py#Context.invoke"
PYTHON = {
    "pkg/__init__.py": "",
    "pkg/core.py": (
        "class Context:\n"
        "    def invoke(self, callback):\n"
        "        return callback()\n\n\n"
        "class Other:\n"
        "    def invoke(self):\n"
        "        return 0\n\n\n"
        'def relay(ctx: "Context"):\n'
        "    return ctx.invoke(len)\n\n\n"
        "class Built:\n"
        "    def __init__(self):\n"
        "        self.ready = True\n\n"
        "    @classmethod\n"
        "    def make(cls):\n"
        "        return cls()\n"
    ),
    "tests/conftest.py": (
        "import pytest\n"
        "from click.testing import CliRunner\n\n"
        "from pkg.core import Context\n\n\n"
        "@pytest.fixture\n"
        "def runner():\n"
        "    return CliRunner()\n\n\n"
        "@pytest.fixture\n"
        "def ctx():\n"
        "    ctx = Context()\n"
        "    yield ctx\n"
    ),
    "tests/test_use.py": (
        "from pkg.core import Other\n\n\n"
        "def invoke():\n"
        "    return 1\n\n\n"
        "def test_runner(runner):\n"
        '    runner.invoke(["a"])\n\n\n'
        "def test_ctx(ctx):\n"
        "    return ctx.invoke(len) + Other().invoke()\n\n\n"
        "def test_shadow():\n"
        "    invoke = print\n"
        "    invoke()\n"
    ),
}
"""`test_ctx` calls our `Context.invoke` (line 13, through the `ctx` fixture), as
`relay` does (line 12 of pkg/core.py, through a forward-reference annotation), and
`Other.invoke`; `runner.invoke` (line 9) is a library's (the `runner` fixture gives a
`CliRunner` from click); `invoke()` in `test_shadow` (line 18) calls the local."""


def _listed(data: dict[str, Any], key: str = "neighbors") -> list[tuple[str, float, list[int]]]:
    return [(n["nodeId"], n["edgeConfidence"], n["at"]) for n in data[key]]


def _open(data: dict[str, Any]) -> list[tuple[str, int, str, str]]:
    return [(u["path"], u["line"], u["receiver"], u["why"]) for u in data["unresolved"]]


def test_go_tests_calling_t_run_are_no_callers_of_our_run(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", GO)
    callers, task = _ask(root, _callers(RUN), _callers("task.go#task.Run"))
    data = callers["data"]
    assert _listed(data) == [("command_test.go#TestRun", 1.0, [11, 17])]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = task["data"]
    assert _listed(data) == [("command_test.go#TestRun", 1.0, [16])]
    assert data["completeness"] == "complete"


def test_go_callers_through_an_interface_the_type_satisfies(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", DISPATCH)
    (concrete,) = _ask(root, _callers("cats.go#flagCats.Visible"))
    data = concrete["data"]
    assert _listed(data) == [("cats.go#Command.Shown", 1.0, [16])]
    assert data["neighbors"][0]["from"] == "cats.go#Categories.Visible"
    assert data["completeness"] == "complete"


def test_go_a_receiver_the_map_cannot_type_is_a_guess_listed_apart(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", {**GO, **UNTYPED_GO})
    callers, impact = _ask(root, _callers(RUN), (map_impact, {"node_id": RUN}))
    for data, key in ((callers["data"], "neighbors"), (impact["data"], "dependents")):
        assert _listed(data, key) == [("command_test.go#TestRun", 1.0, [11, 17])]
        assert data["completeness"] == "partial"
        assert _open(data) == [("drive.go", 4, "get()", "guess")]
        assert data["unresolved"][0]["guesses"] == [RUN, "task.go#task.Run"]
        assert "guessed by name" in data["completenessReasons"][0]["message"]


def test_python_fixtures_library_receivers_and_a_shadowing_local(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", PYTHON)
    invoke, other, local = _ask(
        root,
        _callers(INVOKE),
        _callers("pkg/core.py#Other.invoke"),
        _callers("tests/test_use.py#invoke"),
    )
    data = invoke["data"]
    assert _listed(data) == [
        ("pkg/core.py#relay", 1.0, [12]),
        ("tests/test_use.py#test_ctx", 1.0, [13]),
    ]
    assert (data["completeness"], data["unresolvedCount"]) == ("complete", 0)
    data = other["data"]
    assert _listed(data) == [("tests/test_use.py#test_ctx", 1.0, [13])]
    assert data["completeness"] == "complete"
    data = local["data"]
    assert (_listed(data), data["completeness"]) == ([], "complete")


def test_python_a_classmethod_calling_cls_constructs_its_class(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", PYTHON)
    (built,) = _ask(root, _callers("pkg/core.py#Built.__init__"))
    data = built["data"]
    assert _listed(data) == [("pkg/core.py#Built.make", 1.0, [21])]
    assert data["completeness"] == "complete"


def test_python_a_fixture_edited_relinks_its_tests_as_a_fresh_build_does(tmp_path: Path) -> None:
    root = _repo(tmp_path / "repo", PYTHON)
    code_map = CodeMap.open(root, MapSettings(snapshot_dir=str(tmp_path / "store")))
    assert [t.why for t in code_map.ties("tests/test_use.py", "invoke") if t.line == 9] == [
        "outside"
    ]
    conftest = root / "tests" / "conftest.py"
    conftest.write_text(conftest.read_text().replace("return CliRunner()", "return Context()"))
    code_map.rebuild()
    edited = code_map.ties("tests/test_use.py", "invoke")
    assert [t.targets for t in edited if t.line == 9] == [(INVOKE,)]
    fresh = CodeMap.open(root, MapSettings(snapshot_dir=str(tmp_path / "fresh")))
    assert fresh.ties("tests/test_use.py", "invoke") == edited
